"""The published contract: an OpenAPI 3.1 document of ``/api/v1``, served at
``GET /api/v1/openapi.json``.

Generated with apispec from the marshmallow schemas the API validates with
(:mod:`ledger.api.schemas`) and those that describe its answers (:mod:`ledger.api.responses`),
with the paths listed here explicitly. ``tests/test_api_contract.py`` checks that every API route
is documented, that the document is valid OpenAPI 3.1, and (schemathesis) that every answer
matches it.
"""
from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from ledger.api import responses as out
from ledger.api import schemas as inp
from ledger.api import seating_schemas as seat
from ledger.api.club_openapi import club_parameters, club_paths
from ledger.api.handles_openapi import LINE, PLAYER_NAME, handle_paths
from ledger.api.pool import pool_paths
from ledger.api.whole_night import whole_night_paths
from ledger.api.club_schemas import CloseSchema
from ledger.api.openapi_parts import ERROR_CODES, IDEMPOTENCY_KEY, JSON, PAYMENT_KEY
from ledger.api.openapi_parts import json_answer as _json
from ledger.api.openapi_parts import operation as _op

PREFIX = "/api/v1"
SESSION_ID = {"name": "session_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
NUMBER = {"name": "number", "in": "path", "required": True, "description": "Hand number.",
          "schema": {"type": "integer", "minimum": 1, "maximum": inp.MAX_NUMBER}}
PAYMENT_ID = {"name": "payment_id", "in": "path", "required": True,
              "schema": {"type": "integer", "minimum": 1, "maximum": inp.MAX_NUMBER}}
PHONE_ID = {"name": "phone_id", "in": "path", "required": True, "description": "A phone's id from GET …/phones.",
            "schema": {"type": "integer", "minimum": 1, "maximum": inp.MAX_NUMBER}}
SEAT = {"name": "seat", "in": "path", "required": True, "description": "Seat number, 1..n in seat order.",
        "schema": {"type": "integer", "minimum": 1, "maximum": inp.MAX_NUMBER}}


def _paths() -> dict[str, dict[str, Any]]:
    hand_recorded = _json(out.HandRecordedSchema, "The hand, the next dealer and the night's running net.")
    session = _json(out.SessionSchema, "The session.")
    pdf = {"description": "The PDF.", "content": {"application/pdf": {
        "schema": {"type": "string", "contentMediaType": "application/pdf"}}}}
    return {
        "/score": {"post": _op(
            "Score one RULES.md §8.1 entry, a TONGITS.md §8.1 entry with `\"game\": \"tongits\"`, or a RUMMY13.md "
            "§8.1 / §8.4 entry with `\"game\": \"rummy13\"` (no session, no token).",
            {200: _json({"anyOf": [out.ScoreResultSchema, out.TongitsScoreResultSchema, out.RummyScoreResultSchema,
                                   out.RummyPoolSettlementSchema]},
                        "The game's §8.2 result.")}, (), body=inp.ScoreEntrySchema, auth=False)},
        "/settle": {"post": _op(
            "The fewest transfers that clear a set of balances (rate-limited per client).",
            {200: _json(out.SettlePlanSchema, "The plan.")}, (429,), body=inp.SettleSchema, auth=False)},
        "/sessions": {"post": _op(
            "Open a night; the answer holds the host token and the join links.",
            {201: _json(out.SessionCreatedSchema, "The new session and its secrets.")}, (401, 403, 404),
            body=inp.SessionCreateSchema, auth=False)},
        "/join": {"post": _op(
            "Join a table by its code, optionally naming the phone: a player token of this phone's own "
            "(rate-limited).",
            {201: _json(out.JoinedSchema, "The session id, a new player token and the phone as listed.")}, (404, 429),
            body=inp.JoinSchema, auth=False)},
        "/openapi.json": {"get": {
            "summary": "This document.", "security": [],
            "responses": {"200": _json({"type": "object"}, "The OpenAPI 3.1 document.")}}},
        "/sessions/{session_id}": {"get": _op("The session, its running net and what is outstanding.",
                                              {200: session}, ())},
        "/sessions/{session_id}/share": {"get": _op(
            "Host only: the join links, tokens and table code again.", {200: _json(out.ShareSchema, "The secrets.")}, ())},
        "/sessions/{session_id}/hands": {
            "get": _op("The current version of every hand, voided ones included.",
                       {200: _json(out.HandListSchema, "The hands.")}, ()),
            "post": _op("Record a hand.", {201: hand_recorded, 200: _json(
                out.HandRecordedSchema, "The hand already recorded under this Idempotency-Key.")},
                (409,), body=inp.HandCreateSchema, params=[IDEMPOTENCY_KEY]),
        },
        "/sessions/{session_id}/preview": {"post": _op(
            "Score an entry under the session's rules without recording it.",
            {200: _json(out.ScoreResultSchema, "The result.")}, (), body=inp.HandCreateSchema)},
        "/sessions/{session_id}/hands/{number}": {"get": _op(
            "One hand (its current version).", {200: _json(out.HandSchema, "The hand.")}, ())},
        "/sessions/{session_id}/hands/{number}/void": {"post": _op(
            "Host only: void a hand; it is kept and stops counting (422 when a later hand, re-scored, is refused "
            "in its new place).", {200: hand_recorded}, (409, 422))},
        "/sessions/{session_id}/hands/{number}/restore": {"post": _op(
            "Host: count a voided hand again (422 `unknown_player`, field `pot.holder`, when it would leave a "
            "Tong-its pot's streak with a player who has left since).", {200: hand_recorded}, (409, 422))},
        "/sessions/{session_id}/hands/{number}/amend": {"post": _op(
            "Host only: correct a hand; `version` names the version corrected.",
            {201: hand_recorded, 200: _json(out.HandRecordedSchema, "The same correction was already made.")},
            (409,), body=inp.AmendSchema)},
        "/sessions/{session_id}/hands/{number}/versions": {"get": _op(
            "Every version of a hand, oldest first.", {200: _json(out.HandVersionsSchema, "The versions.")}, ())},
        "/sessions/{session_id}/undo": {"post": _op(
            "Host only: void the last counted hand (422 as a void).", {200: hand_recorded}, (409, 422))},
        "/sessions/{session_id}/redo": {"post": _op(
            "Host: undo the last undo (count again the hand it voided; 404 nothing_to_redo; 422 as a restore).",
            {200: hand_recorded}, (409, 422))},
        "/sessions/{session_id}/recover": {"post": _op(
            "Host rights on a new phone by the night's recovery code, once: a host token of this phone's own, "
            "never the host's link (410 code_used after; rate-limited with the join code).",
            {201: _json(out.RecoveredSchema, "A host token of this phone's own.")}, (404, 410, 429),
            body=inp.RecoverSchema, auth=False)},
        "/sessions/{session_id}/recovery": {"post": _op(
            "The night's own host (its link, or a phone recovered with the code; not a co-host): a new recovery "
            "code; the old one stops working.",
            {201: _json(out.RecoveryCodeSchema, "The new recovery code, shown here.")}, ())},
        "/sessions/{session_id}/rotate": {"post": _op(
            "The night's own host: new host token, player and viewer links, table code and recovery code; every "
            "old link token answers 401 token_revoked, the old codes are refused; joined phones keep theirs.",
            {200: _json(out.RotatedSchema, "The new secrets (the shape of /share, with token and recovery_code).")},
            ())},
        "/sessions/{session_id}/phones/{phone_id}": {"delete": _op(
            "The night's own host: remove a phone; its token answers 401 token_revoked from then on and it "
            "leaves GET …/phones (409 own_phone for the phone doing it).",
            {200: _json(out.RevokedPhoneSchema, "The removed phone.")}, (409,))},
        "/sessions/{session_id}/phones": {"get": _op(
            "The phones that hold a token of this night.",
            {200: _json({"type": "array", "items": out.PhoneSchema}, "The phones, oldest first.")}, ())},
        "/sessions/{session_id}/hosts": {"post": _op(
            "Host: make a phone of this night a co-host (404 phone_not_found).",
            {200: _json(out.PhoneSchema, "The phone, now a host.")}, (), body=inp.CohostSchema)},
        "/sessions/{session_id}/payments": {
            "get": _op("Payments made at settle-up and what is still outstanding.",
                       {200: _json(out.PaymentListSchema, "The payments.")}, ()),
            "post": _op("Record money handed over (partial payments allowed).",
                        {201: _json(out.PaymentRecordedSchema, "The payment and what is still outstanding."),
                         200: _json(out.PaymentRecordedSchema, "The payment already recorded under this "
                                                               "Idempotency-Key, and what is still outstanding.")},
                        (409,), body=inp.PaymentSchema, params=[PAYMENT_KEY]),
        },
        "/sessions/{session_id}/payments/{payment_id}/void": {"post": _op(
            "Host only: void a payment.", {200: _json(out.PaymentRecordedSchema, "The voided payment.")}, (409,))},
        "/sessions/{session_id}/history": {"get": _op(
            "Every change: who (role, which phone), when, before and after.",
            {200: _json(out.HistorySchema, "The audit events, oldest first.")}, ())},
        "/sessions/{session_id}/settlement": {"get": _op(
            "The minimal plan for what is still outstanding. A Tong-its night whose pot holds money (open, or "
            "closed with `pot_at_end` `carry`) settles the pot as a party: lines `to` `\"pot\"` say who puts its "
            "balance in (TONGITS.md §4.8; the players' nets sum to minus the pot).",
            {200: _json(out.SettlementSchema, "The plan.")}, ())},
        "/sessions/{session_id}/close": {"post": _op(
            "Host only: no more hands or voids (closing twice changes nothing; 409 session_closed when a club "
            "night's body asks for the other carry_over than it was closed with).", {200: session}, (409,))},
        "/sessions/{session_id}/summary.pdf": {"get": _op(
            "The PDF session summary (a Tong-its night's with its pot: a Pot column, antes in, takes out, the "
            "close split or carried, and the players' nets plus the pot making zero; TONGITS.md §4.8–4.9).",
            {200: pdf}, (503,))},
        "/sessions/{session_id}/statements/{seat}.pdf": {"get": _op(
            "One player's statement (seat 1..n in seat order; 404 seat_not_found for another seat).",
            {200: pdf}, (503,))},
        "/sessions/{session_id}/statements.pdf": {"get": _op(
            "The night pack: the summary, then every player's statement, a bookmark per player.",
            {200: pdf}, (503,))},
        "/sessions/{session_id}/export.csv": {"get": _op(
            "One table of the night as CSV (cells safe against formula injection). A Tong-its night's `hands` "
            "table has one more column after the players, `pot (minor units)` (the pot's net of each entry, "
            "TONGITS.md §8.2), and its hands are described in Tong-its sentences.",
            {200: {"description": "The CSV table.", "content": {"text/csv": {
                "schema": {"type": "string", "contentMediaType": "text/csv"}}}}},
            (422,), params=[{"in": "query", "schema": inp.ExportQuerySchema}])},
        "/sessions/{session_id}/export.json": {"get": _op(
            "The whole night as one JSON document.", {200: _json(out.ExportSchema, "The night.")}, ())},
    } | _seating_paths() | _club_paths() | handle_paths() | whole_night_paths(session) \
        | pool_paths(_json(out.HandSchema, "The entry that paid the pot (kind pool_end)."))


def _club_paths() -> dict[str, dict[str, Any]]:
    return club_paths()


def _seating_paths() -> dict[str, dict[str, Any]]:
    """The seating calls (:mod:`ledger.api.seating`): host only, each from the next hand on."""
    return {
        "/sessions/{session_id}/players": {"post": _op(
            "Host only: a player sits in from the next hand (after `after`, or at the next dealer's right); "
            "422 `too_many_players`, `duplicate_player`, `unknown_player`.",
            {201: _json(seat.SeatedSchema, "The seating from `from_hand` on.")}, (409,), body=seat.SitInSchema)},
        "/sessions/{session_id}/players/leave": {"post": _op(
            "Host only: a player leaves from the next hand; their balance as of their last hand is cleared by "
            "the fewest transfers with the seated players (recorded as payments with `settle: now`).",
            {200: _json(seat.LeftSchema, "The seating after and the cash-out.")}, (409,), body=seat.LeaveSchema)},
        "/sessions/{session_id}/stake": {"post": _op(
            "Host only: the stake from the next hand on; hands played keep theirs. 422 `invalid_stake`.",
            {200: _json(seat.StakeChangedSchema, "The stake and the first hand it applies to.")}, (409,),
            body=seat.StakeSchema)},
        "/sessions/{session_id}/seats/swap": {"post": _op(
            "Host only: two players were entered in each other's seats from `from_hand`: every counted hand "
            "since is re-entered as a new version, all or nothing (422 names the first refusing `hand`).",
            {200: _json(seat.SwappedSchema, "The re-entered hands' numbers and versions.")}, (409,),
            body=seat.SwapSchema)},
        "/sessions/{session_id}/players/rename": {"post": _op(
            "Host only: rename a player everywhere in the night, keeping the person and their balance.",
            {200: _json(seat.RenamedSchema, "The seating and the net under the new name.")}, (),
            body=seat.RenameSchema)},
    }


def _path_parameters(path: str) -> list[dict[str, Any]]:
    params = [SESSION_ID] if "{session_id}" in path else []
    params += [NUMBER] if "{number}" in path else []
    params += [PAYMENT_ID] if "{payment_id}" in path else []
    params += [SEAT] if "{seat}" in path else []
    params += [PHONE_ID] if "{phone_id}" in path else []
    params += [PLAYER_NAME] if "{name}" in path else []
    params += [LINE] if "{line}" in path else []
    return params + club_parameters(path)


def build_openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document as a dict (JSON-ready)."""
    spec = APISpec(
        title="Tonk Ledger API",
        version="1",
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": "Records Tonk hands, pays them exactly and settles the night. All money is "
                             "JSON integers in minor units. Errors are `{error, message, field}`."},
    )
    spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer",
                       "description": "A session's host, player or viewer token (or a joined phone's token)."})
    spec.components.schema("Transfer", schema=out.TransferSchema)
    spec.components.schema("Hand", schema=out.HandSchema)
    spec.components.schema("Error", schema=out.ErrorSchema)
    paths = _paths()
    paths["/sessions/{session_id}/close"]["post"]["requestBody"] = {"required": False, "content": {
        JSON: {"schema": CloseSchema}}}
    paths["/sessions/{session_id}/close"]["post"]["responses"].setdefault("422", _json("Error", ERROR_CODES[422]))
    paths["/sessions/{session_id}/close"]["post"]["responses"].setdefault("400", _json("Error", ERROR_CODES[400]))
    for path, operations in paths.items():
        params = _path_parameters(path)
        spec.path(path=PREFIX + path, operations=operations, parameters=params or None)
    return spec.to_dict()
