"""Phone pages of one night: start, join (link or code), table, history (with void), settle up
(with payments and close), PDF.

Every page of a night needs the table's token in the signed cookie, and acts with that
token's role (:mod:`ledger.web.access`). Money is shown with :func:`ledger.money.format_minor`;
nothing here computes a payout. The record-a-hand flow lives in :mod:`ledger.web.record`.
"""
from __future__ import annotations

from typing import Any

from flask import Response, abort, current_app, flash, redirect, render_template, request, url_for

from ledger import night as ledger_night
from ledger.db import get_session
from ledger.models import GameSession, Hand
from ledger.night import NightError
from ledger.rules import PRESETS
from ledger.rules.describe import describe_hand
from ledger.statements import render_session_summary
from ledger.limits import JOIN_LIMIT, limiter
from ledger.money import parse_amount
from ledger.web.access import authorised, host_secrets, join_with_code, my_nights, remember_token
from ledger.web.blueprint import bp
from ledger.web.formatting import money
from ledger.web.start_form import SEATS, StartForm, currency_choices, preset_choices

RECENT_HANDS = 5
MAX_ID = 2**31 - 1  # larger numbers in a URL name nothing (and overflow the database's integers)


# -- start and join --------------------------------------------------------------------------------
@bp.route("/", methods=["GET", "POST"])
def index() -> Any:
    form = StartForm()
    if request.method == "POST":
        form = StartForm.from_form(request.form)
        created = form.create()
        if created is not None:
            night, token = created
            remember_token(night.id, token)
            flash("Night started. Share the table link below with the other phones.", "success")
            return redirect(url_for("web.table", session_id=night.id, share=1))
    return render_template(
        "index.html",
        form=form,
        seats=range(SEATS),
        currencies=currency_choices(current_app.config.get("LOCALE", "en_US")),
        presets=preset_choices(),
        nights=my_nights(),
    ), (422 if form.errors else 200)


@bp.route("/join", methods=["GET", "POST"])
@limiter.limit(JOIN_LIMIT, methods=["POST"])
def join_code() -> Any:
    """Join a table by typing its short code (read aloud by the host): this phone gets a
    player token of its own."""
    code = ""
    error = None
    if request.method == "POST":
        code = request.form.get("code", "")[:40]
        night = join_with_code(code) if code.strip() else None
        if night is not None:
            flash(f"You joined {night.name}.", "success")
            return redirect(url_for("web.table", session_id=night.id))
        error = "No open table has that code. Check it with the host." if code.strip() else "Type the table code."
    return render_template("join.html", code=code, error=error), (422 if error else 200)


@bp.get("/join/<session_id>/<token>")
def join(session_id: str, token: str) -> Any:
    """The table link: remembers the secret in the signed cookie, then opens the table."""
    night = ledger_night.find_night(get_session(), session_id)
    if night is None:
        abort(404)
    if not ledger_night.token_matches(night, token):
        abort(403)
    remember_token(session_id, token)
    return redirect(url_for("web.table", session_id=session_id))


# -- the table -----------------------------------------------------------------------------------
@bp.get("/s/<session_id>")
def table(session_id: str) -> Any:
    night, actor = authorised(session_id)
    db = get_session()
    hands = ledger_night.hands_of(db, night)
    recent = [_hand_row(night, h) for h in reversed(hands[-RECENT_HANDS:])]
    secrets = host_secrets(night, actor)
    links = {
        role: url_for("web.join", session_id=night.id, token=secrets.for_role(role), _external=True)
        for role in ("player", "viewer")
    } if secrets else {}
    return render_template(
        "table.html",
        night=night,
        actor=actor,
        preset=_preset_title(night),
        balances=list(ledger_night.balances(db, night).items()),
        next_dealer=ledger_night.next_dealer(db, night),
        hand_count=ledger_night.hand_count(db, night),
        recent=recent,
        total_hands=len(hands),
        links=links,
        table_code=secrets.table_code if secrets else None,
        share_open=request.args.get("share") == "1",
    )


@bp.get("/s/<session_id>/hands")
def history(session_id: str) -> Any:
    night, actor = authorised(session_id)
    hands = ledger_night.hands_of(get_session(), night)
    return render_template(
        "hands.html",
        night=night,
        can_void=actor.can("void") and night.status == "open",
        rows=[_hand_row(night, h) for h in reversed(hands)],
    )


@bp.post("/s/<session_id>/hands/<int:number>/void")
def void(session_id: str, number: int) -> Any:
    """Void a hand. Without ``confirmed=yes`` this shows the confirm page first (no JS needed)."""
    night, actor = authorised(session_id, "void")
    db = get_session()
    if number > MAX_ID:
        abort(404)
    try:
        hand = ledger_night.get_hand(db, night, number)
    except NightError:
        abort(404)
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html",
            night=night,
            title=f"Void hand {number}?",
            row=_hand_row(night, hand),
            message="The hand stays in the history, struck through, and stops counting in the balances.",
            action=url_for("web.void", session_id=night.id, number=number),
            button=f"Void hand {number}",
            back=url_for("web.history", session_id=night.id),
        )
    try:
        ledger_night.void_hand(db, night, number, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(f"Hand {number} voided; it no longer counts.", "success")
    return redirect(url_for("web.history", session_id=night.id))


# -- settling up --------------------------------------------------------------------------------------
@bp.get("/s/<session_id>/settle")
def settle(session_id: str) -> Any:
    night, actor = authorised(session_id)
    db = get_session()
    return render_template(
        "settle.html",
        night=night,
        actor=actor,
        balances=list(ledger_night.balances(db, night).items()),
        plan=ledger_night.settlement_plan(db, night),
        payments=[p for p in ledger_night.payments_of(db, night)],
        hand_count=ledger_night.hand_count(db, night),
    )


@bp.post("/s/<session_id>/payments")
def pay(session_id: str) -> Any:
    """Mark money as handed over (one line of the plan, or part of it): the plan shrinks."""
    night, actor = authorised(session_id, "pay")
    payer, payee = _seated(night, request.form.get("from")), _seated(night, request.form.get("to"))
    try:
        amount = parse_amount(request.form.get("amount", ""), night.currency)
    except ValueError:
        amount = 0
    if payer is None or payee is None or amount <= 0:
        flash("That payment is not complete: choose who paid whom and how much.", "error")
        return redirect(url_for("web.settle", session_id=night.id))
    try:
        ledger_night.record_payment(get_session(), night, payer, payee, amount, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(f"{payer} paid {payee} {money(amount, night.currency)}.", "success")
    return redirect(url_for("web.settle", session_id=night.id))


@bp.post("/s/<session_id>/payments/<int:payment_id>/void")
def void_payment(session_id: str, payment_id: int) -> Any:
    night, actor = authorised(session_id, "void_payment")
    if payment_id > MAX_ID:
        abort(404)
    try:
        ledger_night.void_payment(get_session(), night, payment_id, actor)
    except NightError:
        abort(404)
    flash("Payment voided; it no longer counts.", "success")
    return redirect(url_for("web.settle", session_id=night.id))


@bp.post("/s/<session_id>/close")
def close(session_id: str) -> Any:
    """Close the night. Without ``confirmed=yes`` this shows the confirm page first."""
    night, actor = authorised(session_id, "close")
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html",
            night=night,
            title="Close the night?",
            row=None,
            message="No more hands can be recorded or voided after closing. The balances and the "
                    "settle-up plan stay available.",
            action=url_for("web.close", session_id=night.id),
            button="Close the night",
            back=url_for("web.settle", session_id=night.id),
        )
    ledger_night.close_night(get_session(), night, actor)
    flash("The night is closed. Settle up with the plan below.", "success")
    return redirect(url_for("web.settle", session_id=night.id))


@bp.get("/s/<session_id>/summary.pdf")
def summary_pdf(session_id: str) -> Response:
    night, _actor = authorised(session_id)
    pdf = render_session_summary(
        ledger_night.build_report(get_session(), night),
        locale=current_app.config.get("LOCALE", "en_US"),
    )
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="tonk-{night.id}.pdf"'
    return response


# -- helpers ------------------------------------------------------------------------------------------
def _seated(night: GameSession, name: str | None) -> str | None:
    return name if name in night.players else None


def _preset_title(night: GameSession) -> str:
    name = ledger_night.rules_of(night).preset
    preset = PRESETS.get(name)
    return preset.title if preset else name


def _hand_row(night: GameSession, hand: Hand) -> dict[str, Any]:
    net = hand.result.get("net", {})
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "description": describe_hand(hand.entry.get("outcome", {}), hand.result),
        "amounts": [(p, int(net.get(p, 0))) for p in night.players],
        "voided": hand.status == "voided",
        "redeal": hand.redeal,
    }
