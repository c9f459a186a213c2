"""The JSON API, ``/api/v1`` (a contract other tools rely on: keep names and shapes).

Stateless: ``POST /score`` (one §8.1 entry → §8.2 result), ``POST /settle``.
Sessions: ``POST /sessions``; with ``Authorization: Bearer <token>``: ``GET /sessions/{id}``,
``GET|POST /sessions/{id}/hands``, ``GET /sessions/{id}/hands/{n}``,
``POST /sessions/{id}/hands/{n}/void``, ``…/hands/{n}/restore``, ``POST /sessions/{id}/undo``,
``POST /sessions/{id}/redo``, ``POST /sessions/{id}/preview``, ``GET /sessions/{id}/phones``,
``POST /sessions/{id}/hosts`` (co-host), ``POST /sessions/{id}/recover`` (recovery code),
``DELETE /sessions/{id}/phones/{phone}``, ``POST /sessions/{id}/rotate``, ``POST /sessions/{id}/recovery``,
``GET /sessions/{id}/settlement``, ``POST /sessions/{id}/close``,
``GET /sessions/{id}/summary.pdf``, ``GET /sessions/{id}/statements/{seat}.pdf`` and
``GET /sessions/{id}/statements.pdf``. The hand calls are in :mod:`ledger.api.hands`, the
seating calls (sit in, leave, stake, swap, rename) in :mod:`ledger.api.seating`, the club calls
in :mod:`ledger.api.clubs`; what they share (the blueprint, the JSON body, the bearer token) in
:mod:`ledger.api.requests`.

Errors are JSON ``{"error", "message", "field"}``: 400 malformed JSON, 401 no token, 403 wrong
token, 404 unknown session or hand, 409 closed session, 422 a refused entry (§9.1 code).
All money is JSON integers in minor units.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from ledger.access import devices
from ledger.access import roles as access
from ledger.statements import downloads
from ledger.night import export
from ledger.night import hosts
from ledger.night import lifecycle as ledger_night
from ledger.api.errors import INTERNAL_ERROR, TOO_MANY_ATTEMPTS, ApiError, error_response, http_sentence
from ledger.api.requests import authorised, authorised_night, bearer_token, bp, device, idempotency_key, json_body, load
from ledger.api.schemas import (
    CohostSchema,
    ExportQuerySchema,
    JoinSchema,
    PaymentSchema,
    RecoverSchema,
    SessionCreateSchema,
    SettleSchema,
)
from ledger.api.share_links import share_json
from ledger.storage.db import get_session
from ledger.i18n import N_
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter, settle_limit
from ledger.storage.models import GameSession
from ledger.money import POINTS
from ledger.names import normalise_entry
from ledger.night.handles import transfer_hand_offs
from ledger.night.payments import because_json, carried_into, check_money, explained_settlement
from ledger.games import DEFAULT_GAME, GAMES, UnknownGame, game
from ledger.games.tonk import RuleSet, score_entry
from ledger.sentences import Sentence
from ledger.settlement.plan import UnbalancedError, settle
from ledger.transfers import Transfer

SESSION_FIELD_CODES = {"stake": "invalid_stake"}

# -- stateless -----------------------------------------------------------------------------------
@bp.post("/score")
def score() -> Any:
    """One §8.1 entry → 200 §8.2 result, or 422 ``{"error": §9.1 code, ...}``. An optional
    ``"game"`` picks the game: absent or null = ``"tonk"`` (RULES.md, unchanged), ``"tongits"``
    a TONGITS.md §8.1 entry → its §8.2 result (``pot`` and all); any other value is 400
    ``invalid_game`` (field ``game``)."""
    body = json_body()
    name = body.pop("game", None)
    try:
        chosen = game(name)
    except UnknownGame:
        raise ApiError(400, "invalid_game", N_("game must be one of {games}; got {value}."), "game",
                       games=", ".join(GAMES), value=repr(name)) from None
    if chosen.name == DEFAULT_GAME:
        return jsonify(score_entry(normalise_entry(body)).to_json())
    return jsonify(chosen.score_entry(normalise_entry(body)).to_json())


def _game_asked(name: Any) -> Any:
    """The game a body's ``game`` names (absent or null: Tonk); raises :class:`ApiError` 400
    ``invalid_game`` (field ``game``) for anything else."""
    try:
        return game(name)
    except UnknownGame:
        raise ApiError(400, "invalid_game", N_("game must be one of {games}; got {value}."), "game",
                       games=", ".join(GAMES), value=repr(name)) from None


@bp.post("/settle")
@limiter.limit(settle_limit)
def settle_balances() -> Any:
    """``{"balances": {player: int}, "prefer"?: [{from, to, amount}]}`` → ``{"transfers",
    "transfer_count", "minimal"}``: the fewest transfers, and among such plans the one keeping
    the most lines of ``prefer`` (the plan shown before); 422 ``unbalanced`` when the balances
    do not sum to zero, 422 ``invalid_entry`` past 64 balances or 24 non-zero ones, or for a
    ``prefer`` line that is not one (field ``prefer.<i>.from``, ``.to`` or ``.amount``); 429
    ``too_many_attempts`` past ``SETTLE_LIMIT`` per client."""
    data = load(SettleSchema(), json_body())
    prefer = [Transfer(line["payer"], line["payee"], line["amount"]) for line in data["prefer"]]
    try:
        plan = settle(data["balances"], prefer=prefer)
    except UnbalancedError as exc:
        raise ApiError(422, "unbalanced", N_("balances must sum to zero, but they sum to {total}"), "balances",
                       total=exc.total_minor) from None
    return jsonify(plan.to_json())


# -- sessions -------------------------------------------------------------------------------------
@bp.post("/sessions")
def create_session() -> Any:
    """Open a night → 201 the session plus its ``token`` (shown once) and ``table_url``.
    ``"game"`` picks the game (absent or null = ``"tonk"``; ``"tongits"``: TONGITS.md, its rule
    set, presets and seat range; ``"rummy13"``: RUMMY13.md, points or pool rummy, whose pot
    :mod:`ledger.api.pool` pays); any other value is 400 ``invalid_game``
    (field ``game``). A
    club night may be of either game (:func:`ledger.api.clubs.create_club_night`)."""
    raw = json_body()
    chosen = _game_asked(raw.get("game"))
    data = load(SessionCreateSchema(), raw, SESSION_FIELD_CODES)
    if data["points"]:  # a score sheet (issue 25): no currency
        if data["currency"] not in (None, POINTS):
            raise ApiError(422, "invalid_entry", N_("A night kept in points has no currency: leave it out."),
                           "currency")
        data["currency"] = POINTS
    if data["club"] is not None:  # a club night (issue 9): the club's token and currency
        from ledger.api.clubs import create_club_night

        return create_club_night(data, raw, chosen)
    if data["currency"] is None:
        raise ApiError(422, "invalid_entry", N_("currency: Missing data for required field."), "currency")
    rules = RuleSet.from_spec(data["ruleset"]) if chosen.name == DEFAULT_GAME else chosen.rules(data["ruleset"])
    night, token = ledger_night.create_night(
        get_session(),
        name=data["name"],
        currency=data["currency"].upper(),
        stake_minor=data["stake"],
        rules=rules,
        players=data["players"],
        first_dealer=data["first_dealer"],
        timezone=data["timezone"],
        game=chosen.name,
    )
    body = ledger_night.session_json(get_session(), night)
    body["token"] = token
    body.update(share_json(night, token))
    body["recovery_code"] = access.table_secrets(token, night.id).recovery_code  # shown once
    response = jsonify(body)
    response.headers["Location"] = url_for("api.get_night", session_id=night.id)
    return response, 201


@bp.get("/sessions/<session_id>/share")
def share(session_id: str) -> Any:
    """Host only: the join links, tokens and table code to hand to the other phones."""
    night, _actor = authorised(session_id, "share")
    token = bearer_token()
    assert token is not None
    if not access.is_host_link(get_session(), night, token):
        raise ApiError(403, "role_forbidden", N_("The table's links and code are kept by the host's own phone; a "
                                                 "co-host cannot show them, and a phone that recovered the host gets "
                                                 "new ones with POST /rotate."))
    return jsonify(share_json(night, token))


@bp.post("/sessions/<session_id>/rotate")
def rotate(session_id: str) -> Any:
    """The night's own host (its host link, or a phone recovered with the code): new links and
    codes → 200 the shape of ``/share`` plus ``token`` (the new host token, which this phone now
    keeps) and ``recovery_code``. Every old link token answers 401 ``token_revoked``, the old
    table code 404 ``unknown_code`` at ``/join``, the old recovery code 410 ``code_used``; phones
    that joined keep their own tokens. 403 ``role_forbidden`` for a player, viewer or co-host."""
    night, actor = authorised(session_id, "keys")
    db = get_session()
    token = hosts.rotate(db, night, actor)
    body = share_json(night, token) | {"token": token,
                                       "recovery_code": access.live_recovery_code(db, night, token)}
    return jsonify(body)


@bp.post("/sessions/<session_id>/recovery")
def new_recovery_code(session_id: str) -> Any:
    """The night's own host: a new recovery code → 201 ``{recovery_code}``; the old code stops
    working (410 ``code_used``). Derived from the host link when the request carries it (the
    host's PDF prints it), else random and shown only here. 403 ``role_forbidden`` for a player,
    viewer or co-host."""
    night, actor = authorised(session_id, "keys")
    code = hosts.issue_recovery_code(get_session(), night, actor, bearer_token())
    return jsonify({"recovery_code": code}), 201


@bp.delete("/sessions/<session_id>/phones/<int(min=1, max=2147483647):phone_id>")
def revoke_phone(session_id: str, phone_id: int) -> Any:
    """The night's own host: remove phone ``phone_id`` (from ``GET …/phones``) → 200 the phone
    with ``revoked_at``; its token answers 401 ``token_revoked`` from then on and it leaves the
    list. 404 ``phone_not_found``, 409 ``own_phone`` (a phone cannot remove itself), 403
    ``role_forbidden`` for a player, viewer or co-host."""
    night, actor = authorised(session_id, "keys")
    return jsonify(hosts.revoke_phone(get_session(), night, phone_id, actor))


@bp.post("/join")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def join_by_code() -> Any:
    """``{"code": "K7QM2X", "name": "Bo's phone"}`` (``name`` optional) → ``{id, token, role,
    phone: {id, name}}``: a new player token for this device, listed in ``GET …/phones`` as
    ``name``, else its ``X-Device`` header, else its system and browser ("Android · Chrome").
    422 ``invalid_entry`` naming ``name`` for a name that is not one (over 40 characters,
    hidden characters); 404 ``unknown_code``; rate-limited against guessing (429)."""
    sent = load(JoinSchema(), json_body())
    label = devices.phone_name(sent.get("name"), device(), "api client")
    db = get_session()
    joined = access.join_by_code(db, sent["code"], label)
    if joined is None:
        raise ApiError(404, "unknown_code", N_("No open table has that code."), "code")
    night, token = joined
    phone = access.key_for(db, night, token)
    return jsonify({"id": night.id, "token": token, "role": "player",
                    "phone": {"id": phone.id if phone else None, "name": devices.shown(label)}}), 201


@bp.post("/sessions/<session_id>/recover")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def recover(session_id: str) -> Any:
    """``{"code": "ABCD-EFGH-JKLM-NPQR"}`` (the recovery code) → 201 ``{id, token, role: "host",
    phone}``: a host token of this phone's own (``phone``: its id in ``GET …/phones``), never the
    host's link token; the code then stops working. 404 ``session_not_found``,
    ``unknown_code``; 410 ``code_used`` (used already, or replaced); rate-limited with the table
    code's budget (429)."""
    db = get_session()
    night = ledger_night.find_night(db, session_id)
    if night is None:
        raise ApiError(404, "session_not_found", N_("There is no session {id}."), "id", id=repr(session_id))
    code = load(RecoverSchema(), json_body())["code"]
    recovered = hosts.recover_host(db, code, device(), night)
    if recovered is None:
        raise ApiError(404, "unknown_code", N_("That is not this night's recovery code."), "code")
    phone = access.key_for(db, night, recovered[1])
    return jsonify({"id": night.id, "token": recovered[1], "role": "host", "phone": phone.id if phone else None}), 201


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
    into its club (voiding a payment too). A repeated ``Idempotency-Key`` → 200 with the
    payment already recorded (409 ``idempotency_key_reused`` with another payment)."""
    night, actor = authorised(session_id, "pay")
    data = load(PaymentSchema(), json_body())
    db = get_session()
    payment, created, left = ledger_night.record_payment_kept(
        db, night, data["payer"], data["payee"], data["amount"], actor, confirm=data["confirm"],
        idempotency_key=idempotency_key())
    body = ledger_night.payment_json(payment) | {
        "outstanding": left if left is not None else ledger_night.outstanding(db, night)}
    return jsonify(body), 201 if created else 200


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
    """The fewest transfers that clear the current balances (shape as ``/settle``; the plan is
    kept while people pay, :func:`ledger.settlement.plan.settle_after_payments`), each transfer with
    ``because``: the payer's losses that explain it, ``[{"hand", "amount"}]`` summing exactly to
    its amount (:mod:`ledger.settlement.allocation`; ``{"payment", "amount"}`` for money the payer was paid
    beyond what they were owed); ``pay``: the payee's hand-offs that fit the night's currency,
    ``[{"kind", "url"?, "qr_payload"?}]`` with the exact amount (absent when there is none) (:mod:`ledger.settlement.handoffs`, issue 22;
    ``GET …/settlement/{n}/qr.svg`` draws one); and ``carried_into``: the club whose balances took what was still owed when the night closed
    (its id; the transfers are then settled in the club, not between the night's players),
    else ``null``."""
    night = authorised_night(session_id)
    check_money(night.currency)  # a night kept in points settles nothing: 409 points_only
    db = get_session()
    plan, because = explained_settlement(db, night)
    body = plan.to_json()
    for transfer, losses in zip(body["transfers"], because):
        transfer["because"] = because_json(losses)
    for transfer, offers in zip(body["transfers"], transfer_hand_offs(db, night, body["transfers"])):
        if offers:  # absent when the payee keeps no handle that fits (the shape before issue 22)
            transfer["pay"] = [offer.to_json() for offer in offers]
    body["balances"] = ledger_night.balances(db, night)
    body["outstanding"] = ledger_night.outstanding(db, night)
    club = carried_into(db, night)
    body["carried_into"] = club.id if club is not None else None
    return jsonify(body)


@bp.post("/sessions/<session_id>/close")
def close(session_id: str) -> Any:
    """Host: close the night. Body optional: ``{"carry_over": true}`` carries what a club
    night still owes into the club's balances (422 ``invalid_entry`` outside a club); without
    it a club night closes settled in cash. A Tong-its night closes its pot first (TONGITS.md
    §4.9, the rules' ``pot_at_end``): the answer then has ``pot_closed``, that entry as a hand
    (``kind`` ``close_pot``, its transfers and ``pot``). Closing a closed night again answers 200 as
    before, or 409 ``session_closed`` (field ``carry_over``, with ``carried``) when the body
    asks for the other choice than the one the night was closed with."""
    night, actor = authorised(session_id, "close")
    from ledger.api.club_schemas import CloseSchema
    from ledger.api.clubs import close_club_night

    raw = request.get_data(cache=True)
    body = json_body() if raw.strip() else {}
    loaded = load(CloseSchema(), body)
    carry_over = loaded["carry_over"] if "carry_over" in body else None  # None: no choice said
    db = get_session()
    close_club_night(night, actor, carry_over)
    body = ledger_night.session_json(db, night)
    closed_pot = ledger_night.pot_closed_at_close(db, night)
    if closed_pot is not None:  # TONGITS.md §4.9: what happened to the pot, said
        body["pot_closed"] = ledger_night.hand_json(closed_pot)
    return jsonify(body)


def _host_recovery_code(night: GameSession) -> str:
    """The recovery code when the request carries the host's own link token (the host's PDF
    prints it), else ``""``."""
    token = bearer_token()
    if token is not None and access.is_host_link(get_session(), night, token):
        return access.live_recovery_code(get_session(), night, token)
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
    """The API's JSON answer for an HTTP error (a 405 with its ``Allow`` header); outside
    ``/api/`` Flask's own page."""
    if request.path.startswith("/api/"):
        if err.code == 429:
            return error_response(429, "too_many_attempts", Sentence(TOO_MANY_ATTEMPTS))
        code = (err.name or "error").lower().replace(" ", "_")
        response, status = error_response(err.code or 500, code, http_sentence(err))
        if isinstance(err, MethodNotAllowed) and err.valid_methods:
            response.headers["Allow"] = ", ".join(err.valid_methods)
        return response, status
    return err


def _server_error(err: InternalServerError) -> Any:
    if request.path.startswith("/api/"):
        return error_response(500, "internal_error", Sentence(INTERNAL_ERROR))
    return err


from ledger.api import hands as _hands  # noqa: E402,F401  (registers the hand calls on bp)
from ledger.api import seating as _seating  # noqa: E402,F401  (registers the seating calls on bp)
from ledger.api import clubs as _clubs  # noqa: E402,F401  (registers the club calls on bp, issue 9)
from ledger.api import club_keys as _club_keys  # noqa: E402,F401  (club devices and renewed links, issue 20)
from ledger.api import handles as _handles  # noqa: E402,F401  (payment handles, issue 22)
from ledger.api import whole_night as _whole_night  # noqa: E402,F401  (a night removed, voided, restored: issue 23)
from ledger.api import pool as _pool  # noqa: E402,F401  (a pool rummy night's end: issue 25)


def init_app(app: Flask) -> None:
    app.url_map.converters["club_id"] = _clubs.ClubIdConverter  # before the routes that name it
    app.register_blueprint(bp)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_error_handler(HTTPException, http_error)
