"""What every call of the JSON API shares: the ``api`` blueprint (``/api/v1``) with its error
handlers, reading the JSON body and loading it through a schema (errors name the field), and
the bearer token that opens a session for a role. The calls themselves live in
:mod:`ledger.api` (sessions, payments, documents), :mod:`ledger.api.hands`,
:mod:`ledger.api.seating` and :mod:`ledger.api.clubs`.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request
from marshmallow import Schema, ValidationError

from ledger.access.roles import AccessDenied, Actor
from ledger.api.errors import (
    ApiError,
    error_response,
    handle_api_error,
    handle_hand_error,
    handle_night_error,
    schema_error,
)
from ledger.storage.db import get_session
from ledger.access.opening import open_night
from ledger.night.whole_night import REMOVED
from ledger.i18n import N_
from ledger.storage.models import GameSession
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.register_error_handler(ApiError, handle_api_error)
bp.register_error_handler(HandError, handle_hand_error)
bp.register_error_handler(NightError, handle_night_error)
bp.register_error_handler(AccessDenied, lambda err: error_response(403, "role_forbidden", err.message))

def json_body() -> dict[str, Any]:
    """The request's JSON object; :class:`ApiError` 400 ``malformed_json`` when the body is
    empty or not JSON (NaN and Infinity included), 422 ``invalid_entry`` when not an object."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, "malformed_json", N_("The request body is empty; send a JSON object."))
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, "malformed_json", N_("The request body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_entry", N_("The request body must be a JSON object."))
    return data


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


def load(schema: Schema, data: dict[str, Any], codes: dict[str, str] | None = None) -> dict[str, Any]:
    """``schema.load(data)``; :class:`ApiError` 422 naming the first bad field. ``codes`` maps
    a top-level field to a §9.1 code (default ``invalid_entry``)."""
    try:
        return schema.load(data)
    except ValidationError as err:
        raise schema_error(err, codes) from None


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` header as sent: ``None`` only when there is none, so
    that an empty one is refused (422 ``invalid_entry``, :func:`ledger.night.idempotency.check_idempotency_key`)
    instead of being taken as no key."""
    return request.headers.get("Idempotency-Key")


def device() -> str:
    return (request.headers.get("X-Device") or request.user_agent.string or "api client")[:120]


def authorised(session_id: str, action: str = "read") -> tuple[GameSession, Actor]:
    """The session and the acting role if the request's token opens it for ``action``:
    401 ``unauthorized`` without a token, 401 ``token_revoked`` for a token of the session that
    was withdrawn (a removed phone, a replaced link), 404 ``session_not_found``, 403 ``forbidden`` for
    another session's token, 403 ``role_forbidden`` when the role may not do ``action``."""
    token = bearer_token()
    if token is None:
        raise ApiError(401, "unauthorized", N_("Send the table's token as 'Authorization: Bearer <token>'."))
    db = get_session()
    opened = open_night(db, session_id, token, device())  # the night and the token's key in one query
    night, actor = opened.night, opened.actor
    if night is None:
        raise ApiError(404, "session_not_found", N_("There is no session {id}."), "id", id=repr(session_id))
    if opened.revoked:
        raise ApiError(401, "token_revoked", N_("This token was withdrawn by the host; ask the host for a new link."))
    if actor is None:
        raise ApiError(403, "forbidden", N_("That token does not open this session."))
    if night.status == REMOVED:
        raise ApiError(410, "night_removed", N_("This night was removed by its host."))
    actor.require(action)
    return night, actor


def authorised_night(session_id: str, action: str = "read") -> GameSession:
    return authorised(session_id, action)[0]
