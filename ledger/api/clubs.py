"""The club calls of ``/api/v1`` (issue 9): clubs and their rosters, club nights and
carry-over, running balances and payments, standings, export and import, season PDFs.

Every club call but ``POST /clubs``, ``POST /clubs/join`` and ``POST /clubs/import`` needs a
club token (``Authorization: Bearer``): the owner's, the member's or the viewer's (or a phone's
that joined by code). Errors as everywhere in the API: ``{"error", "message", "field"}``;
401 ``unauthorized``, 403 ``forbidden`` / ``role_forbidden``, 404 ``club_not_found``,
``member_not_found``, ``payment_not_found``.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify, request, url_for
from werkzeug.routing import BaseConverter

from ledger.access import devices
from ledger.access import roles as access
from ledger.night import lifecycle as ledger_night
from ledger.api.errors import ApiError
from ledger.api.requests import bearer_token, bp, idempotency_key, json_body, load
from ledger.api.share_links import share_json
from ledger.api.club_schemas import (
    ClubCreateSchema, ClubJoinSchema, ClubPaymentSchema, ClubSettingsSchema, MemberSchema, MemberUpdateSchema,
)
from ledger.clubs import books, carry, keys, roster
from ledger.storage.club_models import Club
from ledger.clubs.roster import ClubActor
from ledger.storage.db import get_session
from ledger.i18n import N_
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.games.tonk import RuleSet


def club_authorised(club_id: str, action: str = "read") -> tuple[Club, ClubActor]:
    """The club and the acting role if the request's token opens it for ``action``: 401
    ``unauthorized``, 404 ``club_not_found``, 403 ``forbidden`` (another club's token or none
    of a club), 403 ``role_forbidden``."""
    token = bearer_token()
    if token is None:
        raise ApiError(401, "unauthorized", N_("Send the club's token as 'Authorization: Bearer <token>'."))
    db = get_session()
    club = roster.find_club(db, club_id)
    if club is None:
        raise ApiError(404, "club_not_found", N_("There is no club {id}."), "id", id=repr(club_id))
    actor = roster.actor_for(db, club, token)
    if actor is None and keys.revoked(db, club, token):
        raise ApiError(401, "token_revoked", N_("This token was withdrawn by the club’s owner; ask the owner for a "
                                                "new link."))
    if actor is None:
        raise ApiError(403, "forbidden", N_("That token does not open this club."))
    actor.require(action)
    return club, actor


class ClubIdConverter(BaseConverter):
    """A club id in a path (``<club_id:club_id>``): any one path segment but ``join`` and
    ``import``, the club calls that take a POST only, so that ``GET /clubs/join`` is 405 (with
    ``Allow: POST``) and ``OPTIONS /clubs/join`` offers POST alone."""

    regex = r"(?!(?:join|import)$)[^/]+"


def club_share_json(club: Club, owner_token: str) -> dict[str, Any]:
    """The owner's view of the club's secrets: tokens, links per role, table code."""
    keys = roster.club_secrets(owner_token, club.id)
    return {
        "token": owner_token,
        "member_token": keys.member_token,
        "viewer_token": keys.viewer_token,
        "table_code": keys.table_code,
        "links": {role: url_for("web.club_join", club_id=club.id, token=keys.for_role(role), _external=True)
                  for role in roster.CLUB_ROLES},
    }


@bp.post("/clubs")
def create_club() -> Any:
    """``{name, currency, timezone?, members?}`` → 201 the club plus ``{token, member_token,
    viewer_token, table_code, links}`` (the owner's token shown once)."""
    data = load(ClubCreateSchema(), json_body())
    db = get_session()
    club, token = roster.create_club(db, name=data["name"], currency=data["currency"],
                                     timezone=data["timezone"], members=data["members"],
                                     carry_needs_owner=data["carry_needs_owner"])
    response = jsonify(carry.club_json(db, club) | club_share_json(club, token))
    response.headers["Location"] = url_for("api.get_club", club_id=club.id)
    return response, 201


@bp.post("/clubs/join")
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)
def join_club() -> Any:
    """``{"code", "name"}`` (the club's table code; the device's own name, optional: else its
    ``X-Device`` header, else "api client") → 201 ``{id, token, role: "member"}``;
    422 ``invalid_entry`` naming ``name`` for a name that is not one; 404 ``unknown_code``;
    rate-limited with the table code's budget (429)."""
    sent = load(ClubJoinSchema(), json_body())
    label = devices.phone_name(sent.get("name"), request.headers.get("X-Device"), "api client")
    code = sent["code"]
    joined = roster.join_by_code(get_session(), code, label)
    if joined is None:
        raise ApiError(404, "unknown_code", N_("No club has that code."), "code")
    return jsonify({"id": joined[0].id, "token": joined[1], "role": "member"}), 201


@bp.get("/clubs/<club_id:club_id>")  # never "join" or "import": those are POST only (405 with Allow)
def get_club(club_id: str) -> Any:
    """``{id, name, currency, members, balances, settlement, nights}`` (any club role)."""
    club, _actor = club_authorised(club_id)
    return jsonify(carry.club_json(get_session(), club))


@bp.patch("/clubs/<club_id:club_id>")
def update_club(club_id: str) -> Any:
    """Owner: ``{carry_needs_owner}`` → 200 the club (as ``GET``); 403 ``role_forbidden`` for a
    member or viewer; 422 ``invalid_entry`` for anything else in the body."""
    club, actor = club_authorised(club_id)
    data = load(ClubSettingsSchema(), json_body())
    db = get_session()
    roster.set_carry_needs_owner(db, club, data["carry_needs_owner"], actor)
    return jsonify(carry.club_json(db, club))


@bp.post("/clubs/<club_id>/nights/<session_id>/carry")
def carry_club_night(club_id: str, session_id: str) -> Any:
    """Owner: carry a closed night waiting for the owner (``carried: "pending"``), or one whose
    carry was undone, into the club's balances → 200 the club (as ``GET``); 403
    ``role_forbidden`` (member, viewer), 404 ``session_not_found``, 409 ``night_not_pending``."""
    from ledger.clubs.night_access import club_night_of

    club, actor = club_authorised(club_id)
    db = get_session()
    night = club_night_of(db, club, session_id)
    carry.carry_night(db, club, night, actor)
    return jsonify(carry.club_json(db, club))


@bp.post("/clubs/<club_id>/nights/<session_id>/uncarry")
def uncarry_club_night(club_id: str, session_id: str) -> Any:
    """Owner: undo a carried night with reversing entries (nothing deleted, audited) → 200 the
    club; the night's outstanding amounts are paid at the night again. 403 ``role_forbidden``
    (member, viewer), 404 ``session_not_found``, 409 ``night_not_carried``, 409 ``pot_taken`` (with
    ``pot_minor``) when a later Tong-its night already opened with the pot this night carried."""
    from ledger.clubs.night_access import club_night_of

    club, actor = club_authorised(club_id)
    db = get_session()
    night = club_night_of(db, club, session_id)
    carry.uncarry_night(db, club, night, actor)
    return jsonify(carry.club_json(db, club))


@bp.get("/clubs/<club_id>/share")
def share_club(club_id: str) -> Any:
    """Owner (own link only): the club with its tokens, links and table code again, the shape
    ``POST /clubs`` answers (``ClubCreatedSchema``, as documented)."""
    club, _actor = club_authorised(club_id, "share")
    token = bearer_token()
    db = get_session()
    if token is None or not roster.is_owner_link(db, club, token):
        raise ApiError(403, "role_forbidden", N_("The club's links are kept by the owner's own link."))
    return jsonify(carry.club_json(db, club) | club_share_json(club, token))


@bp.post("/clubs/<club_id>/members")
def add_member(club_id: str) -> Any:
    """Owner or member: ``{name, language?}`` → 201 ``{id, name, language?}`` (200 when a member
    by that name, under :func:`ledger.names.name_key`, is already on the roster: its language is
    left as it is). 422 ``invalid_entry`` (field ``language``) for a language that is not a catalogue code,
    ``duplicate_player`` (field ``name``) for a new name that looks like a member's
    (:func:`ledger.clubs.roster.look_alike_member`)."""
    club, actor = club_authorised(club_id, "roster")
    data = load(MemberSchema(), json_body())
    member, created = roster.add_member(get_session(), club, data["name"], actor, language=data.get("language"))
    return jsonify(roster.member_json(member)), 201 if created else 200


@bp.post("/clubs/<club_id>/members/<int(min=1, max=2147483647):member_id>/rename")
def rename_member(club_id: str, member_id: int) -> Any:
    """Owner: ``{name, language?}`` → 200 ``{id, name, language?}``: the member keeps their id,
    balance and nights; 422 ``duplicate_player`` when another member has that name or one it
    looks like (:func:`ledger.clubs.roster.look_alike_member`); 404
    ``member_not_found``."""
    club, actor = club_authorised(club_id, "rename")
    data = load(MemberSchema(), json_body())
    db = get_session()
    member = roster.rename_member(db, club, member_id, data["name"], actor)
    if "language" in data:
        member = roster.set_member_language(db, club, member_id, data["language"], actor)
    return jsonify(roster.member_json(member))


@bp.patch("/clubs/<club_id>/members/<int(min=1, max=2147483647):member_id>")
def update_member(club_id: str, member_id: int) -> Any:
    """``{name?, language?}`` → 200 ``{id, name, language?}``. ``language`` (a catalogue code, or
    null to follow the reader) is set by the owner or a member; a new ``name`` needs the owner
    (403 ``role_forbidden``), as the rename does. 404 ``member_not_found``; 422 ``invalid_entry``
    (field ``language``), ``duplicate_player``."""
    club, actor = club_authorised(club_id, "roster")
    data = load(MemberUpdateSchema(), json_body())
    if not data:
        raise ApiError(422, "invalid_entry", "Send the member's new name or language.")
    db = get_session()
    member = roster.get_member(db, club, member_id)
    if "name" in data and data["name"] != member.name:
        member = roster.rename_member(db, club, member_id, data["name"], actor)
    if "language" in data:
        member = roster.set_member_language(db, club, member_id, data["language"], actor)
    return jsonify(roster.member_json(member))


@bp.get("/clubs/<club_id>/payments")
def list_club_payments(club_id: str) -> Any:
    """``{payments: [{id, from, to, amount, status, created_at}], balances}``."""
    club, _actor = club_authorised(club_id)
    db = get_session()
    return jsonify({"payments": [books.payment_json(db, p) for p in books.payments_of(db, club)],
                    "balances": books.balances(db, club)})


@bp.post("/clubs/<club_id>/payments")
def record_club_payment(club_id: str) -> Any:
    """Owner or member: ``{from, to, amount, confirm?}`` against the carried balances → 201 the
    payment and the ``balances``; 422 ``invalid_payment``, ``overpayment``. A repeated
    ``Idempotency-Key`` → 200 with the payment already recorded (409
    ``idempotency_key_reused`` with another payment)."""
    club, actor = club_authorised(club_id, "pay")
    data = load(ClubPaymentSchema(), json_body())
    db = get_session()
    payment, created = books.record_payment(db, club, data["payer"], data["payee"], data["amount"], actor,
                                            confirm=data["confirm"],
                                            idempotency_key=idempotency_key())
    return jsonify(books.payment_json(db, payment) | {"balances": books.balances(db, club)}), 201 if created else 200


@bp.post("/clubs/<club_id>/payments/<int(min=1, max=2147483647):payment_id>/void")
def void_club_payment(club_id: str, payment_id: int) -> Any:
    """Owner: void a club payment (kept, stops counting) → 200 it and the ``balances``."""
    club, actor = club_authorised(club_id, "void_payment")
    db = get_session()
    payment = books.void_payment(db, club, payment_id, actor)
    return jsonify(books.payment_json(db, payment) | {"balances": books.balances(db, club)})


@bp.post("/clubs/<club_id>/nights/<session_id>/token")
def club_night_token(club_id: str, session_id: str) -> Any:
    """Any club role: a token of one of the club's nights of this client's own → 201 ``{id,
    token, role}`` (owner → ``host``, member → ``player``, viewer → ``viewer``); send it as the
    night's bearer token. 404 ``session_not_found`` for a night outside this club."""
    from flask import request

    from ledger.clubs.night_access import night_role, night_token

    club, actor = club_authorised(club_id)
    label = " ".join(request.headers.get("X-Device", "").split())[:120] or "club api client"
    night, token = night_token(get_session(), club, actor, session_id, label)
    return jsonify({"id": night.id, "token": token, "role": night_role(actor)}), 201


def create_club_night(data: dict[str, Any], raw: dict[str, Any], chosen: Any = None) -> Any:
    """``POST /api/v1/sessions`` with ``"club"``: the club token opens the club (owner or
    member); the night takes the club's currency and seats members from the roster → 201 as
    for any night, plus ``club``. ``chosen`` is the night's game (:mod:`ledger.games`, default
    Tonk): a club plays either (:func:`ledger.clubs.carry.start_night`)."""
    club, actor = club_authorised(data["club"], "start_night")
    db = get_session()
    name = "tonk" if chosen is None else chosen.name
    rules = RuleSet.from_spec(data["ruleset"]) if name == "tonk" else chosen.rules(data["ruleset"])
    night, token = carry.start_night(
        db, club, actor, name=data["name"], currency=data["currency"], stake_minor=data["stake"],
        rules=rules, players=data["players"], first_dealer=data["first_dealer"],
        timezone=data["timezone"] if "timezone" in raw else None, game=name)
    body = ledger_night.session_json(db, night)
    body["token"] = token
    body.update(share_json(night, token))
    body["recovery_code"] = access.table_secrets(token, night.id).recovery_code
    body["club"] = club.id
    response = jsonify(body)
    response.headers["Location"] = url_for("api.get_night", session_id=night.id)
    return response, 201


def close_club_night(night: Any, actor: Any, carry_over: bool | None) -> None:
    """``POST /api/v1/sessions/{id}/close`` with ``carry_over`` (``None`` when the body does not
    say): 422 ``invalid_entry`` naming ``carry_over`` for a night outside clubs asked to carry;
    409 ``session_closed`` from :func:`ledger.clubs.carry.close_night`."""
    db = get_session()
    link = carry.club_night(db, night)
    if link is None:
        if carry_over:
            raise ApiError(422, "invalid_entry", N_("This night is not part of a club, so nothing can be carried over."),
                           "carry_over")
        ledger_night.close_night(db, night, actor)
        return
    club = roster.find_club(db, link.club_id)
    assert club is not None
    carry.close_night(db, club, night, actor, carry_over)


def _period() -> Any:
    from flask import request

    from ledger.api.club_schemas import StandingsQuerySchema
    from ledger.clubs.standings import Period

    query = load(StandingsQuerySchema(), request.args.to_dict())
    return Period(query["date_from"], query["date_to"], query["last"])


@bp.get("/clubs/<club_id>/standings")
def club_standings(club_id: str) -> Any:
    """``?from=YYYY-MM-DD&to=YYYY-MM-DD&last=N`` (each optional) → ``{members: [{member,
    member_id, nights, hands, net, wins: {kind: int}, caught, best_night, worst_night,
    average_per_night, cumulative}], nights: [{id, name, date}]}``; 422 ``invalid_entry``."""
    from ledger.clubs.standings import standings

    club, _actor = club_authorised(club_id)
    return jsonify(standings(get_session(), club, _period()).to_json())


@bp.get("/clubs/<club_id>/export.json")
def export_club_json(club_id: str) -> Any:
    """The whole club as one JSON document (any club role); POST it to ``/clubs/import``."""
    from ledger.clubs.export import export_club

    club, _actor = club_authorised(club_id)
    return jsonify(export_club(get_session(), club))


@bp.get("/clubs/<club_id>/export.csv")
def export_club_csv(club_id: str) -> Any:
    """``?table=members|nights|results|carries|payments|history`` (default results) as CSV,
    formula-safe."""
    from flask import Response, request

    from ledger.api.club_schemas import ClubExportQuerySchema
    from ledger.clubs.export import export_csv

    club, _actor = club_authorised(club_id)
    table = load(ClubExportQuerySchema(), request.args.to_dict())["table"]
    response = Response(export_csv(get_session(), club, table), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="tonk-club-{club.id}-{table}.csv"'
    return response


@bp.post("/clubs/import")
def import_club() -> Any:
    """A document from ``GET /clubs/{id}/export.json`` → 201 the new club with new tokens
    (``token``, ``member_token``, ``viewer_token``, ``table_code``, ``links``) and
    ``night_tokens`` (a new host token per night). The import is a replay
    (:mod:`ledger.clubs.import_replay`): 422 ``invalid_entry`` naming the first path not of the
    export's shape (:mod:`ledger.clubs.import_schema`; an unknown key too), 422
    ``import_mismatch`` naming the first path whose figure differs from the replay's (or the live
    API's own code for the check that refuses it); nothing of a refused document is kept. The
    body may be up to ``IMPORT_MAX_BYTES`` (default 64 MiB; every other call's is 256 KiB):
    413 ``request_entity_too_large`` above."""
    from flask import current_app

    from ledger.api.errors import FIELD_PROBLEM, schema_sentence
    from ledger.clubs.export import import_club as store
    from ledger.clubs.import_schema import DocumentError

    request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
    document = json_body()
    db = get_session()
    try:
        club, token, night_tokens = store(db, document)
    except DocumentError as err:
        problem = schema_sentence(err.message)
        if err.path is None:
            raise ApiError(422, "invalid_entry", problem) from None
        raise ApiError(422, "invalid_entry", FIELD_PROBLEM, err.path, field=err.path, problem=problem) from None
    body = carry.club_json(db, club) | club_share_json(club, token) | {"night_tokens": night_tokens}
    response = jsonify(body)
    response.headers["Location"] = url_for("api.get_club", club_id=club.id)
    return response, 201


@bp.get("/clubs/<club_id>/statements/<int(min=1, max=2147483647):member_id>.pdf")
def club_statement_pdf(club_id: str, member_id: int) -> Any:
    """A member's season statement PDF for the period (``from``, ``to``, ``last`` as for the
    standings; any club role), in the member's language when they have one, else the request's;
    404 ``member_not_found``."""
    from ledger.clubs.season import season_report
    from ledger.statements.downloads import pdf_response, season_language
    from ledger.statements.season import render_season_statement, statement_file_name

    club, _actor = club_authorised(club_id)
    db = get_session()
    member = roster.get_member(db, club, member_id)
    report = season_report(db, club, _period())
    language, locale = season_language(member)
    return pdf_response(render_season_statement(report, member.name, language=language, locale=locale),
                        statement_file_name(report, member.name, language=language, locale=locale))


@bp.get("/clubs/<club_id>/summary.pdf")
def club_summary_pdf(club_id: str) -> Any:
    """The club summary PDF for the period: standings, cumulative net chart, balances, plan."""
    from ledger.clubs.season import season_report
    from ledger.statements.downloads import pdf_response, season_language
    from ledger.statements.season import render_club_summary, summary_file_name

    club, _actor = club_authorised(club_id)
    report = season_report(get_session(), club, _period())
    language, locale = season_language(None)
    return pdf_response(render_club_summary(report, language=language, locale=locale),
                        summary_file_name(report, language=language, locale=locale))
