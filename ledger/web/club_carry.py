"""The owner's say over a club night's balances from the phone (issue 20 item 5): carry a night
a member closed to be carried (``carried: "pending"``), or one whose carry was undone, into the
club's balances, and undo a carry with reversing entries (:func:`ledger.clubs.carry.carry_night`,
:func:`~ledger.clubs.carry.uncarry_night`). A member or viewer gets the club's 403 page; a night
of another club is 404; a night that cannot be carried or uncarried now is told on the club page."""
from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, url_for

from ledger.clubs import carry
from ledger.clubs.night_access import club_night_of
from ledger.db import get_session
from ledger.i18n import _
from ledger.night import NightError
from ledger.web.blueprint import bp
from ledger.web.club_pages import club_authorised


def _night(club: Any, session_id: str) -> Any:
    try:
        return club_night_of(get_session(), club, session_id)
    except NightError:
        abort(404)


@bp.post("/c/<club_id>/nights/<session_id>/carry")
def club_carry_night(club_id: str, session_id: str) -> Any:
    """Owner: the night's debts join the club's balances; back to the club's nights."""
    club, actor = club_authorised(club_id, "carry")
    night = _night(club, session_id)
    try:
        carry.carry_night(get_session(), club, night, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("{night} was carried into the balances of {club}.", night=night.name, club=club.name), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-nights")


@bp.post("/c/<club_id>/nights/<session_id>/uncarry")
def club_uncarry_night(club_id: str, session_id: str) -> Any:
    """Owner: the carry is reversed (nothing deleted); the night's debts are paid there again."""
    club, actor = club_authorised(club_id, "uncarry")
    night = _night(club, session_id)
    try:
        carry.uncarry_night(get_session(), club, night, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("The carry of {night} was undone; its debts are paid at the night again.", night=night.name),
              "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-nights")
