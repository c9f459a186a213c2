"""The JSON API, ``/api/v1`` (a contract other tools rely on: keep names and shapes).

Stateless: ``POST /score`` (one §8.1 entry → §8.2 result), ``POST /settle``.
Sessions: ``POST /sessions``; with ``Authorization: Bearer <token>``: ``GET /sessions/{id}``,
``GET|POST /sessions/{id}/hands``, ``GET /sessions/{id}/hands/{n}``,
``POST /sessions/{id}/hands/{n}/void``, ``…/hands/{n}/restore``, ``POST /sessions/{id}/undo``,
``POST /sessions/{id}/redo``, ``POST /sessions/{id}/preview``, ``GET /sessions/{id}/phones``,
``POST /sessions/{id}/hosts`` (co-host), ``POST /sessions/{id}/recover`` (recovery code),
``GET /sessions/{id}/settlement``, ``POST /sessions/{id}/close``,
``GET /sessions/{id}/summary.pdf``, ``GET /sessions/{id}/statements/{seat}.pdf`` and
``GET /sessions/{id}/statements.pdf``; the seating calls (sit in, leave, stake, swap, rename)
are in :mod:`ledger.api.seating`.

Errors are JSON ``{"error", "message", "field"}``: 400 malformed JSON, 401 no token, 403 wrong
token, 404 unknown session or hand, 409 closed session, 422 a refused entry (§9.1 code).
All money is JSON integers in minor units.
"""
from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError

from ledger.api.errors import (
    INTERNAL_ERROR,
    TOO_MANY_ATTEMPTS,
    ApiError,
    error_response,
    handle_api_error,
    handle_hand_error,
    handle_night_error,
    http_sentence,
    schema_error,
)
from ledger.api.schemas import (
    AmendSchema,
    CohostSchema,
    ExportQuerySchema,
    HandCreateSchema,
    JoinSchema,
    PaymentSchema,
    RecoverSchema,
    SessionCreateSchema,
    SettleSchema,
)
from ledger.db import get_session
from ledger.i18n import N_
from ledger.limits import JOIN_LIMIT, JOIN_SCOPE, limiter, settle_limit
from ledger import access, downloads, export, hosts
from ledger import night as ledger_night
from ledger.access import AccessDenied, Actor
from ledger.models import GameSession
from ledger.names import normalise_entry
from ledger.night import NightError, Submission
from ledger.rules import HandError, RuleSet, score_entry
from ledger.rules.words import Sentence
from ledger.settlement import UnbalancedError, settle

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.register_error_handler(ApiError, handle_api_error)
bp.register_error_handler(HandError, handle_hand_error)
bp.register_error_handler(NightError, handle_night_error)
bp.register_error_handler(AccessDenied, lambda err: error_response(403, "role_forbidden", err.message))

SESSION_FIELD_CODES = {"stake": "invalid_stake"}


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


def device() -> str:
    return (request.headers.get("X-Device") or request.user_agent.string or "api client")[:120]


def authorised(session_id: str, action: str = "read") -> tuple[GameSession, Actor]:
    """The session and the acting role if the request's token opens it for ``action``:
    401 ``unauthorized`` without a token, 404 ``session_not_found``, 403 ``forbidden`` for
    another session's token, 403 ``role_forbidden`` when the role may not do ``action``."""
    token = bearer_token()
    if token is None:
        raise ApiError(401, "unauthorized", N_("Send the table's token as 'Authorization: Bearer <token>'."))
    db = get_session()
    night = ledger_night.find_night(db, session_id)
    if night is None:
        raise ApiError(404, "session_not_found", N_("There is no session {id}."), "id", id=repr(session_id))
    actor = access.actor_for(db, night, token, device())
    if actor is None:
        raise ApiError(403, "forbidden", N_("That token does not open this session."))
    actor.require(action)
    return night, actor


def authorised_night(session_id: str, action: str = "read") -> GameSession:
    return authorised(session_id, action)[0]


# -- stateless -----------------------------------------------------------------------------------
@bp.post("/score")
def score() -> Any:
    """One §8.1 entry → 200 §8.2 result, or 422 ``{"error": §9.1 code, ...}``."""
    result = score_entry(normalise_entry(json_body()))
    return jsonify(result.to_json())


@bp.post("/settle")
@limiter.limit(settle_limit)
def settle_balances() -> Any:
    """``{"balances": {player: int}}`` → ``{"transfers", "transfer_count", "minimal"}``;
    422 ``unbalanced`` when the balances do not sum to zero, 422 ``invalid_entry`` past 64
    balances or 24 non-zero ones; 429 ``too_many_attempts`` past ``SETTLE_LIMIT`` per client."""
    data = load(SettleSchema(), json_body())
    try:
        plan = settle(data["balances"])
    except UnbalancedError as exc:
        raise ApiError(422, "unbalanced", N_("balances must sum to zero, but they sum to {total}"), "balances",
                       total=exc.total_minor) from None
    return jsonify(plan.to_json())


# -- sessions -------------------------------------------------------------------------------------
@bp.post("/sessions")
def create_session() -> Any:
    """Open a night → 201 the session plus its ``token`` (shown once) and ``table_url``."""
    raw = json_body()
    data = load(SessionCreateSchema(), raw, SESSION_FIELD_CODES)
    if data["club"] is not None:  # a club night (issue 9): the club's token and currency
        from ledger.api.clubs import create_club_night

        return create_club_night(data, raw)
    if data["currency"] is None:
        raise ApiError(422, "invalid_entry", N_("currency: Missing data for required field."), "currency")
    rules = RuleSet.from_spec(data["ruleset"])
    night, token = ledger_night.create_night(
        get_session(),
        name=data["name"],
        currency=data["currency"].upper(),
        stake_minor=data["stake"],
        rules=rules,
        players=data["players"],
        first_dealer=data["first_dealer"],
        timezone=data["timezone"],
    )
    body = ledger_night.session_json(get_session(), night)
    body["token"] = token
    body.update(share_json(night, token))
    body["recovery_code"] = access.table_secrets(token, night.id).recovery_code  # shown once
    response = jsonify(body)
    response.headers["Location"] = url_for("api.get_night", session_id=night.id)
    return response, 201


def share_json(night: GameSession, host_token: str) -> dict[str, Any]:
    """The host's view of the table's secrets: tokens and join links per role, table code."""
    table = access.table_secrets(host_token, night.id)
    links = {role: url_for("web.join", session_id=night.id, token=table.for_role(role), _external=True)
             for role in access.ROLES}
    return {
        "table_url": links["host"],
        "player_token": table.player_token,
        "viewer_token": table.viewer_token,
        "table_code": table.table_code,
        "links": links,
    }


@bp.get("/sessions/<session_id>/share")
def share(session_id: str) -> Any:
    """Host only: the join links, tokens and table code to hand to the other phones."""
    night, _actor = authorised(session_id, "share")
    token = bearer_token()
    assert token is not None
    if not access.is_host_link(get_session(), night, token):
        raise ApiError(403, "role_forbidden", N_("The table's links and code are kept by the host's own phone "
                                                 "(or one recovered with the recovery code); a co-host cannot show "
                                                 "them."))
    return jsonify(share_json(night, token))


@bp.post("/join")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def join_by_code() -> Any:
    """``{"code": "K7QM2X"}`` → ``{id, token, role}``: a new player token for this device.
    404 ``unknown_code``; rate-limited against guessing (429)."""
    code = load(JoinSchema(), json_body())["code"]
    joined = access.join_by_code(get_session(), code, device())
    if joined is None:
        raise ApiError(404, "unknown_code", N_("No open table has that code."), "code")
    night, token = joined
    return jsonify({"id": night.id, "token": token, "role": "player"}), 201


@bp.post("/sessions/<session_id>/recover")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def recover(session_id: str) -> Any:
    """``{"code": "ABCD-EFGH-JKLM-NPQR"}`` (the recovery code) → 201 ``{token, role: "host"}``:
    the host's rights on this phone. 404 ``session_not_found``, ``unknown_code``; rate-limited
    with the table code's budget (429)."""
    db = get_session()
    night = ledger_night.find_night(db, session_id)
    if night is None:
        raise ApiError(404, "session_not_found", N_("There is no session {id}."), "id", id=repr(session_id))
    code = load(RecoverSchema(), json_body())["code"]
    recovered = hosts.recover_host(db, code, device(), night)
    if recovered is None:
        raise ApiError(404, "unknown_code", N_("That is not this night's recovery code."), "code")
    return jsonify({"id": night.id, "token": recovered[1], "role": "host"}), 201


@bp.get("/sessions/<session_id>/phones")
def list_phones(session_id: str) -> Any:
    """``[{id, name, role, last_seen}]``: the phones holding a token of this night (each phone
    that joined by code or link, and the host's own link); ``last_seen`` is the newest change
    the phone made, or when it joined."""
    night = authorised_night(session_id)
    return jsonify(hosts.phones(get_session(), night))


@bp.post("/sessions/<session_id>/hosts")
def add_host(session_id: str) -> Any:
    """Host: ``{"phone": id}`` makes that phone a co-host → 200 the phone; 404 ``phone_not_found``."""
    night, actor = authorised(session_id, "cohost")
    phone = load(CohostSchema(), json_body())["phone"]
    return jsonify(hosts.make_cohost(get_session(), night, phone, actor))


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
    return _submission_of(load(HandCreateSchema(), data))


def _submission_of(body: dict[str, Any]) -> Submission:
    """A :class:`Submission` from a loaded :class:`HandCreateSchema` body and the request's
    ``Idempotency-Key`` header."""
    key = request.headers.get("Idempotency-Key")
    return Submission(
        outcome=body["outcome"],
        hands=body["hands"],
        side_bets=body["side_bets"],
        dealer=body["dealer"],
        idempotency_key=key or None,  # stored whole or refused (ledger.night.check_idempotency_key)
        number=body["number"],
    )


@bp.post("/sessions/<session_id>/hands")
def record_hand(session_id: str) -> Any:
    """One entry (``outcome``, ``hands``, optional ``side_bets`` and ``dealer``) → 201
    ``{number, transfers, net, redeal, next_dealer, ...}``; a repeated ``Idempotency-Key``
    → 200 with the hand already recorded."""
    night, actor = authorised(session_id, "record")
    db = get_session()
    hand, created = ledger_night.record_hand(db, night, _submission(json_body()), actor)
    body = ledger_night.hand_json(hand)
    # a hand just recorded was the last to count when it was stored; a replay reads who is next
    body["next_dealer"] = ledger_night.dealer_after(night, hand) if created else ledger_night.next_dealer(db, night)
    body["session_net"] = ledger_night.balances(db, night)
    return jsonify(body), 201 if created else 200


@bp.post("/sessions/<session_id>/preview")
def preview_hand(session_id: str) -> Any:
    """Score an entry under the session's rules without recording it (200 or 422)."""
    night = authorised_night(session_id, "record")
    result = ledger_night.preview_hand(night, _submission(json_body()))
    return jsonify(result.to_json())


@bp.get("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>")
def get_hand(session_id: str, number: int) -> Any:
    night = authorised_night(session_id)
    return jsonify(ledger_night.hand_json(ledger_night.get_hand(get_session(), night, number)))


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/void")
def void_hand(session_id: str, number: int) -> Any:
    """Void a hand: it is kept and stops counting. 200 the hand, 404 unknown, 409 closed."""
    night, actor = authorised(session_id, "void")
    db = get_session()
    hand = ledger_night.void_hand(db, night, number, actor)
    return jsonify(_hand_with_totals(db, night, hand))


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/restore")
def restore_hand(session_id: str, number: int) -> Any:
    """Host: count a voided hand again → 200 the hand; 404 unknown, 409 closed."""
    night, actor = authorised(session_id, "restore")
    db = get_session()
    hand = ledger_night.restore_hand(db, night, number, actor)
    return jsonify(_hand_with_totals(db, night, hand))


def _hand_with_totals(db: Any, night: GameSession, hand: Any) -> dict[str, Any]:
    body = ledger_night.hand_json(hand)
    body["next_dealer"] = ledger_night.next_dealer(db, night)
    body["session_net"] = ledger_night.balances(db, night)
    return body


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/amend")
def amend_hand(session_id: str, number: int) -> Any:
    """Host only. Body: an entry plus ``version`` (the version being corrected) → 201 the new
    version; 409 ``stale_version`` with the ``current`` hand when another phone was first."""
    night, actor = authorised(session_id, "amend")
    body = load(AmendSchema(), json_body())
    db = get_session()
    hand, created = ledger_night.amend_hand(db, night, number, body["version"], _submission_of(body), actor)
    return jsonify(_hand_with_totals(db, night, hand)), 201 if created else 200


@bp.get("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/versions")
def hand_versions(session_id: str, number: int) -> Any:
    """Every version of hand ``number``, oldest first (amendments keep the old ones)."""
    night = authorised_night(session_id)
    versions = [h for h in ledger_night.hands_of(get_session(), night, all_versions=True) if h.number == number]
    if not versions:
        raise ApiError(404, "hand_not_found", N_("This night has no hand number {number}."), "number", number=number)
    return jsonify({"versions": [ledger_night.hand_json(h) for h in versions]})


@bp.post("/sessions/<session_id>/undo")
def undo(session_id: str) -> Any:
    """Host only: void the most recent counted hand."""
    night, actor = authorised(session_id, "undo")
    db = get_session()
    hand = ledger_night.undo_last_hand(db, night, actor)
    return jsonify(_hand_with_totals(db, night, hand))


@bp.post("/sessions/<session_id>/redo")
def redo(session_id: str) -> Any:
    """Host: undo the last undo (count again the hand it voided); 404 ``nothing_to_redo``."""
    night, actor = authorised(session_id, "restore")
    db = get_session()
    hand = ledger_night.redo_undo(db, night, actor)
    return jsonify(_hand_with_totals(db, night, hand))


@bp.get("/sessions/<session_id>/payments")
def list_payments(session_id: str) -> Any:
    night = authorised_night(session_id)
    db = get_session()
    return jsonify({"payments": [ledger_night.payment_json(p) for p in ledger_night.payments_of(db, night)],
                    "outstanding": ledger_night.outstanding(db, night)})


@bp.post("/sessions/<session_id>/payments")
def record_payment(session_id: str) -> Any:
    """``{"from", "to", "amount", "confirm"?}`` (int minor units, partial allowed) → 201 the
    payment and what is still ``outstanding``; 422 ``overpayment`` for more than is owed
    unless ``"confirm": true``; 409 ``night_carried`` once the night's balances were carried
    into its club (voiding a payment too)."""
    night, actor = authorised(session_id, "pay")
    data = load(PaymentSchema(), json_body())
    db = get_session()
    payment = ledger_night.record_payment(db, night, data["payer"], data["payee"], data["amount"], actor,
                                          confirm=data["confirm"])
    return jsonify(ledger_night.payment_json(payment) | {"outstanding": ledger_night.outstanding(db, night)}), 201


@bp.post("/sessions/<session_id>/payments/<int(min=1, max=2147483647):payment_id>/void")
def void_payment(session_id: str, payment_id: int) -> Any:
    night, actor = authorised(session_id, "void_payment")
    db = get_session()
    payment = ledger_night.void_payment(db, night, payment_id, actor)
    return jsonify(ledger_night.payment_json(payment) | {"outstanding": ledger_night.outstanding(db, night)})


@bp.get("/sessions/<session_id>/history")
def history(session_id: str) -> Any:
    """Every change to the session (audit events: who, which phone, when, before/after)."""
    night = authorised_night(session_id)
    return jsonify({"events": [ledger_night.audit_json(e) for e in ledger_night.history(get_session(), night)]})


@bp.get("/sessions/<session_id>/settlement")
def settlement(session_id: str) -> Any:
    """The fewest transfers that clear the current balances (shape as ``/settle``)."""
    night = authorised_night(session_id)
    db = get_session()
    body = ledger_night.settlement_plan(db, night).to_json()
    body["balances"] = ledger_night.balances(db, night)
    body["outstanding"] = ledger_night.outstanding(db, night)
    return jsonify(body)


@bp.post("/sessions/<session_id>/close")
def close(session_id: str) -> Any:
    """Host: close the night. Body optional: ``{"carry_over": true}`` carries what a club
    night still owes into the club's balances (422 ``invalid_entry`` outside a club)."""
    night, actor = authorised(session_id, "close")
    from ledger.api.club_schemas import CloseSchema
    from ledger.api.clubs import close_club_night

    raw = request.get_data(cache=True)
    carry_over = load(CloseSchema(), json_body())["carry_over"] if raw.strip() else False
    db = get_session()
    close_club_night(night, actor, carry_over)
    return jsonify(ledger_night.session_json(db, night))


def _host_recovery_code(night: GameSession) -> str:
    """The recovery code when the request carries the host's own link token (the host's PDF
    prints it), else ``""``."""
    token = bearer_token()
    if token is not None and access.is_host_link(get_session(), night, token):
        return access.table_secrets(token, night.id).recovery_code
    return ""


@bp.get("/sessions/<session_id>/summary.pdf")
def summary_pdf(session_id: str) -> Response:
    """The night's summary PDF (any role; the host's copy prints the recovery code)."""
    night = authorised_night(session_id)
    return downloads.pdf_response(*downloads.statement_pdf(
        get_session(), night, "summary", recovery_code=_host_recovery_code(night)))


@bp.get("/sessions/<session_id>/statements/<int:seat>.pdf")
def statement_pdf(session_id: str, seat: int) -> Response:
    """One player's statement PDF, ``seat`` 1..n in seat order (any role); 404
    ``seat_not_found`` for another seat."""
    night = authorised_night(session_id)
    return downloads.pdf_response(*downloads.statement_pdf(get_session(), night, "statement", seat=seat))


@bp.get("/sessions/<session_id>/statements.pdf")
def pack_pdf(session_id: str) -> Response:
    """The night pack PDF: the summary, then every player's statement (any role; the host's
    copy prints the recovery code in the summary)."""
    night = authorised_night(session_id)
    return downloads.pdf_response(*downloads.statement_pdf(
        get_session(), night, "pack", recovery_code=_host_recovery_code(night)))


@bp.get("/sessions/<session_id>/export.csv")
def export_csv(session_id: str) -> Response:
    """``?table=hands|transfers|payments|history`` (default hands) as CSV, formula-safe."""
    night = authorised_night(session_id)
    table = load(ExportQuerySchema(), request.args.to_dict())["table"]
    response = Response(export.export_csv(get_session(), night, table), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="tonk-{night.id}-{table}.csv"'
    return response


@bp.get("/sessions/<session_id>/export.json")
def export_json(session_id: str) -> Any:
    """The whole night: session, every hand version and its transfers, payments, history."""
    night = authorised_night(session_id)
    return jsonify(export.export_json(get_session(), night))


@bp.get("/openapi.json")
def openapi_document() -> Any:
    """The published contract: this API as an OpenAPI 3.1 document (no token needed)."""
    from ledger.api.openapi import build_openapi

    document = current_app.extensions.get("ledger.openapi")
    if document is None:
        document = current_app.extensions["ledger.openapi"] = build_openapi()
    return jsonify(document)


def http_error(err: HTTPException) -> Any:
    """The API's JSON answer for an HTTP error; outside ``/api/`` Flask's own page."""
    if request.path.startswith("/api/"):
        if err.code == 429:
            return error_response(429, "too_many_attempts", Sentence(TOO_MANY_ATTEMPTS))
        code = (err.name or "error").lower().replace(" ", "_")
        return error_response(err.code or 500, code, http_sentence(err))
    return err


def _server_error(err: InternalServerError) -> Any:
    if request.path.startswith("/api/"):
        return error_response(500, "internal_error", Sentence(INTERNAL_ERROR))
    return err


from ledger.api import seating as _seating  # noqa: E402,F401  (registers the seating calls on bp)
from ledger.api import clubs as _clubs  # noqa: E402,F401  (registers the club calls on bp, issue 9)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(HTTPException, http_error)
