"""The record flow's saving: "Save" records the hand (``record_hand``), or answers why not with
the form kept (a refusal beside its input, another phone's hand of that number, a table that changed,
a saved form come back changed), as a page or as JSON for the offline queue. The flow reads
:mod:`ledger.web.entry_form` (asks) → :mod:`ledger.web.record_render` (renders) → this module (saves)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import flash, jsonify, redirect, url_for

from ledger.access.roles import Actor
from ledger.games.tonk import HandError
from ledger.i18n import _
from ledger.night import lifecycle as ledger_night
from ledger.night.lifecycle import NightError
from ledger.storage.db import get_session
from ledger.storage.models import GameSession
from ledger.web.entry_form import HandForm, new_key
from ledger.web.record_render import Flow, render_step, stored_hand_view
from ledger.web.saved_hand import RECORDED, saved_message, wants_json


def save(night: GameSession, form: HandForm, actor: Actor) -> Any:
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
            return number_conflict(night, form, err, flow)
        if err.code == "table_changed":
            # entered against another seating or stake: shown again at the table as it is now,
            # with what changed, to be checked and saved again (nothing saved meanwhile)
            return table_changed(night, at_table_now(night, form), err.message, flow)
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


def table_changed(night: GameSession, form: HandForm, message: str, flow: Flow) -> Any:
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


def number_conflict(night: GameSession, form: HandForm, err: NightError, flow: Flow) -> Any:
    """Another phone recorded this hand number first: show what it recorded next to this
    entry's payouts as the next hand, dealt by the next dealer, and offer to save it so if it
    is another hand (one screen: a hand kept offline opens here from its queue row)."""
    existing = err.extra.get("existing")
    db = get_session()
    form.number = int(err.extra.get("next_number") or ledger_night.next_number(db, night))
    # the next hand is dealt by whoever deals next now, not by this entry's dealer (who dealt
    # the hand the other phone recorded)
    dealer = ledger_night.next_dealer(db, night)
    form.dealer = list(form.players).index(dealer) if dealer in form.players else form.dealer
    submission = form.submission()
    assert submission is not None
    result = ledger_night.preview_hand(night, submission)
    conflict = {"message": err.message, "existing": None, "number": form.number}
    if isinstance(existing, dict):
        conflict["existing"] = stored_hand_view(night, existing)
    return render_step(night, form, "preview", flow, result=result, outcome=submission.outcome,
                       conflict=conflict, status=409)


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
