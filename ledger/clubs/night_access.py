"""A club token opens the club's nights (issue 9): its holder exchanges it for a token of the
night of their own, in the night's role that matches their club role (owner → ``host``, as a
co-host: correct, void, close; member → ``player``: record hands and payments; viewer →
``viewer``). The night's own access checks (:mod:`ledger.access.roles`) then apply unchanged, so every
night call and page works with that token, the night's history names the phone, and a night
outside the club is never opened by a club token.

Decision: an exchange rather than accepting club tokens at every night call, so the night's
authorisation (shared by the API, the pages and the live updates) stays one look-up of one
key; the minted key is an ordinary device key (``kind="device"``), as a phone that joined by
code gets.
"""
from __future__ import annotations

import secrets

from sqlmodel import Session

from ledger.access import roles as access
from ledger.storage.club_models import Club, ClubNight
from ledger.clubs.roster import NIGHT_ROLE, ClubActor
from ledger.storage.db import begin_write
from ledger.i18n import N_
from ledger.storage.models import AccessKey, GameSession
from ledger.night.lifecycle import NightError

ROLE_RANK = {"viewer": 0, "player": 1, "host": 2}


def club_night_of(db: Session, club: Club, session_id: str) -> GameSession:
    """The night ``session_id`` if it belongs to ``club``. Raises :class:`NightError` 404
    ``session_not_found`` for an unknown night or another club's (or none)."""
    link = db.get(ClubNight, session_id)
    night = db.get(GameSession, session_id) if link is not None and link.club_id == club.id else None
    if night is None:
        raise NightError(404, "session_not_found", N_("This club has no night {night}."), "session_id",
                         night=repr(session_id))
    return night


def night_role(actor: ClubActor) -> str:
    """The night role a club role gives at the club's nights."""
    return NIGHT_ROLE[actor.role]


def keeps(db: Session, night: GameSession, held_token: str | None, actor: ClubActor) -> bool:
    """Whether ``held_token`` (the night token a phone already keeps) opens ``night`` in at
    least the role ``actor`` would get, so no new token is needed."""
    key = access.key_for(db, night, held_token)
    return key is not None and ROLE_RANK.get(key.role, -1) >= ROLE_RANK[night_role(actor)]


def night_token(db: Session, club: Club, actor: ClubActor, session_id: str, label: str) -> tuple[GameSession, str]:
    """A new token of night ``session_id`` for the holder of a club token (committed), in
    :func:`night_role` of ``actor``; ``label`` names the phone in the night's history.
    Raises :class:`NightError` 404 ``session_not_found`` (not this club's night)."""
    night = club_night_of(db, club, session_id)
    token = secrets.token_urlsafe(24)
    begin_write(db)
    db.add(AccessKey(session_id=night.id, role=night_role(actor), kind="device",
                     secret_hash=access.hash_secret(token), label=(label or "club phone")[:120]))
    db.commit()
    return night, token
