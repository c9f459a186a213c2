"""Club payments from the phone (issue 9): money handed over against the carried balances
(owner or member), asked about first when it is more than is owed (``confirm=yes`` records it
anyway, as on a night's settle page), and voided by the owner. The club page's plan is worked
out again from the balances after each, so it shrinks as payments come in.

Amounts are parsed exactly (:func:`ledger.money.parse_amount`); a refusal re-renders the club
page with what was typed and the sentence beside the form (422).
"""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, request, url_for

from ledger.clubs import books, carry
from ledger.storage.club_models import Club
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.money import parse_amount
from ledger.night.lifecycle import NightError
from ledger.web.blueprint import bp
from ledger.web.club_pages import club_authorised, club_view
from ledger.web.formatting import money
from ledger.web.start_form import amount_message


def overpayment_question(club: Club, payer: str, payee: str, amount_minor: int, err: NightError) -> str:
    """The question asked before recording more than is owed, e.g. "Rosa owes the club only
    $2.00. Record $5.00 anyway?"."""
    owes, owed = int(err.extra.get("owes", 0)), int(err.extra.get("owed", 0))
    paid = money(amount_minor, club.currency)
    if owes == 0:
        return _("{payer} owes the club nothing. Record {paid} anyway?", payer=payer, paid=paid)
    if owed == 0:
        return _("{payee} is owed nothing by the club. Record {paid} anyway?", payee=payee, paid=paid)
    if amount_minor > owes:
        return _("{payer} owes the club only {owes}. Record {paid} anyway?", payer=payer,
                 owes=money(owes, club.currency), paid=paid)
    return _("{payee} is owed only {owed}. Record {paid} anyway?", payee=payee, owed=money(owed, club.currency),
             paid=paid)


@bp.post("/c/<club_id>/payments")
def club_pay(club_id: str) -> Any:
    """Record ``from`` paid ``to`` ``amount`` (typed money) against the club balances."""
    club, actor = club_authorised(club_id, "pay")
    typed = {key: request.form.get(key, "")[:80] for key in ("from", "to", "amount")}
    typed["key"] = request.form.get("key", "")  # the form's submission key, kept whole (a double tap pays once)
    names = {m["name"] for m in carry.club_json(get_session(), club)["members"]}
    error = None
    amount = 0
    if typed["from"] not in names or typed["to"] not in names:
        error = _("That payment is not complete: choose who paid and who was paid.")
    elif typed["from"] == typed["to"]:
        error = _("A member cannot pay themselves.")
    else:
        try:
            amount = parse_amount(typed["amount"], club.currency)
        except ValueError as exc:
            error = amount_message(exc) if typed["amount"].strip() else _("Type the amount paid, such as 5.00.")
        else:
            if amount <= 0:
                error = _("The amount must be more than zero.")
    if error is None:
        try:
            books.record_payment(get_session(), club, typed["from"], typed["to"], amount, actor,
                                 confirm=request.form.get("confirm") == "yes",
                                 idempotency_key=typed["key"] or None)
        except NightError as err:
            if err.code == "overpayment":
                question = overpayment_question(club, typed["from"], typed["to"], amount, err)
                return club_view(club, actor, extra={"pay_form": typed | {"error": question, "confirm": "yes"}}), 422
            error = err.message
    if error is not None:
        return club_view(club, actor, extra={"pay_form": typed | {"error": error}}), 422
    flash(_("{payer} paid {payee} {amount}.", payer=typed["from"], payee=typed["to"], amount=money(amount, club.currency)),
          "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-plan")


@bp.post("/c/<club_id>/payments/<int(min=1, max=2147483647):payment_id>/void")
def club_void_payment(club_id: str, payment_id: int) -> Any:
    """Owner: the payment is kept and stops counting; the balances and plan go back."""
    club, actor = club_authorised(club_id, "void_payment")
    db = get_session()
    try:
        payment = books.void_payment(db, club, payment_id, actor)
    except NightError:
        abort(404)
    shown = books.payment_json(db, payment)
    flash(_("Payment voided: {payer} paid {payee} {amount} no longer counts.", payer=shown["from"], payee=shown["to"],
            amount=money(payment.amount_minor, club.currency)), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-payments")
