"""A night undone as a whole from the host's phone (issue 23, :mod:`ledger.night.whole_night`):
``POST /s/<id>/remove`` (a night started by mistake: no hands, no payments), ``POST
/s/<id>/void-night`` and ``POST /s/<id>/restore-night``. Each shows a confirm page first (without
``confirmed=yes``), then does it and says so; a refusal (409) comes back as a message on the
settle page. A removed night's links answer 410 afterwards; the phone goes to the start page."""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for

from ledger.errors import NightError
from ledger.i18n import _
from ledger.night import whole_night
from ledger.storage.db import get_session
from ledger.web.access import authorised
from ledger.web.blueprint import bp


def _confirm(night: Any, endpoint: str, title: str, message: str, button: str) -> Any:
    return render_template("confirm.html", night=night, title=title, row=None, message=message,
                           action=url_for(endpoint, session_id=night.id), button=button,
                           back=url_for("web.settle", session_id=night.id), hidden=[])


def _confirmed_or_asked(session_id: str, endpoint: str, title: str, message: str, button: str) -> tuple[Any, Any]:
    """``(night, actor)`` when the host confirmed (``confirmed=yes``), else ``(None, the confirm page)``."""
    night, actor = authorised(session_id, "close")
    if request.form.get("confirmed") != "yes":
        return None, _confirm(night, endpoint, title, message, button)
    return night, actor


@bp.post("/s/<session_id>/remove")
def remove_night(session_id: str) -> Any:
    night, actor = _confirmed_or_asked(
        session_id, "web.remove_night", _("Remove this night?"),
        _("It was started by mistake and has no hands: it leaves every list, and its links stop "
          "working. The log keeps that it was removed."), _("Remove the night"))
    if night is None:
        return actor
    try:
        whole_night.remove_night(get_session(), night, actor)
    except NightError as err:
        flash(err.message, "error")
        return redirect(url_for("web.settle", session_id=session_id))
    flash(_("{night} was removed.", night=night.name), "success")
    return redirect(url_for("web.index"))


@bp.post("/s/<session_id>/void-night")
def void_night(session_id: str) -> Any:
    night, actor = _confirmed_or_asked(
        session_id, "web.void_night", _("Void the whole night?"),
        _("Every hand and payment is kept and shown struck through, but the night counts nowhere: "
          "not in anyone's balance, not in the club's standings. Nothing in it can change; the host "
          "can restore it."), _("Void the night"))
    if night is None:
        return actor
    try:
        whole_night.void_night(get_session(), night, actor)
        flash(_("The night is void: kept for the record, counted nowhere."), "success")
    except NightError as err:
        flash(err.message, "error")
    return redirect(url_for("web.settle", session_id=session_id))


@bp.post("/s/<session_id>/restore-night")
def restore_night(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    try:
        whole_night.restore_night(get_session(), night, actor)
        flash(_("The night counts again, as a closed night."), "success")
    except NightError as err:
        flash(err.message, "error")
    return redirect(url_for("web.settle", session_id=session_id))
