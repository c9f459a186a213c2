"""Opening a night with a bearer token in one statement (issue 24): the night's row and the key
the token's hash names at that night, read together, so that a request authenticates and reads
its night in one indexed query (the primary key of ``game_session`` and ``ix_access_key_secret_hash``)
instead of two. What the token makes of its bearer follows :func:`ledger.access.roles.actor_for`:
a live link or device key of that night; a withdrawn one is said apart (the API answers it 401
``token_revoked``); a key of another night opens nothing here."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, func
from sqlmodel import Session, select

from ledger.access.roles import TOKEN_KINDS, Actor, hash_secret
from ledger.storage.models import AccessKey, AuditEvent, GameSession

KEYS = AccessKey.__table__  # type: ignore[attr-defined]
# prepared once: every request of a table runs it
_NIGHT_WITH_KEY = (select(GameSession, KEYS.c.id, KEYS.c.role, KEYS.c.kind, KEYS.c.label, KEYS.c.revoked_at)
                   .outerjoin(KEYS, and_(KEYS.c.session_id == GameSession.id,  # type: ignore[arg-type]
                                         KEYS.c.secret_hash == bindparam("hash")))
                   .where(GameSession.id == bindparam("night")))
EVENTS = AuditEvent.__table__  # type: ignore[attr-defined]
# the same with the night's version (its latest audit event's id) read in the same statement: a
# live poll that finds nothing changed answers 304 after this one query
_NIGHT_WITH_KEY_AND_VERSION = _NIGHT_WITH_KEY.add_columns(
    select(func.max(EVENTS.c.id)).where(EVENTS.c.session_id == GameSession.id).scalar_subquery())


@dataclass(frozen=True, slots=True)
class Opened:
    """``night`` (``None``: no such night), the ``actor`` the token makes of its bearer there
    (``None``: it opens nothing), and whether the token is one of the night's withdrawn ones."""

    night: GameSession | None
    actor: Actor | None = None
    revoked: bool = False
    #: the night's version (its latest audit event's id, 0 for none), when asked for
    version: int | None = None


def open_night(db: Session, session_id: str, token: str | None, device: str = "", *,
               with_version: bool = False) -> Opened:
    """The night ``session_id`` and what ``token`` makes of its bearer there, in one query
    (``with_version``: and the night's version, read in the same statement)."""
    statement = _NIGHT_WITH_KEY_AND_VERSION if with_version else _NIGHT_WITH_KEY
    row = db.exec(statement, params={"night": session_id, "hash": hash_secret(token or "")}).first()
    if row is None:
        return Opened(None)
    night, key_id, role, kind, label, revoked_at = row[:6]
    version = int(row[6] or 0) if with_version else None
    if not token or key_id is None or kind not in TOKEN_KINDS:
        return Opened(night, version=version)
    if revoked_at is not None:
        return Opened(night, revoked=True, version=version)
    # a phone that joined by code is known by the name it joined with
    return Opened(night, Actor(role, key_id, (label if kind == "device" else device)[:120]), version=version)
