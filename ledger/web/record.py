"""The record-a-hand flow, ``/s/<id>/record``: outcome → who → hands → preview → save.

One URL; every POST carries the whole form state (see :mod:`ledger.web.entry_form`) plus the
``step`` it came from and the button pressed (``go`` = next / back / edit / save). Payouts
always come from the engine: ``preview_hand`` for "Check payouts", ``record_hand`` for "Save".
"""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for

from ledger import night as ledger_night
from ledger.access import Actor
from ledger.db import get_session
from ledger.models import GameSession
from ledger.night import NightError
from ledger.rules import HandError, HandResult
from ledger.rules.describe import describe_hand, join_names
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.card_grid import card_grid
from ledger.web.entry_form import OUTCOME_HINTS, OUTCOMES, HandForm, outcome_title
from ledger.web.formatting import money


@bp.route("/s/<session_id>/record", methods=["GET", "POST"])
def record(session_id: str) -> Any:
    night, actor = authorised(session_id, "record")
    db = get_session()
    if night.status != "open":
        flash("This night is closed; no more hands can be recorded.", "error")
        return redirect(url_for("web.table", session_id=night.id))
    rules = ledger_night.rules_of(night)
    if request.method == "GET":
        form = HandForm.blank(
            night.players, rules, ledger_night.next_dealer(db, night), ledger_night.next_number(db, night)
        )
        return _render(night, form, "outcome")

    form = HandForm.from_form(request.form, night.players, rules)
    if form.dealer is None:
        form.dealer = night.players.index(ledger_night.next_dealer(db, night))
    if form.kind is None:
        form.errors["kind"] = "Choose how the hand ended."
        return _render(night, form, "outcome", status=422)
    steps = form.steps()
    step = request.form.get("step", "outcome")
    here = steps.index(step) if step in steps else 0
    go = request.form.get("go", "next")
    if go == "back":
        return _render(night, form, steps[max(here - 1, 0)])
    if go == "edit":
        return _render(night, form, steps[-2])
    if go == "save":
        return _save(night, form, actor)

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
            return _render(night, form, shown, status=422)
        # The problem is on a step the player has not reached yet: go there, no complaint.
        form.errors, form.bad_cards = {}, {}
    if target == "preview" and result is not None:
        assert submission is not None
        return _render(night, form, "preview", result=result, outcome=submission.outcome)
    return _render(night, form, target if target != "preview" else steps[-2])


def _save(night: GameSession, form: HandForm, actor: Actor) -> Any:
    submission = form.submission()
    if submission is None:
        return _render(night, form, form.step_with_errors("preview"), status=422)
    db = get_session()
    try:
        hand, created = ledger_night.record_hand(db, night, submission, actor)
    except HandError as err:
        form.place_error(err)
        return _render(night, form, form.step_with_errors("preview"), status=422)
    except NightError as err:
        if err.code in ("hand_number_taken", "hand_number_gap"):
            return _number_conflict(night, form, err)
        flash(err.message, "error")
        return redirect(url_for("web.table", session_id=night.id))
    if created:
        flash(f"Hand {hand.number} recorded: {_headline(night, hand.result)}", "success")
    else:
        flash(f"Hand {hand.number} was already recorded (saved once, not twice).", "info")
    return redirect(url_for("web.table", session_id=night.id))


def _number_conflict(night: GameSession, form: HandForm, err: NightError) -> Any:
    """Another phone recorded this hand number first: show what it recorded next to this
    entry's payouts, and offer to save this one as the next number if it is another hand."""
    existing = err.extra.get("existing")
    form.number = int(err.extra.get("next_number") or ledger_night.next_number(get_session(), night))
    submission = form.submission()
    assert submission is not None
    result = ledger_night.preview_hand(night, submission)
    conflict = {"message": err.message, "existing": None, "number": form.number}
    if isinstance(existing, dict):
        conflict["existing"] = {
            "number": existing.get("number"),
            "description": existing.get("description", ""),
            "dealer": existing.get("dealer", ""),
            "amounts": [(p, int(existing.get("net", {}).get(p, 0))) for p in night.players],
        }
    return _render(night, form, "preview", result=result, outcome=submission.outcome,
                   conflict=conflict, status=409)


def _headline(night: GameSession, result: dict[str, Any]) -> str:
    """``"Dee won $0.75"`` (or the engine's description of a redeal)."""
    net = result.get("net", {})
    gains = [(w, int(net.get(w, 0))) for w in result.get("winners", []) if int(net.get(w, 0)) > 0]
    if not gains:
        return "redeal, nobody pays" if result.get("redeal") else "nobody pays"
    if len({amount for _, amount in gains}) == 1:
        names = join_names([w for w, _ in gains])
        each = " each" if len(gains) > 1 else ""
        return f"{names} won {money(gains[0][1], night.currency)}{each}"
    return ", ".join(f"{w} won {money(a, night.currency)}" for w, a in gains)


def _render(
    night: GameSession,
    form: HandForm,
    step: str,
    *,
    result: HandResult | None = None,
    outcome: dict[str, Any] | None = None,
    conflict: dict[str, Any] | None = None,
    status: int = 200,
) -> Any:
    context: dict[str, Any] = {
        "night": night,
        "form": form,
        "step": step,
        "players": list(enumerate(night.players)),
        "outcomes": [(k, outcome_title(k), OUTCOME_HINTS[k]) for k in OUTCOMES],
        "hidden": form.hidden_fields(step),
        "visible": form.visible_groups(step),
        "step_number": form.steps().index(step) + 1 if step in form.steps() else 1,
        "step_total": len(form.steps()) if form.kind else 4,
        "conflict": conflict,
    }
    if step == "hands":
        context["grid"] = card_grid(form.rules)
        context["taken"] = _taken_elsewhere(form)
    if step == "preview" and result is not None:
        context["preview"] = _preview(night, form, result, outcome or {})
    return render_template("record.html", **context), status


def _taken_elsewhere(form: HandForm) -> dict[int, dict[str, str]]:
    """For each needed seat, the tapped cards another player already holds (card → name)."""
    out: dict[int, dict[str, str]] = {}
    seats = form.needed_seats()
    for seat in seats:
        out[seat] = {
            card: form.players[other]
            for other in seats if other != seat
            for card in form.picked.get(other, [])
        }
    return out


def _preview(
    night: GameSession, form: HandForm, result: HandResult, outcome: dict[str, Any]
) -> dict[str, Any]:
    as_stored = result.to_json() | {"detail": result.detail}
    submission_hands = []
    for seat in form.needed_seats():
        name = night.players[seat]
        submission_hands.append({
            "name": name,
            "cards": form.cards_of(seat),
            "total": form.totals.get(seat, "").strip() if form.totals_allowed() else "",
            "count": result.counts.get(name),
        })
    return {
        "description": describe_hand(outcome, as_stored),
        "transfers": [(t.payer, t.payee, t.amount_minor) for t in result.transfers],
        "net": [(p, result.net.get(p, 0)) for p in night.players],
        "redeal": result.redeal,
        "hands": submission_hands,
        "dealer": night.players[form.dealer] if form.dealer is not None else "",
    }

