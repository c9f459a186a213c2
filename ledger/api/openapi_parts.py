"""Building blocks of the OpenAPI document: error descriptions by status, the JSON answer and the
operation shapes, and the idempotency headers (:mod:`ledger.api.openapi` and
:mod:`ledger.api.club_openapi` both build from them)."""
from __future__ import annotations

from typing import Any

BEARER = [{"bearerAuth": []}]
JSON = "application/json"

ERROR_CODES = {
    400: "`malformed_json`: the body is empty or not JSON; `invalid_game` (`POST /score`, `POST /sessions`): `game` names no game.",
    401: "`unauthorized`: no bearer token was sent; `token_revoked`: the token was withdrawn (its phone removed, "
         "or the links renewed).",
    403: "`forbidden` (the token does not open this session) or `role_forbidden` (the token's role may not do this).",
    404: "`session_not_found`, `hand_not_found`, `payment_not_found`, `seat_not_found`, `phone_not_found`, `unknown_code`, "
         "`nothing_to_undo`, `nothing_to_redo`, `club_not_found`, `member_not_found`, `device_not_found`, `player_not_found`, `transfer_not_found`, `hand_off_not_found`, "
         "or `not_found` for a path that names nothing.",
    409: "`session_closed`, `hand_number_taken` (with `existing`), `hand_number_gap`, `stale_version` "
         "(with `current`), `hand_voided`, `not_a_hand` (a pot closed at a seat change is never voided or amended "
         "on its own), `idempotency_key_reused`, `night_carried` (a payment or its void on "
         "a night whose balances were carried into its club), `table_changed` (a hand entered against another "
         "seating or stake than the night's now, with `changed`), `own_phone` / `own_device` (a phone cannot remove itself), "
         "`night_has_hands` (a night with hands or payments is voided, never removed), `night_not_voided`, "
         "`points_only` (a settle-up, payment or hand-off of a night or club kept in points: nothing to pay), "
         "`pool_not_ended` (closing a pool rummy night while two or more are still in: end the pool first), "
         "`pool_in_progress` (a sit-in, a leave, a rename or a seat swap while a pool is in progress: its scores "
         "and buy-ins are kept by name; end the pool first).",
    410: "`code_used`: the recovery code was used already, or replaced by a new one; `night_removed`: the night was "
         "removed by its host (started by mistake, no hands).",
    413: "`request_entity_too_large`: the body is too large, past the server's limit (256 KiB; a club import's is "
         "`IMPORT_MAX_BYTES`, 64 MiB by default); nothing of it is kept.",
    422: "A refused entry with its RULES.md §9.1 code, `invalid_entry` (shape), `invalid_stake`, "
         "`invalid_ruleset`, `invalid_payment`, `overpayment`, `unbalanced`, `invalid_handle` (a payment handle, naming it), `import_mismatch` (a club "
         "import's figure that differs from its replay), or an `Idempotency-Key` "
         "that is not 1 to 200 printable characters.",
    429: "`too_many_attempts`: this client called too often; wait a minute.",
    503: "`pdf_busy` (with `retry_after`, seconds, also sent as `Retry-After`): the PDF is still being made, "
         "or many are; ask again then (a finished one is kept).",
}

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "Makes a retry safe: the same key with the same hand answers 200 with the hand "
                   "already recorded; with another hand, 409 idempotency_key_reused.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[\\x20-\\x7e]+$"},
}
PAYMENT_KEY = IDEMPOTENCY_KEY | {
    "description": "Makes a retry or a double tap safe: the same key with the same payment answers 200 with "
                   "the payment already recorded; with another payment, 409 idempotency_key_reused."}


def json_answer(schema: Any, description: str) -> dict[str, Any]:
    """An answer with a JSON body of ``schema`` (a marshmallow schema, its name, or a JSON Schema dict)."""
    return {"description": description, "content": {JSON: {"schema": schema}}}


def operation(summary: str, ok: dict[int, dict[str, Any]], errors: tuple[int, ...], *, body: Any = None,
        auth: bool = True, params: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One operation: its ``ok`` answers by status, and the error answers of ``errors`` (plus 401/403/404
    when ``auth``, 400/422 when it takes a ``body``), each described from :data:`ERROR_CODES`."""
    responses: dict[str | int, Any] = {str(status): spec for status, spec in ok.items()}
    statuses = set(errors) | ({401, 403, 404} if auth else set()) | ({400, 422} if body is not None else set())
    for status in sorted(statuses):
        responses[str(status)] = json_answer("Error", ERROR_CODES[status])
    operation: dict[str, Any] = {"summary": summary, "responses": responses, "security": BEARER if auth else []}
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {JSON: {"schema": body}}}
    if params:
        operation["parameters"] = params
    return operation


