"""The record-a-hand flow, ``/s/<id>/record``: outcome → who → hands → side pot → preview → save.

One URL; every POST carries the whole form state (see :mod:`ledger.web.entry_form`) plus the
``step`` it came from and the button pressed (``go`` = next / back / edit / save). Payouts
always come from the engine: ``preview_hand`` for "Check payouts", ``record_hand`` for "Save".
``?kind=…&whole=1`` opens the ``whole`` step: every step of that outcome on one page, which
goes straight to the payouts (the copy a phone keeps to enter a hand offline, static/sw.js).

The same steps serve the host's correction of a stored hand (:mod:`ledger.web.amend`): a
:class:`Flow` says where the form posts, what "Save" does and where "Cancel" goes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from flask import flash, jsonify, redirect, render_template, request, url_for
from sqlmodel import col, select

from ledger.night import lifecycle as ledger_night
from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.i18n import N_, _
from ledger.storage.models import GameSession, Hand
from ledger.money import parse_amount
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError, HandResult
from ledger.games.tonk.describe import describe_hand
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.card_grid import card_grid, spade_choices
from ledger.web.entry_form import FINAL, WHOLE_STEP, HandForm, new_key, outcome_hint, outcome_title
from ledger.web.formatting import join_names, money


SIDE_POT_BATCH = 20  # hands read at a time looking back for the last side pot
SAVE_HAND = N_("Save hand")

# What a saved hand paid, one whole sentence per case: recorded (``number``) or corrected
# (``number``, ``version``); ``name``/``names`` won ``amount`` (each), or ``gains`` when the
# winners won different amounts ("Dee won $1.00, Rosa won $0.50").
RECORDED = {
    "redeal": N_("Hand {number} recorded: redeal, nobody pays"),
    "nobody": N_("Hand {number} recorded: nobody pays"),
    "one": N_("Hand {number} recorded: {name} won {amount}"),
    "each": N_("Hand {number} recorded: {names} won {amount} each"),
    "several": N_("Hand {number} recorded: {gains}"),
}
CORRECTED = {
    "redeal": N_("Hand {number} corrected (version {version}): redeal, nobody pays"),
    "nobody": N_("Hand {number} corrected (version {version}): nobody pays"),
    "one": N_("Hand {number} corrected (version {version}): {name} won {amount}"),
    "each": N_("Hand {number} corrected (version {version}): {names} won {amount} each"),
    "several": N_("Hand {number} corrected (version {version}): {gains}"),
}


@dataclass(frozen=True)
class Flow:
    """Where the record form posts (``action``), what its save button says and does, where
    "Cancel" leads, and, for a correction, which hand version is being corrected."""

    action: str
    cancel: str
    save_label: str = field(default_factory=lambda: _(SAVE_HAND))  # in the language of the request making it
    save: Callable[[GameSession, HandForm], Any] | None = None
    amend: dict[str, Any] = field(default_factory=dict)
    stale: dict[str, Any] | None = None


@bp.route("/s/<session_id>/record", methods=["GET", "POST"])
def record(session_id: str) -> Any:
    night, actor = authorised(session_id, "record")
    db = get_session()
    if night.status != "open":
        flash(_("This night is closed; no more hands can be recorded."), "error")
        return redirect(url_for("web.table", session_id=night.id))
    rules = ledger_night.rules_of(night)
    flow = Flow(
        action=url_for("web.record", session_id=night.id),
        cancel=url_for("web.table", session_id=night.id),
        save=lambda n, f: _save(n, f, actor),
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
    changed = ledger_night.table_changed(night, seated, seen_stake, night.players, night.stake_minor)
    if changed is not None and step_values().get("go") != "save":
        # a step of a form filled against another seating or stake (a hand kept on the phone,
        # or the host changed the table meanwhile): shown at the table now with what changed,
        # before the player goes on; saving re-checks it under the write lock
        return _table_changed(night, at_table_now(night, form), changed.message, flow)
    return run_step(night, form, flow)


def seen_table(values: Any, night: GameSession) -> tuple[tuple[str, ...], int | None]:
    """The seating and the stake (minor units) the form was filled against, as its hidden
    ``seat`` and ``seen_stake`` fields say, so that its seat numbers are read as the people the
    phone showed (``seats``: a JSON list of the names in seat order); a form without them (kept
    from before they were sent) or with a list that is no seating is read against the night's
    seating, and its stake is not checked."""
    try:
        seats = json.loads(values.get("seats") or "null")
    except ValueError:
        seats = None
    stake = values.get("seen_stake") or ""
    if (not isinstance(seats, list) or not 0 < len(seats) <= 64 or len(set(map(str, seats))) != len(seats)
            or any(not isinstance(s, str) or not 0 < len(s) <= 80 for s in seats)):
        return tuple(night.players), None
    return tuple(seats), int(stake) if stake.isdecimal() and len(stake) <= 10 else None


def at_table_now(night: GameSession, form: HandForm) -> HandForm:
    """``form`` moved to the night's seating and stake now: each seat's choices and typed
    values follow the person to their seat now; a person no longer seated is dropped."""
    now = tuple(night.players)
    where = {i: now.index(p) for i, p in enumerate(form.players) if p in now}

    def one(seat: int | None) -> int | None:
        return where.get(seat) if seat is not None else None

    def many(seats: list[int]) -> list[int]:
        return sorted(where[s] for s in seats if s in where)

    def by_seat(values: dict[int, Any]) -> dict[int, Any]:
        return {where[s]: v for s, v in values.items() if s in where}

    return replace(
        form, players=now, seen_stake=night.stake_minor, dealer=one(form.dealer), who=one(form.who),
        responder=one(form.responder), claimants=many(form.claimants), totals=by_seat(form.totals),
        picked=by_seat(form.picked), typed=by_seat(form.typed), side_in=many(form.side_in),
        spades=by_seat(form.spades), errors={}, bad_cards={},
    )


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


def _save(night: GameSession, form: HandForm, actor: Actor) -> Any:
    submission = form.submission()
    flow = Flow(action=url_for("web.record", session_id=night.id), cancel=url_for("web.table", session_id=night.id))
    if submission is None:
        if wants_json():
            key = next(iter(form.errors), "form")
            return jsonify({"error": "invalid_entry", "message": form.errors.get(key, ""), "field": key}), 422
        return render_step(night, form, form.step_with_errors("preview"), flow, status=422)
    db = get_session()
    if wants_json():
        return _save_json(night, submission, actor)
    try:
        hand, created = ledger_night.record_hand(db, night, submission, actor)
    except HandError as err:
        form.place_error(err)
        return render_step(night, form, form.step_with_errors("preview"), flow, status=422)
    except NightError as err:
        if err.code in ("hand_number_taken", "hand_number_gap"):
            return _number_conflict(night, form, err, flow)
        if err.code == "table_changed":
            # entered against another seating or stake: shown again at the table as it is now,
            # with what changed, to be checked and saved again (nothing saved meanwhile)
            return _table_changed(night, at_table_now(night, form), err.message, flow)
        if err.code == "idempotency_key_reused":
            # a saved form came back (browser Back) and was changed: it is a new hand, not a repeat
            return _changed_after_save(night, form, flow)
        flash(err.message, "error")
        return redirect(url_for("web.table", session_id=night.id))
    if created:
        flash(saved_message(RECORDED, night, hand.result, number=hand.number), "success")
    else:
        flash(_("Hand {number} was already recorded (saved once, not twice).", number=hand.number), "info")
    return redirect(url_for("web.table", session_id=night.id))


def wants_json() -> bool:
    """A save sent by the offline queue (``Accept: application/json``), not by a page."""
    return request.accept_mimetypes.best == "application/json"


def _save_json(night: GameSession, submission: Any, actor: Actor) -> Any:
    """Save for the offline queue: 201 ``{number, created, message}`` (200 when this key was
    already recorded), or the error as the JSON API gives it (422 a refused entry, 409
    ``hand_number_taken`` / ``hand_number_gap`` / ``session_closed`` / ``idempotency_key_reused``)."""
    try:
        hand, created = ledger_night.record_hand(get_session(), night, submission, actor)
    except HandError as err:
        return jsonify({"error": err.code, "message": err.message, "field": err.field}), 422
    except NightError as err:
        return jsonify(err.to_json()), err.status
    message = (saved_message(RECORDED, night, hand.result, number=hand.number) if created
               else _("Hand {number} was already recorded (saved once, not twice).", number=hand.number))
    return jsonify({"number": hand.number, "created": created, "message": message}), 201 if created else 200


def _changed_after_save(night: GameSession, form: HandForm, flow: Flow) -> Any:
    """A saved form came back (browser Back) and was changed: it is a new hand, not a repeat.
    It gets a fresh key and the next number; if the rules refuse the change, their message is
    shown beside the input with everything typed kept (422), otherwise its payouts to confirm (409)."""
    form.key = new_key()
    form.number = ledger_night.next_number(get_session(), night)
    fresh = form.submission()
    assert fresh is not None
    new_hand = _("That form had already saved a hand; this one is different, so it will be "
                 "a new hand {number}. Check the payouts and save again.", number=form.number)
    try:
        result = ledger_night.preview_hand(night, fresh)
    except HandError as err:
        if form.place_error(err) != "form":
            form.errors["form"] = new_hand
        return render_step(night, form, form.step_with_errors("preview"), flow, status=422)
    form.errors["form"] = new_hand
    return render_step(night, form, "preview", flow, result=result, outcome=fresh.outcome, status=409)


def _table_changed(night: GameSession, form: HandForm, message: str, flow: Flow) -> Any:
    """The hand was entered against another seating or stake: 409 with the form at the table as
    it is now, its payouts to check (or the step that now lacks an answer, such as a winner who
    left, with the rules' refusal beside the input) and ``message``
    saying what changed; saving it again records it at the table now."""
    moved = form.submission()
    if moved is not None:
        try:
            result = ledger_night.preview_hand(night, moved)
        except HandError as err:
            form.place_error(err)
        else:
            form.errors["form"] = message
            return render_step(night, form, "preview", flow, result=result, outcome=moved.outcome, status=409)
    form.errors.setdefault("form", message)
    return render_step(night, form, form.step_with_errors("preview"), flow, status=409)


def _number_conflict(night: GameSession, form: HandForm, err: NightError, flow: Flow) -> Any:
    """Another phone recorded this hand number first: show what it recorded next to this
    entry's payouts, and offer to save this one as the next number if it is another hand."""
    existing = err.extra.get("existing")
    form.number = int(err.extra.get("next_number") or ledger_night.next_number(get_session(), night))
    submission = form.submission()
    assert submission is not None
    result = ledger_night.preview_hand(night, submission)
    conflict = {"message": err.message, "existing": None, "number": form.number}
    if isinstance(existing, dict):
        conflict["existing"] = stored_hand_view(night, existing)
    return render_step(night, form, "preview", flow, result=result, outcome=submission.outcome,
                       conflict=conflict, status=409)


def stored_hand_view(night: GameSession, hand: dict[str, Any]) -> dict[str, Any]:
    """A stored hand (``hand_json``) as the conflict panels show it."""
    return {
        "number": hand.get("number"),
        "version": hand.get("version"),
        "description": hand.get("description", ""),
        "dealer": hand.get("dealer", ""),
        "amounts": [(p, int(hand.get("net", {}).get(p, 0))) for p in night.players],
        "transfers": [(t.get("from"), t.get("to"), int(t.get("amount", 0))) for t in hand.get("transfers", [])],
    }


def saved_message(sentences: dict[str, str], night: GameSession, result: dict[str, Any], **params: Any) -> str:
    """What a saved hand paid, as the flash says it: ``"Hand 5 recorded: Dee won $0.75"``.
    ``sentences`` is :data:`RECORDED` or :data:`CORRECTED`; ``params`` their ``number``
    (and ``version``)."""
    net = result.get("net", {})
    gains = [(w, int(net.get(w, 0))) for w in result.get("winners", []) if int(net.get(w, 0)) > 0]
    if not gains:
        return _(sentences["redeal" if result.get("redeal") else "nobody"], **params)
    if len({amount for _name, amount in gains}) == 1:
        amount = money(gains[0][1], night.currency)
        if len(gains) == 1:
            return _(sentences["one"], name=gains[0][0], amount=amount, **params)
        return _(sentences["each"], names=join_names([w for w, _amount in gains]), amount=amount, **params)
    # winners who won different amounts: a list of whole clauses
    won = [_("{name} won {amount}", name=w, amount=money(a, night.currency)) for w, a in gains]
    return _(sentences["several"], gains=", ".join(won), **params)


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


def render_step(
    night: GameSession,
    form: HandForm,
    step: str,
    flow: Flow,
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
        "flow": flow,
        "players": list(enumerate(form.players)),  # the seating the form was filled against
        "outcomes": [(k, outcome_title(k), outcome_hint(k)) for k in form.available_outcomes()],
        "hidden": form.hidden_fields(step),
        "visible": form.visible_groups(step),
        "step_number": form.steps().index(step) + 1 if step in form.steps() else 1,
        # no "of N" on the outcome step: how many steps follow depends on the outcome chosen
        # there; the whole entry on one page is one step
        "step_total": len(form.steps()) if form.kind and step not in ("outcome", WHOLE_STEP) else None,
        "conflict": conflict,
        "preview": None,
    }
    if any(group.startswith("hand-") or group == FINAL for group in context["visible"]):
        context["grid"] = card_grid(form.rules)
        context["taken"] = _taken_elsewhere(form)
    if "side" in context["visible"]:
        context["spades"] = spade_choices(form.rules)
    if step == "preview" and result is not None:
        context["preview"] = _preview(night, form, result, outcome or {})
    return render_template("record.html", **context), status


def _taken_elsewhere(form: HandForm) -> dict[int | str, dict[str, str]]:
    """For each card grid on the page, the tapped cards another grid already holds
    (card → who holds it)."""
    holders: list[tuple[int | str, str, list[str]]] = [
        (seat, form.players[seat], form.picked.get(seat, [])) for seat in form.entered_seats()
    ]
    if form.asks_final_spread():
        holders.append((FINAL, _("the run"), form.final_picked))
    return {
        key: {card: name for other, name, cards in holders if other != key for card in cards}
        for key, _name, _cards in holders
    }


def _preview(
    night: GameSession, form: HandForm, result: HandResult, outcome: dict[str, Any]
) -> dict[str, Any]:
    as_stored = result.to_json() | {"detail": result.detail}
    submission_hands = []
    if form.asks_final_spread():
        submission_hands.append({"name": _("The run"), "cards": form.final_cards(), "total": "", "count": None})
    optional = [s for s in form.optional_seats() if form.cards_of(s)]
    for seat in form.needed_seats() + [s for s in optional if s not in form.needed_seats()]:
        name = form.players[seat]
        submission_hands.append({
            "name": name,
            "cards": form.cards_of(seat),
            "total": form.totals.get(seat, "").strip() if form.totals_allowed() else "",
            "count": result.counts.get(name),
        })
    side = None
    if form.asks_side_pot() and form.side_in:
        try:
            stake: int | None = parse_amount(form.side_stake, night.currency)
        except ValueError:
            stake = None
        side = {
            "stake": stake,
            "players": [(form.players[s], form.spade_of(s)) for s in form.side_in],
            "winner": result.side_pot_winner,
        }
    return {
        "description": str(describe_hand(outcome, as_stored)),
        "transfers": [(t.payer, t.payee, t.amount_minor) for t in result.transfers],
        "net": [(p, result.net.get(p, 0)) for p in form.players],
        "redeal": result.redeal,
        "hands": submission_hands,
        "dealer": form.players[form.dealer] if form.dealer is not None else "",
        "side": side,
    }
