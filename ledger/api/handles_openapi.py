"""The payment-handle calls' part of the OpenAPI document (issue 22, :mod:`ledger.api.handles`)."""
from __future__ import annotations

from typing import Any

from ledger.api.club_schemas import ClubSettlementAnswerSchema
from ledger.api.openapi_parts import json_answer as _json
from ledger.api.openapi_parts import operation as _op

PLAYER_NAME = {"name": "name", "in": "path", "required": True, "description": "A player of the night (by the name rule).",
               "schema": {"type": "string", "minLength": 1}}

LINE = {"name": "line", "in": "path", "required": True,
        "description": "A transfer of GET …/settlement, 1 for the first.", "schema": {"type": "integer", "minimum": 1}}
KIND = {"name": "kind", "in": "query", "required": False,
        "description": "Which hand-off to draw (`venmo`, `cashapp`, `paypal`, `upi`, `iban`, `qr`); default: the "
                       "first with a `qr_payload`, else the first.",
        "schema": {"type": "string", "enum": ["venmo", "cashapp", "paypal", "upi", "iban", "qr"]}}

_TEXT = {"type": ["string", "null"]}
HANDLES = {
    "type": "object", "additionalProperties": False,
    "description": "Payment handles; a missing, empty or null key is no such handle (the body replaces them all). "
                   "`venmo` (USD), `cashapp` (USD, `$` optional), `paypal` (PayPal.me name), `upi` (a VPA "
                   "`name@bank`, INR), `iban` (EUR, checked digits; needs `name`, the account holder; `bic` "
                   "optional), `qr` (the text of the payee's own EMVCo receive code: QR Ph, FAST, Lao QR; CRC-16 "
                   "checked). 422 `invalid_handle` names the field.",
    "properties": {key: _TEXT for key in ("venmo", "cashapp", "paypal", "upi", "iban", "bic", "name", "qr")},
}
_STORED = {"type": "object", "additionalProperties": {"type": "string"}}
PLAYER_HANDLES = {"type": "object", "required": ["player", "handles"],
                  "properties": {"player": {"type": "string"}, "handles": _STORED}}
MEMBER_HANDLES = {"type": "object", "required": ["member_id", "name", "handles"],
                  "properties": {"member_id": {"type": "integer"}, "name": {"type": "string"}, "handles": _STORED}}


def handle_paths() -> dict[str, dict[str, Any]]:
    """Paths of :mod:`ledger.api.handles`, relative to ``/api/v1``."""
    return {
        "/sessions/{session_id}/players/{name}/handles": {
            "get": _op("A player's payment handles (any token of this night; another night's: 403 forbidden).",
                       {200: _json(PLAYER_HANDLES, "The handles.")}, ()),
            "put": _op("Set a player's payment handles: the player's own phone (joined under their name) or a "
                       "host; a viewer or another player's phone: 403 role_forbidden. 404 player_not_found.",
                       {200: _json(PLAYER_HANDLES, "The handles kept.")}, (), body=HANDLES),
        },
        "/sessions/{session_id}/settlement/{line}/qr.svg": {"get": _op(
            "The QR code of a settle-up line's hand-off (its `qr_payload`, else its `url`), to pay from another "
            "phone (any token of the night). 404 transfer_not_found, hand_off_not_found.",
            {200: {"description": "The QR code.", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
            (), params=[KIND])},
        "/sessions/{session_id}/settlement.txt": {"get": _op(
            "The settle-up as plain text for the group chat, in the reader's language (`?lang=`, else "
            "Accept-Language): one line per transfer, with the payee's handle that fits the currency.",
            {200: {"description": "The text.", "content": {"text/plain": {"schema": {"type": "string"}}}}}, (),
            params=[{"name": "lang", "in": "query", "required": False, "schema": {"type": "string"}}])},
        "/clubs/{club_id}/settlement": {"get": _op(
            "The club's plan (as in GET /clubs/{id}) and each member's running balance: each transfer with "
            "`because` and, when the payee member keeps handles that fit the club's currency, `pay` (any token of "
            "this club).", {200: _json(ClubSettlementAnswerSchema, "The club's settle-up.")}, ())},
        "/clubs/{club_id}/settlement/{line}/qr.svg": {"get": _op(
            "The QR code of a club settle-up line's hand-off (its `qr_payload`, else its `url`), as the night's "
            "(any token of the club). 404 transfer_not_found, hand_off_not_found.",
            {200: {"description": "The QR code.", "content": {"image/svg+xml": {"schema": {"type": "string"}}}}},
            (), params=[KIND])},
        "/clubs/{club_id}/members/{member_id}/handles": {
            "get": _op("A club member's payment handles, used at every club night (any token of this club).",
                       {200: _json(MEMBER_HANDLES, "The handles.")}, ()),
            "put": _op("Set a member's payment handles: the owner, or the member's own device (joined under "
                       "their name); a viewer or another member's device: 403 role_forbidden.",
                       {200: _json(MEMBER_HANDLES, "The handles kept.")}, (), body=HANDLES),
        },
    }
