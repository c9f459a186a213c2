"""The JSON API, ``/api/v1`` (a contract other tools rely on: keep names and shapes).

Stateless: ``POST /score`` (one §8.1 entry → §8.2 result), ``POST /settle``.
Sessions: ``POST /sessions``; with ``Authorization: Bearer <token>``: ``GET /sessions/{id}``,
``GET|POST /sessions/{id}/hands``, ``GET /sessions/{id}/hands/{n}``,
``POST /sessions/{id}/hands/{n}/void``, ``POST /sessions/{id}/preview``,
``GET /sessions/{id}/settlement``, ``POST /sessions/{id}/close``,
``GET /sessions/{id}/summary.pdf``.

Errors are JSON ``{"error", "message", "field"}``: 400 malformed JSON, 401 no token, 403 wrong
token, 404 unknown session or hand, 409 closed session, 422 a refused entry (§9.1 code).
All money is JSON integers in minor units.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, Response, jsonify, request, url_for
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from ledger.api.errors import (
    ApiError,
    error_response,
    first_schema_error,
    handle_api_error,
    handle_hand_error,
    handle_night_error,
)
from ledger.api.schemas import HandCreateSchema, SessionCreateSchema, SettleSchema
from ledger.db import get_session
from ledger import night as ledger_night
from ledger.models import GameSession
from ledger.night import NightError, Submission
from ledger.rules import HandError, RuleSet, score_entry
from ledger.settlement import UnbalancedError, settle
from ledger.statements import render_session_summary

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.register_error_handler(ApiError, handle_api_error)
bp.register_error_handler(HandError, handle_hand_error)
bp.register_error_handler(NightError, handle_night_error)

SESSION_FIELD_CODES = {"stake": "invalid_stake"}


def json_body() -> dict[str, Any]:
    """The request's JSON object; :class:`ApiError` 400 ``malformed_json`` when the body is
    empty or not JSON (NaN and Infinity included), 422 ``invalid_entry`` when not an object."""
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiError(400, "malformed_json", "The request body is empty; send a JSON object.")
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "malformed_json", "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_entry", "The request body must be a JSON object.")
    return data


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


def load(schema: Schema, data: dict[str, Any], codes: dict[str, str] | None = None) -> dict[str, Any]:
    """``schema.load(data)``; :class:`ApiError` 422 naming the first bad field. ``codes`` maps
    a top-level field to a §9.1 code (default ``invalid_entry``)."""
    try:
        return schema.load(data)
    except ValidationError as err:
        field, message = first_schema_error(err)
        top = (field or "").split(".")[0]
        code = (codes or {}).get(top, "invalid_entry")
        raise ApiError(422, code, f"{field}: {message}" if field else message, field) from None


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def authorised_night(session_id: str) -> GameSession:
    """The session ``session_id`` if the request carries its token; else 401/403/404."""
    token = bearer_token()
    if token is None:
        raise ApiError(401, "unauthorized", "Send the table's token as 'Authorization: Bearer <token>'.")
    night = ledger_night.find_night(get_session(), session_id)
    if night is None:
        raise ApiError(404, "session_not_found", f"There is no session {session_id!r}.", "id")
    if not ledger_night.token_matches(night, token):
        raise ApiError(403, "forbidden", "That token does not open this session.")
    return night


# -- stateless -----------------------------------------------------------------------------------
@bp.post("/score")
def score() -> Any:
    """One §8.1 entry → 200 §8.2 result, or 422 ``{"error": §9.1 code, ...}``."""
    result = score_entry(json_body())
    return jsonify(result.to_json())


@bp.post("/settle")
def settle_balances() -> Any:
    """``{"balances": {player: int}}`` → ``{"transfers", "transfer_count", "minimal"}``;
    422 ``unbalanced`` when the balances do not sum to zero."""
    data = load(SettleSchema(), json_body())
    try:
        plan = settle(data["balances"])
    except UnbalancedError as exc:
        raise ApiError(422, "unbalanced", str(exc), "balances") from None
    return jsonify(plan.to_json())


# -- sessions -------------------------------------------------------------------------------------
@bp.post("/sessions")
def create_session() -> Any:
    """Open a night → 201 the session plus its ``token`` (shown once) and ``table_url``."""
    data = load(SessionCreateSchema(), json_body(), SESSION_FIELD_CODES)
    rules = RuleSet.from_spec(data["ruleset"])
    night, token = ledger_night.create_night(
        get_session(),
        name=data["name"],
        currency=data["currency"].upper(),
        stake_minor=data["stake"],
        rules=rules,
        players=data["players"],
        first_dealer=data["first_dealer"],
    )
    body = ledger_night.session_json(get_session(), night)
    body["token"] = token
    body["table_url"] = url_for("web.join", session_id=night.id, token=token, _external=True)
    response = jsonify(body)
    response.headers["Location"] = url_for("api.get_night", session_id=night.id)
    return response, 201


@bp.get("/sessions/<session_id>")
def get_night(session_id: str) -> Any:
    night = authorised_night(session_id)
    return jsonify(ledger_night.session_json(get_session(), night))


@bp.get("/sessions/<session_id>/hands")
def list_hands(session_id: str) -> Any:
    night = authorised_night(session_id)
    hands = ledger_night.hands_of(get_session(), night)
    return jsonify({"hands": [ledger_night.hand_json(h) for h in hands]})


def _submission(data: dict[str, Any]) -> Submission:
    body = load(HandCreateSchema(), data)
    key = request.headers.get("Idempotency-Key")
    return Submission(
        outcome=body["outcome"],
        hands=body["hands"],
        side_bets=body["side_bets"],
        dealer=body["dealer"],
        idempotency_key=key[:80] if key else None,
    )


@bp.post("/sessions/<session_id>/hands")
def record_hand(session_id: str) -> Any:
    """One entry (``outcome``, ``hands``, optional ``side_bets`` and ``dealer``) → 201
    ``{number, transfers, net, redeal, next_dealer, ...}``; a repeated ``Idempotency-Key``
    → 200 with the hand already recorded."""
    night = authorised_night(session_id)
    db = get_session()
    hand, created = ledger_night.record_hand(db, night, _submission(json_body()))
    body = ledger_night.hand_json(hand)
    body["next_dealer"] = ledger_night.next_dealer(db, night)
    body["session_net"] = ledger_night.balances(db, night)
    return jsonify(body), 201 if created else 200


@bp.post("/sessions/<session_id>/preview")
def preview_hand(session_id: str) -> Any:
    """Score an entry under the session's rules without recording it (200 or 422)."""
    night = authorised_night(session_id)
    result = ledger_night.preview_hand(night, _submission(json_body()))
    return jsonify(result.to_json())


@bp.get("/sessions/<session_id>/hands/<int:number>")
def get_hand(session_id: str, number: int) -> Any:
    night = authorised_night(session_id)
    return jsonify(ledger_night.hand_json(ledger_night.get_hand(get_session(), night, number)))


@bp.post("/sessions/<session_id>/hands/<int:number>/void")
def void_hand(session_id: str, number: int) -> Any:
    """Void a hand: it is kept and stops counting. 200 the hand, 404 unknown, 409 closed."""
    night = authorised_night(session_id)
    db = get_session()
    hand = ledger_night.void_hand(db, night, number)
    body = ledger_night.hand_json(hand)
    body["next_dealer"] = ledger_night.next_dealer(db, night)
    body["session_net"] = ledger_night.balances(db, night)
    return jsonify(body)


@bp.get("/sessions/<session_id>/settlement")
def settlement(session_id: str) -> Any:
    """The fewest transfers that clear the current balances (shape as ``/settle``)."""
    night = authorised_night(session_id)
    db = get_session()
    body = ledger_night.settlement_plan(db, night).to_json()
    body["balances"] = ledger_night.balances(db, night)
    return jsonify(body)


@bp.post("/sessions/<session_id>/close")
def close(session_id: str) -> Any:
    night = authorised_night(session_id)
    db = get_session()
    ledger_night.close_night(db, night)
    return jsonify(ledger_night.session_json(db, night))


@bp.get("/sessions/<session_id>/summary.pdf")
def summary_pdf(session_id: str) -> Response:
    night = authorised_night(session_id)
    pdf = render_session_summary(ledger_night.build_report(get_session(), night))
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="tonk-{night.id}.pdf"'
    return response


def _http_error(err: HTTPException) -> Any:
    if request.path.startswith("/api/"):
        code = (err.name or "error").lower().replace(" ", "_")
        return error_response(err.code or 500, code, err.description or err.name or "Error")
    return err


def _server_error(err: InternalServerError) -> Any:
    if request.path.startswith("/api/"):
        return error_response(500, "internal_error", "Something went wrong on our side; nothing was recorded.")
    return err


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(HTTPException, _http_error)
