"""Opening a night with a bearer token in one statement (issue 24): the night's row and the key
the token's hash names at that night, read together, so that a request authenticates and reads
its night in one indexed query (the primary key of ``game_session`` and ``ix_access_key_secret_hash``)
instead of two. What the token makes of its bearer follows :func:`ledger.access.roles.actor_for`:
a live link or device key of that night; a withdrawn one is said apart (the API answers it 401
``token_revoked``); a key of another night opens nothing here."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, bindparam
from sqlmodel import Session, select

from ledger.access.roles import TOKEN_KINDS, Actor, hash_secret
from ledger.storage.models import AccessKey, GameSession

KEYS = AccessKey.__table__  # type: ignore[attr-defined]
# prepared once: every request of a table runs it
_NIGHT_WITH_KEY = (select(GameSession, KEYS.c.id, KEYS.c.role, KEYS.c.kind, KEYS.c.label, KEYS.c.revoked_at)
                   .outerjoin(KEYS, and_(KEYS.c.session_id == GameSession.id,  # type: ignore[arg-type]
                                         KEYS.c.secret_hash == bindparam("hash")))
                   .where(GameSession.id == bindparam("night")))


@dataclass(frozen=True, slots=True)
class Opened:
    """``night`` (``None``: no such night), the ``actor`` the token makes of its bearer there
    (``None``: it opens nothing), and whether the token is one of the night's withdrawn ones."""

    night: GameSession | None
    actor: Actor | None = None
    revoked: bool = False


def open_night(db: Session, session_id: str, token: str | None, device: str = "") -> Opened:
    """The night ``session_id`` and what ``token`` makes of its bearer there, in one query."""
    row = db.exec(_NIGHT_WITH_KEY, params={"night": session_id, "hash": hash_secret(token or "")}).first()
    if row is None:
        return Opened(None)
    night, key_id, role, kind, label, revoked_at = row
    if not token or key_id is None or kind not in TOKEN_KINDS:
        return Opened(night)
    if revoked_at is not None:
        return Opened(night, revoked=True)
    # a phone that joined by code is known by the name it joined with
    return Opened(night, Actor(role, key_id, (label if kind == "device" else device)[:120]))
