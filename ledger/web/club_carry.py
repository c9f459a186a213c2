"""The owner's say over a club night's balances from the phone (issue 20 item 5): carry a night
a member closed to be carried (``carried: "pending"``), or one whose carry was undone, into the
club's balances, and undo a carry with reversing entries (:func:`ledger.clubs.carry.carry_night`,
:func:`~ledger.clubs.carry.uncarry_night`). A member or viewer gets the club's 403 page; a night
of another club is 404; a night that cannot be carried or uncarried now is told on the club page."""
from __future__ import annotations

from typing import Any, Callable

from flask import abort, flash, redirect, url_for

from ledger.clubs import carry
from ledger.clubs.night_access import club_night_of
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.night.lifecycle import NightError
from ledger.web.blueprint import bp
from ledger.web.club_pages import club_authorised


def _owner_says(club_id: str, session_id: str, action: str, done: Callable[[Any, Any], str]) -> Any:
    """Run the owner's ``action`` (``"carry"`` or ``"uncarry"``) on the night and flash its
    sentence (``done(night, club)``), or the refusal's (409), then go back to the club's nights;
    403 (the club's page) for a member or viewer, 404 for a night of another club."""
    club, actor = club_authorised(club_id, action)
    db = get_session()
    try:
        night = club_night_of(db, club, session_id)
    except NightError:
        abort(404)
    step = carry.carry_night if action == "carry" else carry.uncarry_night
    try:
        step(db, club, night, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(done(night, club), "success")
    return redirect(url_for("web.club_page", club_id=club.id) + "#club-nights")


@bp.post("/c/<club_id>/nights/<session_id>/carry")
def club_carry_night(club_id: str, session_id: str) -> Any:
    """Owner: the night's debts join the club's balances; back to the club's nights."""
    return _owner_says(club_id, session_id, "carry", lambda night, club: _(
        "{night} was carried into the balances of {club}.", night=night.name, club=club.name))


@bp.post("/c/<club_id>/nights/<session_id>/uncarry")
def club_uncarry_night(club_id: str, session_id: str) -> Any:
    """Owner: the carry is reversed (nothing deleted); the night's debts are paid there again."""
    return _owner_says(club_id, session_id, "uncarry", lambda night, _club: _(
        "The carry of {night} was undone; its debts are paid at the night again.", night=night.name))
