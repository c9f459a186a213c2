"""No single point of failure: the phones of a night, co-hosts and the recovery code.

* :func:`phones` lists the phones that hold a token of a night (every device key, and the
  host's own link), with when each was last seen.
* :func:`make_cohost` promotes a phone's device key to role ``host`` (audit ``cohost_added``):
  it may then correct, void, restore, undo and close. The table's links and code stay derived
  from the host token, so only the host's own phone (or one recovered with the code) shows them.
* :func:`recover_host` exchanges the recovery code (shown once when the night starts and
  printed in the host's PDF) for the host token on a new phone (audit ``host_recovered``).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ledger import access
from ledger.access import Actor
from ledger.db import begin_write
from ledger.models import AccessKey, AuditEvent, GameSession
from ledger.i18n import N_, gettext
from ledger.night import NightError, audit

HOST_LINK_NAME = N_("Host’s phone (the night’s own host link)")


def _last_seen(db: Session, night: GameSession) -> dict[int, datetime]:
    """The newest audit event of each key of ``night`` (what that phone last changed)."""
    rows = db.exec(
        select(AuditEvent.access_key_id, func.max(AuditEvent.created_at))
        .where(AuditEvent.session_id == night.id, AuditEvent.access_key_id.is_not(None))  # type: ignore[union-attr]
        .group_by(AuditEvent.access_key_id)
    )
    out: dict[int, datetime] = {}
    for key_id, when in rows:
        if key_id is not None and when is not None:
            out[int(key_id)] = when  # UTCDateTime: read back aware (max keeps the column's type)
    return out


def phone_keys(db: Session, night: GameSession) -> list[AccessKey]:
    """The live keys that stand for a phone: the host link and every device key, oldest first."""
    keys = db.exec(select(AccessKey).where(AccessKey.session_id == night.id).order_by(AccessKey.id))
    return [k for k in keys if k.revoked_at is None
            and (k.kind == "device" or (k.kind == "link" and k.role == "host"))]


def phone_json(key: AccessKey, last_seen: datetime | None = None) -> dict[str, Any]:
    """``{id, name, role, last_seen}``: ``last_seen`` (ISO 8601 with offset) is the newest change
    this phone made, or when it joined."""
    seen = max(filter(None, (key.created_at, last_seen)))
    return {
        "id": key.id,
        "name": gettext(HOST_LINK_NAME) if key.kind == "link" else key.label,  # the reader's language
        "role": key.role,
        "last_seen": seen.isoformat(),
    }


def phones(db: Session, night: GameSession) -> list[dict[str, Any]]:
    """Every phone holding a token of ``night`` as :func:`phone_json`, oldest first."""
    seen = _last_seen(db, night)
    return [phone_json(k, seen.get(k.id or 0)) for k in phone_keys(db, night)]


def make_cohost(db: Session, night: GameSession, phone_id: int, actor: Actor) -> dict[str, Any]:
    """Make phone ``phone_id`` (a device key of ``night``) a co-host; a phone that is already a
    host changes nothing. Returns :func:`phone_json`. Raises :class:`NightError` 404
    ``phone_not_found`` (not one of :func:`phones`); :class:`~ledger.access.AccessDenied`
    unless the actor is a host."""
    actor.require("cohost")
    key = db.get(AccessKey, phone_id) if isinstance(phone_id, int) else None
    if key is None or key.session_id != night.id or key.revoked_at is not None or key.kind != "device":
        raise NightError(404, "phone_not_found", N_("That phone has not joined this night."), "phone")
    begin_write(db)
    db.refresh(key)  # as it is now, under the write lock
    if key.role != "host":
        begin_write(db)
        before = key.role
        key.role = "host"
        db.add(key)
        audit(db, night, actor, "cohost_added", before={"phone": key.id, "name": key.label, "role": before},
              after={"phone": key.id, "name": key.label, "role": "host"})
        db.commit()
    return phone_json(key, _last_seen(db, night).get(key.id or 0))


def _recovery_key(db: Session, code: str) -> AccessKey | None:
    return db.exec(select(AccessKey).where(
        AccessKey.secret_hash == access.recovery_hash(code), AccessKey.kind == "recovery")).first()


def recover_host(db: Session, code: str, device: str = "", night: GameSession | None = None
                 ) -> tuple[GameSession, str] | None:
    """Exchange a recovery code for the night's host token (committed audit ``host_recovered``),
    or ``None`` when no night (or not ``night``, when given) has that code. Works on a closed
    night too: its host may still need the links and the PDF."""
    if not isinstance(code, str) or not code.strip():
        return None
    key = _recovery_key(db, code)
    if key is None or key.revoked_at is not None or (night is not None and key.session_id != night.id):
        return None
    found = db.get(GameSession, key.session_id)
    if found is None:
        return None
    token = access.unseal(key.label, code, found.id)
    if token is None or not access.is_host_link(db, found, token):
        return None
    host_key = access.key_for(db, found, token)
    assert host_key is not None
    begin_write(db)
    audit(db, found, Actor("host", host_key.id, device[:120]), "host_recovered",
          after={"device": device[:120]})
    db.commit()
    return found, token
