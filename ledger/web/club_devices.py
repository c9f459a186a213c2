"""The club owner's devices page (issue 20 item 6, ``/c/<id>/devices``): the devices holding a
club token, a confirm step to remove one, and a confirm step to renew the member and viewer
links and the club code. The phone holding the owner's own link only (the ledger side is
:mod:`ledger.clubs.keys`); every other phone gets the club's 403 page."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for

from ledger.clubs import keys, roster
from ledger.storage.club_models import Club
from ledger.clubs.roster import ClubActor
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.night.lifecycle import NightError
from ledger.web.blueprint import bp
from ledger.web.club_pages import club_authorised, club_refusal, club_tokens, remember_club_token

MAX_ID = 2**31 - 1


def _owner(club_id: str) -> tuple[Club, ClubActor]:
    club, actor = club_authorised(club_id, "keys")
    if not roster.is_owner_link(get_session(), club, club_tokens().get(club.id)):
        abort(club_refusal(club, actor))
    return club, actor


def _page(club: Club, confirm: dict[str, Any] | None = None) -> Any:
    db = get_session()
    own = club_tokens().get(club.id)
    mine = roster.actor_for(db, club, own)
    rows = [d | {"mine": mine is not None and d["id"] == mine.key_id, "since": datetime.fromisoformat(d["joined"])}
            for d in (keys.device_json(k) for k in keys.device_keys(db, club))]
    page = render_template("club_devices.html", club=club, devices=rows, confirm=confirm)
    return page, 200, {"Cache-Control": "no-store"}


@bp.get("/c/<club_id>/devices")
def club_devices(club_id: str) -> Any:
    """The devices holding a club token, with a Remove button each and New links and code."""
    club, _actor = _owner(club_id)
    return _page(club)


@bp.post("/c/<club_id>/devices/<int:device_id>/remove")
def remove_club_device(club_id: str, device_id: int) -> Any:
    """Remove a device; without ``confirmed=yes`` the page asks first."""
    club, actor = _owner(club_id)
    if device_id > MAX_ID:
        abort(404)
    db = get_session()
    device = next((keys.device_json(k) for k in keys.device_keys(db, club) if k.id == device_id), None)
    if device is None:
        flash(_("That device has not joined this club."), "error")
        return redirect(url_for("web.club_devices", club_id=club.id))
    if request.form.get("confirmed") != "yes":
        return _page(club, {
            "title": _("Remove {name}?", name=device["name"]),
            "message": _("That device will no longer open the club; what it recorded stays."),
            "action": url_for("web.remove_club_device", club_id=club.id, device_id=device_id),
            "button": _("Remove {name}", name=device["name"])})
    try:
        keys.revoke_device(db, club, device_id, actor)
    except NightError as err:
        flash(err.message, "error")
    else:
        flash(_("{device} was removed: it no longer opens the club.", device=device["name"]), "success")
    return redirect(url_for("web.club_devices", club_id=club.id))


@bp.post("/c/<club_id>/rotate")
def rotate_club(club_id: str) -> Any:
    """New member and viewer links and club code; without ``confirmed=yes`` the page asks first.
    This phone keeps the new owner token and sees the new links on the club page."""
    club, actor = _owner(club_id)
    if request.form.get("confirmed") != "yes":
        return _page(club, {
            "title": _("New links and code?"),
            "message": _("The club’s old links and code stop working at once. Devices that already joined keep "
                         "working; anyone else needs the new link or code."),
            "action": url_for("web.rotate_club", club_id=club.id), "button": _("Make new links and code")})
    try:
        token = keys.rotate(get_session(), club, actor)
    except NightError as err:
        flash(err.message, "error")
        return redirect(url_for("web.club_devices", club_id=club.id))
    remember_club_token(club.id, token)
    flash(_("New links and code made; the old ones no longer work."), "success")
    return redirect(url_for("web.club_page", club_id=club.id, share=1))
