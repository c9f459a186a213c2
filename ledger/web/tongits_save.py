"""The Tong-its record flow's saving: "Save" records the hand (``record_hand``) or, for a host's
correction, amends it (``amend_hand``, which re-scores the later hands whose pot it changes), or
answers why not with everything typed kept, as a page or as JSON for the offline queue
(TONGITS.md §8.1). The flow reads :mod:`ledger.web.tongits_form` (asks) →
:mod:`ledger.web.tongits_render` (renders) → this module (saves)."""
from __future__ import annotations

from typing import Any

from flask import flash, jsonify, redirect, url_for

from ledger.access.roles import Actor
from ledger.games.errors import HandError
from ledger.i18n import _
from ledger.night import lifecycle as ledger_night
from ledger.night.lifecycle import NightError
from ledger.storage.db import get_session
from ledger.storage.models import GameSession
from ledger.web.saved_hand import CORRECTED, RECORDED, saved_message, wants_json
from ledger.web.tongits_form import TongitsForm
from ledger.web.tongits_render import ENTRY_STEP, Correction, render


def save_correction(night: GameSession, form: TongitsForm, actor: Actor, correction: Correction) -> Any:
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
        if err.code in ("stale_version", "idempotency_key_reused"):
            # changed on another phone first, or this form already saved: start again from the
            # current version, with everything typed kept
            form.errors["form"] = err.message
            return render(night, form, ENTRY_STEP, status=409, correction=correction)
        flash(err.message, "error")
        return redirect(correction.back)
    if created:
        flash(saved_message(CORRECTED, night, hand.result, number=correction.number, version=hand.version), "success")
    else:
        flash(_("Hand {number} was already corrected (saved once, not twice).", number=correction.number), "info")
    return redirect(correction.back)


def save(night: GameSession, form: TongitsForm, actor: Actor) -> Any:
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
            form.errors["form"] = err.message
            return render(night, form, ENTRY_STEP, status=409)
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
