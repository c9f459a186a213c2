"""No single point of failure: the phones of a night, co-hosts and the recovery code.

* :func:`phones` lists the phones that hold a token of a night (every device key, and the
  host's own link), with when each was last seen.
* :func:`make_cohost` promotes a phone's device key to role ``host`` (audit ``cohost_added``):
  it may then correct, void, restore, undo and close. The table's links and code stay derived
  from the host token, so only the host's own phone (or one recovered with the code) shows them.
* :func:`recover_host` exchanges the recovery code (shown once when the night starts and
  printed in the host's PDF), once, for a host token of the new phone's own (audit
  ``host_recovered``); the host's own link token is never handed out.
* The night's own host (:func:`is_owner`: the host link's phone, or one recovered with the code)
  removes phones (:func:`revoke_phone`, audit ``phone_revoked``), issues a new recovery code
  (:func:`issue_recovery_code`) and replaces every link and code (:func:`rotate`, audit
  ``links_rotated``); a co-host may not (403), and no phone removes itself (409).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

import secrets

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.access import roles as access
from ledger.access.devices import shown
from ledger.access.roles import Actor
from ledger.storage.db import begin_write
from ledger.storage.models import AccessKey, AuditEvent, GameSession, utcnow
from ledger.i18n import N_, gettext
from ledger.night.lifecycle import NightError, audit

HOST_LINK_NAME = N_("Host’s phone (the night’s own host link)")
OWNER_ONLY = N_("Only the host’s own phone, or one that recovered the host with the recovery code, can remove "
                "phones or change the links and codes; a co-host cannot.")
KEYS = AccessKey.__table__  # type: ignore[attr-defined]


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
    """``{id, name, role, last_seen}``: ``name`` is the name the phone chose when it joined
    ("Bo's phone"), else its system and browser ("Android · Chrome",
    :func:`ledger.access.devices.shown`), the host link's in the reader's language;
    ``last_seen`` (ISO 8601 with offset) is the newest change this phone made, or when it joined."""
    seen = max(filter(None, (key.created_at, last_seen)))
    return {
        "id": key.id,
        "name": gettext(HOST_LINK_NAME) if key.kind == "link" else shown(key.label),  # the reader's language
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
    ``phone_not_found`` (not one of :func:`phones`); :class:`~ledger.access.roles.AccessDenied`
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


def _withdraw(db: Session, key_ids: list[int]) -> int:
    """Set ``revoked_at`` on those keys still live, in one statement (so two requests never both
    withdraw the same key); how many it withdrew."""
    if not key_ids:
        return 0
    result = db.connection().execute(
        update(KEYS).where(KEYS.c.id.in_(key_ids), KEYS.c.revoked_at.is_(None)).values(revoked_at=utcnow()))
    return int(result.rowcount or 0)


def is_owner(db: Session, night: GameSession, actor: Actor) -> bool:
    """Whether ``actor`` is the night's own host: the phone holding the host link, or a phone that
    became the host with the recovery code (audit ``host_recovered`` under its key). A co-host
    is not: the host made it one to keep the night going, not to hand the night away."""
    if actor.role != "host" or actor.access_key_id is None:
        return False
    key = db.get(AccessKey, actor.access_key_id)
    if key is None or key.revoked_at is not None or key.session_id != night.id:
        return False
    if key.kind == "link":
        return True
    return db.exec(select(AuditEvent.id).where(
        AuditEvent.session_id == night.id, AuditEvent.action == "host_recovered",
        AuditEvent.access_key_id == key.id)).first() is not None


def require_owner(db: Session, night: GameSession, actor: Actor) -> None:
    """Raises :class:`~ledger.access.roles.AccessDenied` (403) unless the role may do ``keys``, and
    :class:`NightError` 403 ``role_forbidden`` for a co-host (see :func:`is_owner`)."""
    actor.require("keys")
    if not is_owner(db, night, actor):
        raise NightError(403, "role_forbidden", OWNER_ONLY, None)


def revoke_phone(db: Session, night: GameSession, phone_id: int, actor: Actor) -> dict[str, Any]:
    """Remove phone ``phone_id`` (one of :func:`phones`: a device key, or the host link) from
    ``night``, open or closed (committed, audit ``phone_revoked``): its token answers 401 from
    then on and the phone leaves :func:`phones` (the history keeps who removed whom). Returns
    :func:`phone_json` with ``revoked_at``. Removing the host link (a lost phone) leaves the
    player and viewer links and the table code working: :func:`rotate` replaces them.

    Raises :class:`NightError` 404 ``phone_not_found`` (not a live phone of ``night``), 409
    ``own_phone`` (the phone doing it: a phone never locks itself out), 403 ``role_forbidden``
    (see :func:`require_owner`)."""
    require_owner(db, night, actor)
    key = db.get(AccessKey, phone_id) if isinstance(phone_id, int) else None
    if key is None or key.id not in {k.id for k in phone_keys(db, night)}:
        raise NightError(404, "phone_not_found", N_("That phone has not joined this night."), "phone")
    if key.id == actor.access_key_id:
        raise NightError(409, "own_phone", N_("This phone cannot remove itself; remove it from another host phone."),
                         "phone")
    begin_write(db)
    if _withdraw(db, [key.id or 0]) != 1:
        db.rollback()
        raise NightError(404, "phone_not_found", N_("That phone has not joined this night."), "phone")
    audit(db, night, actor, "phone_revoked",
          before={"phone": key.id, "name": key.label, "role": key.role, "kind": key.kind})
    db.commit()
    db.refresh(key)
    return phone_json(key) | {"revoked_at": key.revoked_at.isoformat() if key.revoked_at else None}


def issue_recovery_code(db: Session, night: GameSession, actor: Actor, host_token: str | None) -> str:
    """A new recovery code for ``night`` (committed, audit ``recovery_code_issued``): the old one
    stops working. Derived from the host token when the actor holds it (``host_token``: the
    host's PDF then prints it), else random and shown only in this answer. Raises as
    :func:`require_owner`."""
    require_owner(db, night, actor)
    begin_write(db)
    live = db.exec(select(AccessKey).where(AccessKey.session_id == night.id, AccessKey.kind == "recovery")).all()
    if host_token is not None and access.is_host_link(db, night, host_token):
        newest = max((g for k in live if (g := access.recovery_generation(k.label)) is not None), default=0)
        generation: int | None = newest + 1
        code = access.derived_recovery_code(host_token, night.id, newest + 1)
    else:
        generation, code = None, access.random_recovery_code()
    _withdraw(db, [k.id for k in live if k.id is not None])
    db.add(AccessKey(session_id=night.id, role="host", kind="recovery", secret_hash=access.recovery_hash(code),
                     label=access.recovery_label(generation)))
    audit(db, night, actor, "recovery_code_issued", after={})
    db.commit()
    return code


def rotate(db: Session, night: GameSession, actor: Actor) -> str:
    """New links and codes for ``night`` (committed, audit ``links_rotated``): a new host token,
    and the player and viewer links, the table code and the recovery code derived from it; every
    old link token answers 401, the old table code and recovery code are refused. Phones that
    joined keep their own tokens. Returns the new host token (the actor's phone keeps it).
    Raises as :func:`require_owner`."""
    require_owner(db, night, actor)
    for _attempt in range(5):
        begin_write(db)
        old = db.exec(select(AccessKey.id).where(
            AccessKey.session_id == night.id, AccessKey.kind.in_(("link", "code", "recovery")),  # type: ignore[attr-defined]
            AccessKey.revoked_at.is_(None))).all()  # type: ignore[union-attr]
        _withdraw(db, [k for k in old if k is not None])
        token = access.new_host_token()
        access.add_keys(db, night, access.table_secrets(token, night.id))
        audit(db, night, actor, "links_rotated", after={})
        try:
            db.commit()
        except IntegrityError:  # a table code shared with another night: draw new secrets
            db.rollback()
            continue
        return token
    raise RuntimeError("could not draw unique table secrets")


def recover_host(db: Session, code: str, device: str = "", night: GameSession | None = None
                 ) -> tuple[GameSession, str] | None:
    """Exchange a recovery code, once, for a host token of this phone's own (a device key of
    role ``host``, listed by :func:`phones`; committed audit ``host_recovered`` under that key):
    the code is withdrawn, the host's own link token never handed out. ``None`` when no night
    (or not ``night``, when given) has that code. Raises :class:`NightError` 410 ``code_used``
    for a code used already or replaced by a new one. Works on a closed night too: its host may
    still need the PDF and to remove phones, and the code works only once."""
    if not isinstance(code, str) or not code.strip():
        return None
    key = _recovery_key(db, code)
    if key is None or (night is not None and key.session_id != night.id):
        return None
    found = db.get(GameSession, key.session_id)
    if found is None:
        return None
    used = NightError(410, "code_used", N_("That recovery code no longer works: it was used already or replaced "
                                           "by a new one. Ask the host for a new one."), "code")
    if key.revoked_at is not None:
        raise used
    begin_write(db)
    if _withdraw(db, [key.id or 0]) != 1:  # another phone used it a moment ago
        db.rollback()
        raise used
    token = secrets.token_urlsafe(24)
    label = (device or "phone")[:120]
    phone = AccessKey(session_id=found.id, role="host", kind="device", secret_hash=access.hash_secret(token),
                      label=label)
    db.add(phone)
    db.flush()
    audit(db, found, Actor("host", phone.id, label), "host_recovered", after={"phone": phone.id, "name": label})
    db.commit()
    return found, token
