"""Payment handles (issue 22): ``GET|PUT /sessions/{id}/players/{name}/handles`` and
``GET|PUT /clubs/{id}/members/{member_id}/handles``.

``PUT`` body: ``{"venmo"?, "cashapp"?, "paypal"?, "upi"?, "iban"?, "bic"?, "name"?, "qr"?}`` (strings;
``name`` is the account holder, required with ``iban``; a missing, empty or null key is no such
handle: the body replaces every handle). → 200 ``{"player", "handles"}`` (night) or
``{"member_id", "name", "handles"}`` (club). 403 ``role_forbidden`` for a viewer or another
player's phone (a host or the owner may set anyone's), 404 ``player_not_found`` /
``member_not_found``, 422 ``invalid_handle`` naming the field (:mod:`ledger.settlement.handoffs`).
``GET`` is open to any token of that night or club (another night's token: 403 ``forbidden``).
``GET /sessions/{id}/settlement/{n}/qr.svg`` draws transfer ``n``'s hand-off as a QR code;
``GET /clubs/{id}/settlement`` is the club's plan with each transfer's ``pay`` and
``GET /clubs/{id}/settlement/{n}/qr.svg`` draws one of its lines.
"""
from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ledger.api.clubs import club_authorised
from ledger.api.errors import ApiError
from ledger.api.requests import authorised, authorised_night, bp, json_body
from ledger.clubs import handles as club_handles
from ledger.clubs.books import balances as club_balances
from ledger.clubs.books import settlement_plan as club_plan
from ledger.clubs.reasons import explained_plan_json
from ledger.i18n import N_
from ledger.night import handles as night_handles
from ledger.night.payments import check_money, settlement_plan
from ledger.statements.settle_text import settle_up_text
from ledger.storage.db import get_session


@bp.get("/sessions/<session_id>/players/<name>/handles")
def get_player_handles(session_id: str, name: str) -> Any:
    night = authorised_night(session_id)
    return jsonify(night_handles.player_handles(get_session(), night, name))


@bp.put("/sessions/<session_id>/players/<name>/handles")
def put_player_handles(session_id: str, name: str) -> Any:
    night, actor = authorised(session_id, "handles")
    return jsonify(night_handles.set_player_handles(get_session(), night, name, json_body(), actor))


@bp.get("/clubs/<club_id:club_id>/members/<int(min=1, max=2147483647):member_id>/handles")
def get_member_handles(club_id: str, member_id: int) -> Any:
    club, _actor = club_authorised(club_id)
    return jsonify(club_handles.member_handles(get_session(), club, member_id))


@bp.put("/clubs/<club_id:club_id>/members/<int(min=1, max=2147483647):member_id>/handles")
def put_member_handles(club_id: str, member_id: int) -> Any:
    club, actor = club_authorised(club_id, "handles")
    return jsonify(club_handles.set_member_handles(get_session(), club, member_id, json_body(), actor))


@bp.get("/sessions/<session_id>/settlement/<int(min=1, max=2147483647):line>/qr.svg")
def settlement_qr(session_id: str, line: int) -> Response:
    """The QR code (SVG, segno) of transfer ``line`` (1-based, in ``GET …/settlement`` order):
    the hand-off of ``?kind=`` (default: the first with a ``qr_payload``, else the first link),
    its ``qr_payload`` or else its ``url``. Any token of the night; 404 ``transfer_not_found``
    (no such line), ``hand_off_not_found`` (the payee keeps no fitting handle of that kind)."""
    night = authorised_night(session_id)
    db = get_session()
    transfers = [t.to_json() for t in settlement_plan(db, night).transfers]
    if line > len(transfers):
        raise ApiError(404, "transfer_not_found", N_("The settle-up has no line {line}."), "line", line=line)
    return _qr_answer(night_handles.transfer_hand_offs(db, night, [transfers[line - 1]])[0])


@bp.get("/clubs/<club_id:club_id>/settlement")
def club_settlement(club_id: str) -> Any:
    """The club's plan as ``GET /clubs/{id}`` shows it (``{transfers: [{from, to, amount, because,
    pay?}], transfer_count, minimal}``, :func:`ledger.clubs.reasons.explained_plan_json`), with
    ``balances`` (each member's running balance, minor units). Any token of the club."""
    club, _actor = club_authorised(club_id)
    check_money(club.currency)  # a club kept in points settles nothing: 409 points_only
    db = get_session()
    return jsonify(explained_plan_json(db, club) | {"balances": club_balances(db, club)})


@bp.get("/clubs/<club_id:club_id>/settlement/<int(min=1, max=2147483647):line>/qr.svg")
def club_settlement_qr(club_id: str, line: int) -> Response:
    """The QR code (SVG) of the club plan's transfer ``line`` (1-based, in ``GET
    /clubs/{id}/settlement`` order), chosen as the night's (:func:`settlement_qr`, ``?kind=``).
    Any token of the club; 404 ``transfer_not_found``, ``hand_off_not_found``."""
    club, _actor = club_authorised(club_id)
    check_money(club.currency)
    db = get_session()
    transfers = [t.to_json() for t in club_plan(db, club).transfers]
    if line > len(transfers):
        raise ApiError(404, "transfer_not_found", N_("The settle-up has no line {line}."), "line", line=line)
    return _qr_answer(club_handles.club_transfer_hand_offs(db, club, [transfers[line - 1]])[0])


def _qr_answer(offers: list[Any]) -> Response:
    kind = request.args.get("kind")
    chosen = [o for o in offers if o.kind == kind] if kind else (
        [o for o in offers if o.qr_payload] or offers)
    if not chosen:
        raise ApiError(404, "hand_off_not_found", N_("This payee keeps no payment handle for this line."), "kind")
    text = chosen[0].qr_payload or chosen[0].url or ""
    response = Response(qr_svg(text), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store"
    return response


def qr_svg(text: str) -> str:
    """``text`` as a QR code SVG (segno; error correction M, as EPC069-12 §3 asks; UTF-8 bytes)."""
    import io

    import segno

    code = segno.make(text, error="m", micro=False, encoding="utf-8" if not text.isascii() else None)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=6, border=4, xmldecl=False, svgns=True, title="QR")
    return out.getvalue().decode("utf-8")


@bp.get("/sessions/<session_id>/settlement.txt")
def settlement_text(session_id: str) -> Response:
    """The settle-up as plain text for the group chat, in the reader's language (``?lang=``,
    else ``Accept-Language``): the night's name, then one line per transfer with the payee's
    handle that fits the currency (the first of ``pay`` that has a handle to name). Any token of
    the night."""
    night = authorised_night(session_id)
    check_money(night.currency)  # a night kept in points settles nothing: 409 points_only
    response = Response(settle_up_text(get_session(), night), mimetype="text/plain")
    response.headers["Cache-Control"] = "private, no-store"
    return response
