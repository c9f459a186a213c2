"""Settle up (``/s/<id>/settle``): the night's balances, the fewest transfers that clear what is
still owed, payments marked as they are handed over (whole or partial: the plan shrinks), the
host's void of a payment, and closing the night.

Amounts typed are parsed exactly (:func:`ledger.money.parse_amount`); the plan, and the losses
that explain each of its lines, come from :func:`ledger.night.payments.explained_settlement`. A refused payment comes back with what was typed. Every
sentence is in the request's language.
"""
from __future__ import annotations

from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, url_for
from sqlmodel import Session

from ledger.night import lifecycle as ledger_night
from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.storage.models import GameSession
from ledger.money import parse_amount
from ledger.names import normalise_name
from ledger.night.handles import payee_handles, transfer_hand_offs
from ledger.night.payments import carried_into, explained_settlement
from ledger.night.report import plan_line
from ledger.statements.settle_text import settle_up_text
from ledger.statements.words import why_sentence
from ledger.web.entry_form import new_key
from ledger.web.start_form import amount_message
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.games import game as game_of
from ledger.night.timeline import seat_order
from ledger.web import live
from ledger.web.access import MAX_ID, authorised
from ledger.web.blueprint import bp
from ledger.web.formatting import money
from ledger.money import is_points
from ledger.web.pot_words import pot_sentence


@live.view("settle", "_live_settle.html")
def settle_state(db: Session, night: GameSession, actor: Actor) -> dict[str, Any]:
    if is_points(night.currency):  # a score sheet (issue 25): the standings, nothing to pay
        return points_state(db, night)
    payments = ledger_night.payments_of(db, night)
    plan, because = explained_settlement(db, night)
    transfers = [t.to_json() for t in plan.transfers]
    handles = payee_handles(db, night)  # once, for the lines' hand-offs and the text for the chat
    def amount(minor: int) -> str:
        return money(minor, night.currency)

    return {
        "balances": list(ledger_night.balances(db, night).items()),
        "outstanding": list(ledger_night.outstanding(db, night).items()),
        "plan": plan,
        # why each line: the payer's losses that make it up exactly, as every PDF says it
        "why": [why_sentence(plan_line(t, losses), amount) for t, losses in zip(plan.transfers, because)],
        "payments": payments,
        "paid_any": any(p.status == "counted" for p in payments),
        "hand_count": ledger_night.hand_count(db, night),
        "everyone": seat_order(night),
        "carried_into": carried_into(db, night),  # its settle-up is the club's: no payments here
        # a game with a pot (TONGITS.md §4.8): the plan's lines to "pot" say who puts its money in,
        # and are no payment between players (the pot keeps it until a take, a split or the next night)
        "pot_party": "pot" in game_of(night.game or None).accounts,
        # the payee's payment apps for each line (issue 22): opening one marks nothing paid
        "offers": transfer_hand_offs(db, night, transfers, handles=handles),
        # "Share the settle-up": the text for the group chat (ledger.statements.settle_text)
        "settle_text": settle_up_text(db, night, transfers=transfers, handles=handles),
    }


def points_state(db: Session, night: GameSession) -> dict[str, Any]:
    """The settle page of a night kept in points: the standings, highest score first (ties in seat
    order, sharing a place), and no plan, payment or hand-off."""
    balances = ledger_night.balances(db, night)
    return {"points": True, "balances": list(balances.items()), "standings": standings(balances),
            "hand_count": ledger_night.hand_count(db, night), "everyone": seat_order(night),
            "carried_into": None, "plan": None, "payments": [], "paid_any": False}


def standings(scores: dict[str, int]) -> list[tuple[int, str, int]]:
    """``(place, name, score)`` highest first; equal scores share the place of the first of
    them (1, 2, 2, 4), in seat order (``scores`` is in seat order)."""
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    out: list[tuple[int, str, int]] = []
    for index, (name, score) in enumerate(ranked):
        place = out[-1][0] if out and out[-1][2] == score else index + 1
        out.append((place, name, score))
    return out


@bp.get("/s/<session_id>/settle.txt")
def settle_text(session_id: str) -> Any:
    """The settle-up as plain text in the page's language (``?lang=``), as ``GET
    /api/v1/sessions/{id}/settlement.txt``: the page's link for a phone without JavaScript."""
    night, _actor = authorised(session_id)
    if is_points(night.currency):  # nothing to settle: the page links no text
        abort(404)
    response = Response(settle_up_text(get_session(), night), mimetype="text/plain")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/s/<session_id>/settle/<int(min=1, max=2147483647):line>/qr.svg")
def settle_qr(session_id: str, line: int) -> Any:
    """Line ``line``'s hand-off as a QR code (``?kind=``, as ``GET /api/v1/sessions/{id}/settlement/{line}/qr.svg``)."""
    night, _actor = authorised(session_id)
    db = get_session()
    transfers = [t.to_json() for t in ledger_night.settlement_plan(db, night).transfers]
    if line > len(transfers):
        abort(404)
    offers = transfer_hand_offs(db, night, [transfers[line - 1]])[0]
    kind = request.args.get("kind")
    chosen = [o for o in offers if o.kind == kind] if kind else ([o for o in offers if o.qr_payload] or offers)
    if not chosen:
        abort(404)
    from ledger.api.handles import qr_svg

    response = Response(qr_svg(chosen[0].qr_payload or chosen[0].url or ""), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/s/<session_id>/settle")
def settle(session_id: str) -> Any:
    night, actor = authorised(session_id)
    return _render(night, actor)


def _render(night: GameSession, actor: Actor, pay_form: dict[str, str] | None = None, status: int = 200) -> Any:
    return render_template("settle.html", night=night, actor=actor, pay_form=pay_form,
                           **live.page_context("settle", get_session(), night, actor)), status


# a fresh submission key for each payment form (night or club), as each hand entry has one: the
# ledger stores the payment under it once (ledger.night.idempotency)
bp.add_app_template_global(new_key, "submission_key")


@bp.post("/s/<session_id>/payments")
def pay(session_id: str) -> Any:
    """Mark money as handed over: a line of the plan (``kind=plan``, at most what that line
    still owes, so two phones cannot both mark it), or any other payment (``kind=other``).
    A payment beyond what is owed is asked about first (``confirm=yes`` records it anyway).
    Each form carries a submission ``key`` (``submission_key()`` in the templates): the same form sent twice
    (a double tap) records one payment, and the second answer is the first's."""
    night, actor = authorised(session_id, "pay")
    db = get_session()
    typed = {k: request.form.get(k, "")[:40] for k in ("from", "to", "amount", "kind")}
    typed["key"] = request.form.get("key", "")  # kept whole: a form shown again sends the same key
    payer, payee = _seated(night, typed["from"]), _seated(night, typed["to"])
    amount = 0
    error = None
    if payer is None or payee is None:
        error = _("That payment is not complete: choose who paid and who was paid.")
    elif payer == payee:
        error = _("A player cannot pay themselves.")
    else:
        try:
            amount = parse_amount(typed["amount"], night.currency)
        except ValueError as exc:
            error = amount_message(exc) if typed["amount"].strip() else _("Type the amount paid, e.g. 0.25.")
        else:
            if amount <= 0:
                error = _("The amount must be more than zero.")
    key = typed["key"] or None
    replay = key is not None and ledger_night.payment_by_key(db, night, key) is not None
    if error is None and typed["kind"] == "plan" and not replay:  # a replay is answered as it was
        owed = next((t.amount_minor for t in ledger_night.settlement_plan(db, night).transfers
                     if t.payer == payer and t.payee == payee), 0)
        if owed == 0:
            error = _("{payer} no longer owes {payee} anything: the plan has changed (another phone?).",
                      payer=payer, payee=payee)
        elif amount > owed:
            error = _("That is more than the {amount} {payer} still owes {payee}. "
                      "Use “Another payment” for anything else.", amount=money(owed, night.currency),
                      payer=payer, payee=payee)
    if error is not None or payer is None or payee is None:
        return _render(night, actor, typed | {"error": error or ""}, 422)
    confirm = typed["kind"] == "other" and request.form.get("confirm") == "yes"
    try:
        ledger_night.record_payment(db, night, payer, payee, amount, actor, confirm=confirm, idempotency_key=key)
    except NightError as err:
        if err.code == "overpayment" and typed["kind"] == "plan":  # the plan moved under this phone
            error = _("{payer} no longer owes {payee} that much: the plan has changed (another phone?).",
                      payer=payer, payee=payee)
            return _render(night, actor, typed | {"error": error}, err.status)
        if err.code == "overpayment":
            question = _overpayment_question(night, payer, payee, amount, err)
            return _render(night, actor, typed | {"error": question, "confirm": "yes"}, err.status)
        return _render(night, actor, typed | {"error": err.message}, err.status)
    flash(_("{payer} paid {payee} {amount}.", payer=payer, payee=payee, amount=money(amount, night.currency)),
          "success")
    return redirect(url_for("web.settle", session_id=night.id))


@bp.post("/s/<session_id>/payments/<int:payment_id>/void")
def void_payment(session_id: str, payment_id: int) -> Any:
    night, actor = authorised(session_id, "void_payment")
    if payment_id > MAX_ID:
        abort(404)
    try:
        payment = ledger_night.void_payment(get_session(), night, payment_id, actor)
    except NightError as err:
        if err.code != "night_carried":
            abort(404)
        flash(err.message, "error")
        return redirect(url_for("web.settle", session_id=night.id))
    flash(_("Payment voided: {payer} paid {payee} {amount} no longer counts.", payer=payment.payer,
            payee=payment.payee, amount=money(payment.amount_minor, night.currency)), "success")
    return redirect(url_for("web.settle", session_id=night.id))


@bp.post("/s/<session_id>/close")
def close(session_id: str) -> Any:
    """Close the night. Without ``confirmed=yes`` this shows the confirm page first."""
    night, actor = authorised(session_id, "close")
    carry_over = request.form.get("carry_over") == "yes"  # a club night (issue 9): carry what is owed
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html",
            night=night,
            title=_("Close the night?"),
            row=None,
            message=_("No more hands can be recorded or voided after closing. The balances and the "
                      "settle-up plan stay available."),
            action=url_for("web.close", session_id=night.id),
            button=_("Close the night"),
            back=url_for("web.settle", session_id=night.id),
            hidden=[("carry_over", "yes" if carry_over else "no")],
        )
    from ledger.web.club_pages import close_night as close_club_aware

    try:
        flash(close_club_aware(night, actor, carry_over), "success")
        pot = pot_sentence(get_session(), night)  # Tong-its: what the close did with the pot (TONGITS.md §4.9)
        if pot is not None:
            flash(pot, "success")
    except (HandError, NightError) as err:  # closed the other way meanwhile; two seats as one member
        flash(err.message, "error")
    return redirect(url_for("web.settle", session_id=night.id))


def _overpayment_question(night: GameSession, payer: str, payee: str, amount: int, err: NightError) -> str:
    """``"Rosa owes only $2.00. Record $5.00 anyway?"``: the question before an overpayment."""
    owes, owed = int(err.extra.get("owes", 0)), int(err.extra.get("owed", 0))
    paid = money(amount, night.currency)
    if owes == 0:
        return _("{payer} owes nothing. Record {paid} anyway?", payer=payer, paid=paid)
    if owed == 0:
        return _("{payee} is owed nothing. Record {paid} anyway?", payee=payee, paid=paid)
    if amount > owes:
        return _("{payer} owes only {owes}. Record {paid} anyway?", payer=payer, owes=money(owes, night.currency),
                 paid=paid)
    return _("{payee} is owed only {owed}. Record {paid} anyway?", payee=payee, owed=money(owed, night.currency),
             paid=paid)


def _seated(night: GameSession, name: str | None) -> str | None:
    cleaned = normalise_name(name) if isinstance(name, str) else None
    return cleaned if cleaned in seat_order(night) else None  # anyone who sat, a leaver too
