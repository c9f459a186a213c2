"""Correct a recorded hand (host only): ``/s/<id>/hands/<n>/v<version>/correct``.

GET opens the record flow filled from the stored entry of that version of the hand (outcome,
who, dealer, every hand's cards or total, side pot); the steps are the record flow's
(:func:`ledger.web.record.run_step`), and "Save correction" calls
:func:`ledger.night.lifecycle.amend_hand` with the version being corrected. The old version stays in the
history as superseded. When another phone changed the hand first (409 ``stale_version``) the
page shows both versions and lets the host start again from the current one.
"""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, request, url_for

from ledger.night import lifecycle as ledger_night
from ledger.access.roles import Actor
from ledger.storage.db import get_session
from ledger.i18n import N_, _
from ledger.storage.models import GameSession
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.entry_form import HandForm, new_key
from ledger.web.hand_rows import history_at
from ledger.web import rummy_pages, rummy_record, tongits_record
from ledger.web.tongits_form import Correction
from ledger.web.record import run_step, step_values
from ledger.web.record_render import Flow, render_step, stored_hand_view
from ledger.web.saved_hand import CORRECTED, saved_message

MAX_ID = 2**31 - 1
SAVE_CORRECTION = N_("Save correction to hand {number}")


class AsPlayed:
    """The night as hand ``hand`` was played: its seating (``players``) and ``stake_minor``,
    everything else the night's own. The correction flow reads the seats and the stake from
    it, so a hand played before someone sat in, left or the stake changed is corrected as it
    was played (:func:`ledger.night.lifecycle.amend_hand` scores it so too)."""

    def __init__(self, night: GameSession, hand: Any) -> None:
        self._night = night
        self.players = list(hand.players or night.players)
        self.stake_minor = hand.stake_minor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._night, name)


@bp.route("/s/<session_id>/hands/<int:number>/v<int:version>/correct", methods=["GET", "POST"])
def amend(session_id: str, number: int, version: int) -> Any:
    night, actor = authorised(session_id, "amend")
    if number > MAX_ID or version > MAX_ID:
        abort(404)
    db = get_session()
    history = history_at(night, number)
    if night.status != "open":
        flash(_("This night is closed; its hands can no longer change."), "error")
        return redirect(url_for("web.table", session_id=night.id))
    try:
        current = ledger_night.get_hand(db, night, number)
    except NightError:
        abort(404)
    if current.status == "voided":
        flash(_("Hand {number} is void; record a new hand instead.", number=number), "error")
        return redirect(history)
    night = AsPlayed(night, current)  # type: ignore[assignment]  # the form offers the hand's own seats
    if rummy_pages.is_rummy(night):
        if current.version != version and request.method == "GET":
            flash(_("Hand {number} was changed on another phone (now version {version}).", number=number,
                    version=current.version), "info")
            return redirect(url_for("web.amend", session_id=night.id, number=number, version=current.version))
        return rummy_record.record(night, actor, rummy_record.Correction(number, version, dict(current.entry), history))
    if (night.game or "tonk") == "tongits":
        # a Tong-its hand: its own questions, scored from the pot the hands before it left
        if current.version != version and request.method == "GET" and "key" not in request.args:
            flash(_("Hand {number} was changed on another phone (now version {version}).", number=number,
                    version=current.version), "info")
            return redirect(url_for("web.amend", session_id=night.id, number=number, version=current.version))
        action = url_for("web.amend", session_id=night.id, number=number, version=version)
        correction = Correction(number, version, action, history, dict(current.entry), current.dealer)
        return tongits_record.record(night, actor, correction)
    stale = None
    if current.version != version:
        stale = {
            "current": stored_hand_view(night, ledger_night.hand_json(current)),
            "restart": url_for("web.amend", session_id=night.id, number=number, version=current.version),
            "message": _("Hand {number} was changed on another phone (now version {version}).", number=number,
                         version=current.version),
        }
    flow = Flow(
        action=url_for("web.amend", session_id=night.id, number=number, version=version),
        cancel=history,
        save_label=_(SAVE_CORRECTION, number=number),
        save=lambda n, f: _save(n, f, actor, number, version),
        amend={"number": number, "version": version},
        stale=stale,
    )
    rules = ledger_night.rules_of(night)
    if request.method == "GET" and "key" not in request.args:
        stored = next((h for h in ledger_night.hands_of(db, night, all_versions=True)
                       if h.number == number and h.version == version), None)
        if stored is None:
            abort(404)
        form = HandForm.from_entry(night.players, rules, stored.entry, dealer=stored.dealer,
                                   number=number, currency=night.currency)
        return render_step(night, form, "outcome", flow)
    form = HandForm.from_form(step_values(), night.players, rules, currency=night.currency)
    form.number = number
    if form.dealer is None:
        form.dealer = night.players.index(current.dealer) if current.dealer in night.players else 0
    return run_step(night, form, flow)


def _save(night: GameSession, form: HandForm, actor: Actor, number: int, version: int) -> Any:
    flow = Flow(
        action=url_for("web.amend", session_id=night.id, number=number, version=version),
        cancel=history_at(night, number),
        save_label=_(SAVE_CORRECTION, number=number),
        amend={"number": number, "version": version},
    )
    submission = form.submission()
    if submission is None:
        return render_step(night, form, form.step_with_errors("preview"), flow, status=422)
    db = get_session()
    try:
        hand, created = ledger_night.amend_hand(db, night, number, version, submission, actor)
    except HandError as err:
        form.place_error(err)
        return render_step(night, form, form.step_with_errors("preview"), flow, status=422)
    except NightError as err:
        if err.code == "stale_version":
            return _stale(night, form, err, flow)
        if err.code == "hand_not_found":
            abort(404)
        if err.code == "idempotency_key_reused":
            return _new_correction(night, form, err)
        flash(err.message, "error")
        return redirect(history_at(night, number))
    if created:
        flash(saved_message(CORRECTED, night, hand.result, number=number, version=hand.version), "success")
    else:
        flash(_("Hand {number} was already corrected (saved once, not twice).", number=number), "info")
    return redirect(history_at(night, number))


def _new_correction(night: GameSession, form: HandForm, err: NightError) -> Any:
    """This correction form already saved a correction (browser Back, changed, saved again) and
    this one is different: show what it saved and offer to save this entry as a new correction
    of the current version, with a fresh key. Nothing is saved until the host says so."""
    number = int(form.number or 0)
    try:
        current = ledger_night.get_hand(get_session(), night, number)
    except NightError:
        abort(404)
    if current.status == "voided":
        flash(_("Hand {number} is void; record a new hand instead.", number=number), "error")
        return redirect(history_at(night, number))
    existing = err.extra.get("existing") if isinstance(err.extra.get("existing"), dict) else {}
    form.key = new_key()
    flow = Flow(
        action=url_for("web.amend", session_id=night.id, number=number, version=current.version),
        cancel=history_at(night, number),
        save_label=_(SAVE_CORRECTION, number=number),
        amend={"number": number, "version": current.version},
    )
    conflict = {
        "title": _("This correction form was saved before (hand {number})", number=number),
        "message": _("That correction form already saved version {version} of hand {number}; the entry below "
                     "is different and is not saved yet.", version=existing.get("version", current.version),
                     number=number),
        "existing": stored_hand_view(night, existing) if existing else None,
        "hint": _("Same correction? Nothing more to do. A different one? Save it as a new correction of "
                  "version {version}.", version=current.version),
        "save_label": _("Save as a new correction"),
        "number": number,
    }
    submission = form.submission()
    assert submission is not None  # the same form was just scored by amend_hand
    result = ledger_night.preview_hand(night, submission)
    return render_step(night, form, "preview", flow, result=result, outcome=submission.outcome,
                       conflict=conflict, status=409)


def _stale(night: GameSession, form: HandForm, err: NightError, flow: Flow) -> Any:
    """Someone amended the hand first: show their version beside this one, no save button."""
    current = err.extra.get("current") if isinstance(err.extra.get("current"), dict) else {}
    current_version = int(current.get("version") or flow.amend["version"])
    stale = {
        "current": stored_hand_view(night, current),
        "restart": url_for("web.amend", session_id=night.id, number=flow.amend["number"], version=current_version),
        "message": err.message,
        "conflict": True,
    }
    flow = Flow(action=flow.action, cancel=flow.cancel, save_label=flow.save_label, amend=flow.amend, stale=stale)
    submission = form.submission()
    result = outcome = None
    if submission is not None:
        try:
            result = ledger_night.preview_hand(night, submission)
            outcome = submission.outcome
        except HandError:
            result = None
    return render_step(night, form, "preview", flow, result=result, outcome=outcome, status=409)
