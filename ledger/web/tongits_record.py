"""The Tong-its record flow at ``/s/<id>/record`` of a Tong-its night: outcome → the hand on one
page → payouts and the pot → save (TONGITS.md §4, §8).

Read top to bottom: :mod:`ledger.web.tongits_form` says what the hand needs and builds the
entry; :mod:`ledger.web.tongits_page` renders the page (``templates/record_tongits.html``);
this module answers each step and saves through :func:`ledger.night.lifecycle.record_hand`. :mod:`ledger.web.record` hands a Tong-its night's request here
(one call, nothing comes back to it). The steps are GETs; only "Save" posts. The entry page of
each outcome (``?kind=draw``, the same with ``&whole=1``) is the one the phone keeps for offline
use (``static/sw.js``): without a connection "Check payouts" keeps the hand in the offline queue
(``static/offline-queue.js``), which later posts it here with ``Accept: application/json``.

The dealer is never asked: the ledger knows who deals by the rules (§2.3), and the pot the
hand is scored from is the night's (§4.8), so a hand kept offline is scored when it is saved.

The host's correction of a stored hand (:mod:`ledger.web.amend` hands it here with a
:class:`Correction`) is the same page filled from the stored entry, scored from the pot and
dealer the hands before it left, and saved with :func:`ledger.night.lifecycle.amend_hand`, which re-scores
the later hands whose pot it changes.
"""
from __future__ import annotations

from typing import Any

from flask import flash, jsonify, redirect, request, url_for

from ledger.night import lifecycle as ledger_night
from ledger.night import rescoring
from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.games.errors import HandError
from ledger.games.tongits import TongitsResult
from ledger.i18n import _
from ledger.storage.models import GameSession
from ledger.night.lifecycle import NightError
from ledger.web.table_seen import seen_table
from ledger.web.saved_hand import CORRECTED, RECORDED, saved_message, wants_json
from ledger.web.tongits_form import Correction, TongitsForm
from ledger.web.tongits_page import ENTRY_STEP, render



def record(night: GameSession, actor: Actor, correction: Correction | None = None) -> Any:
    """Answer one request of the flow for an open Tong-its ``night``: a new hand (GET), a step
    (GET with the form's fields) or the save (POST ``go=save``); with ``correction``, the same
    for a correction of a stored hand."""
    db = get_session()
    rules = ledger_night.rules_of(night)
    values = request.form if request.method == "POST" else request.args
    if request.method == "GET" and "key" not in values:
        if correction is not None:
            form = TongitsForm.from_entry(night.players, rules, correction.entry, correction.number)  # type: ignore[arg-type]
            return render(night, form, ENTRY_STEP if form.kind else "outcome", correction=correction)
        form = TongitsForm.blank(night.players, rules, ledger_night.next_number(db, night),  # type: ignore[arg-type]
                                 seen_stake=night.stake_minor)
        kind = values.get("kind")
        if kind in dict.fromkeys(k for k, _t, _h in form.outcomes()):
            form.kind = kind
            return render(night, form, ENTRY_STEP)
        return render(night, form, "outcome")
    seats, _stake = seen_table(values, night) if correction is None else (tuple(night.players), None)
    form = TongitsForm.from_form(values, seats, rules)  # type: ignore[arg-type]
    if correction is not None:
        form.number = correction.number
    go = values.get("go", "next")
    if form.kind is None:
        form.errors["kind"] = _("Choose how the hand ended.")
        return render(night, form, "outcome", status=422, correction=correction)
    if go == "save" and request.method == "POST":
        return _save(night, form, actor) if correction is None else _save_correction(night, form, actor, correction)
    if go in ("edit", "back") or values.get("step") == "outcome":
        return render(night, form, ENTRY_STEP, correction=correction)
    return _preview(night, form, correction)


def _preview(night: GameSession, form: TongitsForm, correction: Correction | None = None) -> Any:
    """"Check payouts": the engine's answer, or its refusal beside the input."""
    submission = form.submission()
    if submission is None:
        return render(night, form, ENTRY_STEP, status=422, correction=correction)
    try:
        result = _scored(night, submission, correction)
    except HandError as err:
        form.place_error(err)
        return render(night, form, ENTRY_STEP, status=422, correction=correction)
    return render(night, form, "preview", result=result, correction=correction)


def _scored(night: GameSession, submission: Any, correction: Correction | None) -> TongitsResult:
    """The hand scored as it will be saved: a new hand from the night's pot; a correction from
    the pot and dealer the counted hands before it left (:func:`ledger.night.rescoring.before`)."""
    if correction is None:
        return ledger_night.preview_hand(night, submission)  # type: ignore[return-value]
    start = rescoring.before(get_session(), night, correction.number)
    return ledger_night.preview_hand(night, submission, dealer=correction.dealer,  # type: ignore[return-value]
                                     state=start.state)


def _save_correction(night: GameSession, form: TongitsForm, actor: Actor, correction: Correction) -> Any:
    submission = form.submission()
    if submission is None:
        return render(night, form, ENTRY_STEP, status=422, correction=correction)
    try:
        hand, created = ledger_night.amend_hand(get_session(), night, correction.number, correction.version,
                                                submission, actor)
    except HandError as err:
        form.place_error(err)
        return render(night, form, ENTRY_STEP, status=422, correction=correction)
    except NightError as err:
        if err.code == "stale_version":
            # another phone corrected the hand first: nothing saved; the history shows its version
            flash(err.message, "error")
            return redirect(correction.back)
        if err.code == "idempotency_key_reused":
            # this form already saved a correction and came back changed: a new key, to check again
            form.key = TongitsForm.blank(night.players, form.rules, None).key  # type: ignore[arg-type]
            form.errors["form"] = err.message
            return render(night, form, ENTRY_STEP, status=409, correction=correction)
        flash(err.message, "error")
        return redirect(correction.back)
    if created:
        flash(saved_message(CORRECTED, night, hand.result, number=correction.number, version=hand.version), "success")
    else:
        flash(_("Hand {number} was already corrected (saved once, not twice).", number=correction.number), "info")
    return redirect(correction.back)


def _save(night: GameSession, form: TongitsForm, actor: Actor) -> Any:
    submission = form.submission()
    if submission is None:
        if wants_json():
            key = next(iter(form.errors), "form")
            return jsonify({"error": "invalid_entry", "message": form.errors.get(key, ""), "field": key}), 422
        return render(night, form, ENTRY_STEP, status=422)
    db = get_session()
    try:
        hand, created = ledger_night.record_hand(db, night, submission, actor)
    except HandError as err:
        if wants_json():
            return jsonify(err.to_json()), 422
        form.place_error(err)
        return render(night, form, ENTRY_STEP, status=422)
    except NightError as err:
        if wants_json():
            return jsonify(err.to_json()), err.status
        if err.code in ("hand_number_taken", "hand_number_gap", "idempotency_key_reused"):
            # another phone recorded this number first, or a saved form came back changed:
            # a new number and key, to check and save again
            form.number = ledger_night.next_number(db, night)
            form.key = TongitsForm.blank(night.players, form.rules, None).key  # type: ignore[arg-type]
            form.errors["form"] = err.message
            return _preview_again(night, form)
        if err.code == "table_changed":
            # entered against another seating or stake: shown again at the table as it is now,
            # with what changed, to be checked and saved again (nothing saved meanwhile)
            moved = form.at_table_now(night.players, night.stake_minor)
            moved.errors["form"] = err.message
            return _preview_again(night, moved)
        flash(err.message, "error")
        return redirect(url_for("web.table", session_id=night.id))
    message = (saved_message(RECORDED, night, hand.result, number=hand.number) if created
               else _("Hand {number} was already recorded (saved once, not twice).", number=hand.number))
    if wants_json():
        return jsonify({"number": hand.number, "created": created, "message": message}), 201 if created else 200
    flash(message, "success" if created else "info")
    return redirect(url_for("web.table", session_id=night.id))


def _preview_again(night: GameSession, form: TongitsForm) -> Any:
    message = form.errors.get("form", "")
    submission = form.submission()
    form.errors["form"] = message
    try:
        result = ledger_night.preview_hand(night, submission) if submission is not None else None
    except HandError as err:
        form.place_error(err)
        result = None
    return render(night, form, "preview" if result is not None else ENTRY_STEP, result=result, status=409)
