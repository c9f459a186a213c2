"""The club calls' part of the OpenAPI document (:mod:`ledger.api.openapi` merges it in; both build from :mod:`ledger.api.openapi_parts`)."""
from __future__ import annotations

from typing import Any

from ledger.api import club_schemas as club
from ledger.api.openapi_parts import PAYMENT_KEY
from ledger.api.openapi_parts import json_answer as _json
from ledger.api.openapi_parts import operation as _op
from ledger.api.schemas import MAX_NUMBER

CLUB_ID = {"name": "club_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}
MEMBER_ID = {"name": "member_id", "in": "path", "required": True, "description": "A member's id (kept across renames).",
             "schema": {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER}}


DEVICE_ID = {"name": "device_id", "in": "path", "required": True, "description": "A device's id from GET …/devices.",
             "schema": {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER}}


def club_parameters(path: str) -> list[dict[str, Any]]:
    params = [CLUB_ID] if "{club_id}" in path else []
    params += [MEMBER_ID] if "{member_id}" in path else []
    params += [DEVICE_ID] if "{device_id}" in path else []
    return params


def club_paths() -> dict[str, dict[str, Any]]:
    """Paths of :mod:`ledger.api.clubs`, relative to ``/api/v1``."""
    pdf = {"description": "The PDF.", "content": {"application/pdf": {
        "schema": {"type": "string", "contentMediaType": "application/pdf"}}}}
    csv = {"description": "The CSV table.", "content": {"text/csv": {
        "schema": {"type": "string", "contentMediaType": "text/csv"}}}}
    the_club = _json(club.ClubSchema, "The club: members, running balances, the plan that clears them, nights.")
    paths = {
        "/clubs": {"post": _op(
            "Open a club; the answer holds the owner's token, the member and viewer tokens, links and table code.",
            {201: _json(club.ClubCreatedSchema, "The new club and its secrets.")}, (), body=club.ClubCreateSchema,
            auth=False)},
        "/clubs/join": {"post": _op(
            "Join a club by its table code: a member token of this phone's own (rate-limited).",
            {201: _json(club.ClubJoinedSchema, "The club id and a new member token.")}, (404, 429),
            body=club.ClubJoinSchema, auth=False)},
        "/clubs/import": {"post": _op(
            "Import a club exported by GET /clubs/{id}/export.json into this server, with new tokens. The "
            "import is a replay: every hand is re-scored from its entry under its night's rules and every figure "
            "worked out again; a document of another shape (unknown keys too) is 422 invalid_entry, one whose "
            "own figures differ from the replay 422 import_mismatch, each naming the first path "
            "(nights[0].carries[1].amount), and nothing of it is kept. The body may be up to IMPORT_MAX_BYTES "
            "(64 MiB by default), 413 above.",
            {201: _json(club.ClubImportedSchema, "The imported club and its new secrets.")}, (413,),
            body=club.ClubImportSchema, auth=False)},
        "/clubs/{club_id}": {"get": _op("The club (any club role).", {200: the_club}, ()),
                             "patch": _op("Owner: the club's settings (carry_needs_owner); 403 role_forbidden for a "
                                          "member or viewer.", {200: the_club}, (), body=club.ClubSettingsSchema)},
        "/clubs/{club_id}/nights/{session_id}/carry": {"post": _op(
            "Owner: carry a closed night waiting for the owner (carried \"pending\"), or one whose carry was "
            "undone, into the club's balances; 403 role_forbidden (member, viewer), 404 session_not_found, "
            "409 night_not_pending.", {200: the_club}, (404, 409))},
        "/clubs/{club_id}/nights/{session_id}/uncarry": {"post": _op(
            "Owner: undo a carried night with reversing entries (nothing deleted, audited); its payments are "
            "taken at the night again. 403 role_forbidden, 404 session_not_found, 409 night_not_carried, 409 "
            "pot_taken (a later Tong-its night already opened with the pot it carried; with `pot_minor`).",
            {200: the_club}, (404, 409))},
        "/clubs/{club_id}/share": {"get": _op(
            "Owner's own link only: the club with its tokens, links and table code again.",
            {200: _json(club.ClubCreatedSchema, "The secrets.")}, ())},
        "/clubs/{club_id}/devices": {"get": _op(
            "Owner's own link only: the devices holding a live club token (the owner link, each that joined by "
            "code), oldest first.",
            {200: _json({"type": "array", "items": club.ClubDeviceSchema}, "The devices.")}, ())},
        "/clubs/{club_id}/devices/{device_id}": {"delete": _op(
            "Owner's own link only: remove a device; its token answers 401 token_revoked from then on "
            "(404 device_not_found, 409 own_device).",
            {200: _json(club.RevokedClubDeviceSchema, "The removed device.")}, (409,))},
        "/clubs/{club_id}/rotate": {"post": _op(
            "Owner's own link only: new owner token, member and viewer links and club code, the shape of "
            "GET …/share; the old links answer 401 token_revoked, the old code 404 unknown_code at /clubs/join; "
            "devices that joined keep their tokens.",
            {200: _json(club.ClubCreatedSchema, "The new secrets.")}, ())},
        "/clubs/{club_id}/members": {"post": _op(
            "Owner or member: add a name to the roster, with the member's statement language if given (200 when "
            "that name, under the name rule (NFC, casefolded, dotted and dotless i as i), is there: its "
            "language is left as it is).",
            {201: _json(club.ClubMemberOutSchema, "The new member."),
             200: _json(club.ClubMemberOutSchema, "The member already on the roster.")}, (), body=club.MemberSchema)},
        "/clubs/{club_id}/members/{member_id}": {"patch": _op(
            "Change a member: language (owner or member; a catalogue code, or null to follow the reader) and name "
            "(owner only, as the rename; 422 duplicate_player).",
            {200: _json(club.ClubMemberOutSchema, "The member.")}, (), body=club.MemberUpdateSchema)},
        "/clubs/{club_id}/members/{member_id}/rename": {"post": _op(
            "Owner: rename a member; they keep their id, balance and nights (422 duplicate_player).",
            {200: _json(club.ClubMemberOutSchema, "The member.")}, (), body=club.MemberSchema)},
        "/clubs/{club_id}/payments": {
            "get": _op("Payments against the carried balances, and the balances.",
                       {200: _json(club.ClubPaymentListSchema, "The payments.")}, ()),
            "post": _op("Owner or member: record money handed over against the carried balances "
                        "(422 invalid_payment, overpayment unless confirm).",
                        {201: _json(club.ClubPaymentRecordedSchema, "The payment and the balances after it."),
                         200: _json(club.ClubPaymentRecordedSchema, "The payment already recorded under this "
                                                                    "Idempotency-Key, and the balances.")},
                        (409,), body=club.ClubPaymentSchema, params=[PAYMENT_KEY]),
        },
        "/clubs/{club_id}/payments/{payment_id}/void": {"post": _op(
            "Owner: void a club payment (kept, stops counting).",
            {200: _json(club.ClubPaymentRecordedSchema, "The voided payment and the balances.")}, ())},
        "/clubs/{club_id}/nights/{session_id}/token": {"post": _op(
            "Any club role: a token of one of the club's nights of this client's own, in the night role its club "
            "role gives (owner: host, member: player, viewer: viewer); 404 session_not_found outside the club.",
            {201: _json(club.ClubNightTokenSchema, "The night's id, the new token and its role.")}, (404,))},
        "/clubs/{club_id}/standings": {"get": _op(
            "Standings for a period (all time, a date range, the last N counted nights): nights, hands, net, "
            "wins by kind, times caught; best and worst night and average per night.",
            {200: _json(club.StandingsSchema, "One line per member, best net first.")}, (422,),
            params=[{"in": "query", "schema": club.StandingsQuerySchema}])},
        "/clubs/{club_id}/export.json": {"get": _op(
            "The whole club as one JSON document (nights with every hand version, payments, history).",
            {200: _json({"type": "object"}, "The club document (POST it to /clubs/import).")}, ())},
        "/clubs/{club_id}/export.csv": {"get": _op(
            "One table of the club as CSV (cells safe against formula injection).", {200: csv}, (422,),
            params=[{"in": "query", "schema": club.ClubExportQuerySchema}])},
        "/clubs/{club_id}/statements/{member_id}.pdf": {"get": _op(
            "A member's season statement for a period (same period parameters as the standings).", {200: pdf},
            (422,), params=[{"in": "query", "schema": club.StandingsQuerySchema}])},
        "/clubs/{club_id}/summary.pdf": {"get": _op(
            "The club summary PDF: standings table and cumulative net chart for a period.", {200: pdf}, (422,),
            params=[{"in": "query", "schema": club.StandingsQuerySchema}])},
    }
    return paths
