"""The club's phone pages (issue 9): joining a club by link, the club page (members, running
balances, the plan that clears them, nights), the standings page, and starting a club night.

A club link (``/c/join/<id>/<token>``) remembers the club token in the signed cookie under
``session["club_tokens"][id]``; every club page turns it into a
:class:`~ledger.clubs.roster.ClubActor` (owner, member, viewer).
"""
from __future__ import annotations

from typing import Any

from flask import abort, redirect, session, url_for

from ledger.clubs import roster
from ledger.clubs.models import Club
from ledger.clubs.roster import ClubActor
from ledger.db import get_session
from ledger.web.blueprint import bp

MAX_REMEMBERED_CLUBS = 10


def club_tokens() -> dict[str, str]:
    tokens = session.get("club_tokens")
    if not isinstance(tokens, dict):
        return {}
    return {str(k): str(v) for k, v in tokens.items() if isinstance(v, str)}


def remember_club_token(club_id: str, token: str) -> None:
    """Keep ``token`` for ``club_id`` in the cookie (most recent last, bounded)."""
    tokens = club_tokens()
    tokens.pop(club_id, None)
    tokens[club_id] = token
    while len(tokens) > MAX_REMEMBERED_CLUBS:
        tokens.pop(next(iter(tokens)))
    session["club_tokens"] = tokens
    session.permanent = True


def club_authorised(club_id: str, action: str = "read") -> tuple[Club, ClubActor]:
    """The club and this phone's role in it; 404 unknown club, 403 without a token or role."""
    db = get_session()
    club = roster.find_club(db, club_id)
    if club is None:
        abort(404)
    actor = roster.actor_for(db, club, club_tokens().get(club_id))
    if actor is None or not actor.can(action):
        abort(403)
    return club, actor


@bp.get("/c/join/<club_id>/<token>")
def club_join(club_id: str, token: str) -> Any:
    """A club link: remembers the club token in the cookie, then opens the club page."""
    db = get_session()
    club = roster.find_club(db, club_id)
    if club is None:
        abort(404)
    if roster.actor_for(db, club, token) is None:
        abort(403)
    remember_club_token(club_id, token)
    return redirect(url_for("web.club_page", club_id=club_id))


@bp.get("/c/<club_id>")
def club_page(club_id: str) -> Any:
    club, _actor = club_authorised(club_id)
    return club.name  # the full page comes with the phone pages (issue 9, step h)
