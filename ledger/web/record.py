"""The record-a-hand flow, ``/s/<id>/record``: outcome → who → hands → side pot → preview → save.

One URL; every POST carries the whole form state (see :mod:`ledger.web.entry_form`) plus the
``step`` it came from and the button pressed (``go`` = next / back / edit / save). Payouts
always come from the engine: ``preview_hand`` for "Check payouts", ``record_hand`` for "Save".
``?kind=…&whole=1`` opens the ``whole`` step: every step of that outcome on one page, which
goes straight to the payouts (the copy a phone keeps to enter a hand offline, static/sw.js).

The flow reads top to bottom, one module a concern: :mod:`ledger.web.entry_form` asks what the
game needs (the steps, the form's state, the engine's refusals placed beside their inputs),
:mod:`ledger.web.record_render` renders a step, :mod:`ledger.web.record_save` saves; this module
only drives the steps. The same steps serve the host's correction of a stored hand
(:mod:`ledger.web.amend`, which imports this module, never the other way round): a
:class:`~ledger.web.record_render.Flow` says where the form posts, what "Save" does and where
"Cancel" goes. A Tong-its night's hand is asked by :mod:`ledger.web.tongits_form` and shown and
saved by :mod:`ledger.web.tongits_record` instead.
"""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from sqlmodel import col, select

from ledger.night import lifecycle as ledger_night
from ledger.night.recording import number_taken
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.storage.models import GameSession, Hand
from ledger.games.tonk import HandError, HandResult
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.entry_form import WHOLE_STEP, HandForm
from ledger.web.record_render import Flow, render_step
from ledger.web.record_save import at_table_now, number_conflict, save, table_changed
from ledger.web import rummy_pages, rummy_record, tongits_record
from ledger.web.table_seen import seen_table


SIDE_POT_BATCH = 20  # hands read at a time looking back for the last side pot


@bp.route("/s/<session_id>/record", methods=["GET", "POST"])
def record(session_id: str) -> Any:
    night, actor = authorised(session_id, "record")
    db = get_session()
    if night.status != "open":
        flash(_("This night is closed; no more hands can be recorded."), "error")
        return redirect(url_for("web.table", session_id=night.id))
    if rummy_pages.is_rummy(night):
        return rummy_record.record(night, actor)  # one page: outcome, winner, wild rank, each player's result
    if (night.game or "tonk") == "tongits":
        return tongits_record.record(night, actor)  # the Tong-its hand: its own questions (TONGITS.md §8.1)
    rules = ledger_night.rules_of(night)
    flow = Flow(
        action=url_for("web.record", session_id=night.id),
        cancel=url_for("web.table", session_id=night.id),
        save=lambda n, f: save(n, f, actor),
    )
    if request.method == "GET" and "key" not in request.args:
        # a new hand: from "Record hand", or straight from an outcome button on the table (?kind=knock)
        side_stake, side_players = _remembered_side_pot(night) if rules.spade_side_pot else (None, None)
        form = HandForm.blank(
            night.players, rules, ledger_night.next_dealer(db, night), ledger_night.next_number(db, night),
            currency=night.currency, side_stake=side_stake, side_players=side_players,
        )
        form.seen_stake = night.stake_minor
        kind = request.args.get("kind")
        if kind in form.available_outcomes():
            form.kind = kind
            # ?whole=1: every step on one page, the copy a phone keeps to enter a hand offline
            return render_step(night, form, WHOLE_STEP if request.args.get("whole") == "1" else form.steps()[1], flow)
        return render_step(night, form, "outcome", flow)
    seated, seen_stake = seen_table(step_values(), night)
    form = HandForm.from_form(step_values(), seated, rules, currency=night.currency)
    form.seen_stake = seen_stake
    if form.dealer is None:
        dealer = ledger_night.next_dealer(db, night)
        form.dealer = seated.index(dealer) if dealer in seated else None
    taken = (number_taken(db, night, form.number, ledger_night.next_number(db, night))
             if request.method == "GET" and form.number is not None and step_values().get("step") == "preview"
             and form.number < ledger_night.next_number(db, night) else None)
    if taken is not None:
        # a hand kept on this phone whose number another phone recorded meanwhile: what that
        # phone recorded beside this one's payouts as the next hand, on one screen
        return number_conflict(night, form, taken, flow)
    changed = ledger_night.table_changed(night, seated, seen_stake, night.players, night.stake_minor)
    if changed is not None and step_values().get("go") != "save":
        # a step of a form filled against another seating or stake (a hand kept on the phone,
        # or the host changed the table meanwhile): shown at the table now with what changed,
        # before the player goes on; saving re-checks it under the write lock
        return table_changed(night, at_table_now(night, form), changed.message, flow)
    return run_step(night, form, flow)


def step_values() -> Any:
    """What a step sent: the query of a GET step (every step but "Save" is a GET, so the
    browser's Back never asks to send a form again), the form of a POST."""
    return request.form if request.method == "POST" else request.args


def run_step(night: GameSession, form: HandForm, flow: Flow) -> Any:
    """Answer one step of the flow: go back, edit, save (POST only), or check this step and go on."""
    if form.kind is None:
        form.errors["kind"] = _("Choose how the hand ended.")
        return render_step(night, form, "outcome", flow, status=422)
    steps = form.steps()
    values = step_values()
    step = values.get("step", "outcome")
    whole = step == WHOLE_STEP  # every step on one page: it goes on to the payouts
    here = len(steps) - 2 if whole else steps.index(step) if step in steps else 0
    go = values.get("go", "next")
    if go == "back":
        return render_step(night, form, steps[max(here - 1, 0)], flow)
    if go == "edit":
        return render_step(night, form, steps[-2], flow)
    if go == "save" and flow.save is not None and request.method == "POST":
        return flow.save(night, form)

    target = steps[min(here + 1, len(steps) - 1)]
    submission = form.submission()
    result: HandResult | None = None
    if submission is not None:
        try:
            result = ledger_night.preview_hand(night, submission)
        except HandError as err:
            form.place_error(err)
    if form.errors:
        shown = form.step_with_errors(steps[here])
        if target == "preview" or steps.index(shown) <= here:
            return render_step(night, form, WHOLE_STEP if whole and shown != "outcome" else shown, flow, status=422)
        # The problem is on a step the player has not reached yet: go there, no complaint.
        form.errors, form.bad_cards = {}, {}
    if target == "preview" and result is not None:
        assert submission is not None
        return render_step(night, form, "preview", flow, result=result, outcome=submission.outcome)
    return render_step(night, form, target if target != "preview" else steps[-2], flow)


def _remembered_side_pot(night: GameSession) -> tuple[int | None, list[str] | None]:
    """The side stake and players of the last counted hand that had a spade side pot (read
    back from the newest hand, a few at a time, only as far as that hand)."""
    db, below = get_session(), night.last_hand_number + 1
    while below > 1:
        batch = db.exec(select(Hand).where(Hand.session_id == night.id, Hand.status == "counted",
                                           Hand.number < below)
                        .order_by(col(Hand.number).desc()).limit(SIDE_POT_BATCH)).all()
        for hand in batch:
            spade = (hand.entry.get("side_bets") or {}).get("spade")
            if isinstance(spade, dict):
                stake = spade.get("side_stake")
                players = list((spade.get("highest_spade") or {}).keys())
                return (stake if type(stake) is int else None), players
        if len(batch) < SIDE_POT_BATCH:
            break
        below = batch[-1].number
    return None, None


