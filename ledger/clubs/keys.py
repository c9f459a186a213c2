"""Withdrawing a club's secrets (issue 20 item 6): the club's owner lists the devices that hold a
club token, removes one, and renews the member and viewer links and the club code.

Only the phone holding the owner's own link may (the links derive from its token, as a night's
derive from the host's): a member's or viewer's token is refused 403 ``role_forbidden``. A
withdrawn key keeps its row with ``revoked_at`` set: its token answers 401 ``token_revoked``
(:func:`revoked`), a withdrawn club code is refused at ``POST /clubs/join``. Night tokens a
device already took for one of the club's nights (:mod:`ledger.clubs.night_access`) are the
night's keys: the night's host removes them there.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ledger.access import roles as access
from ledger.storage.club_models import Club, ClubKey
from ledger.clubs.roster import ClubActor, add_keys, club_event, club_secrets
from ledger.storage.db import begin_write
from ledger.i18n import N_
from ledger.storage.models import utcnow
from ledger.night.lifecycle import NightError

KEYS = ClubKey.__table__  # type: ignore[attr-defined]
OWNER_LINK_NAME = N_("The owner’s phone (the club’s own owner link)")


def revoked(db: Session, club: Club, token: str | None) -> bool:
    """Whether ``token`` is a withdrawn bearer token of ``club``."""
    if not token:
        return False
    key = db.exec(select(ClubKey).where(ClubKey.secret_hash == access.hash_secret(token))).first()
    return (key is not None and key.club_id == club.id and key.revoked_at is not None
            and key.kind in ("link", "device"))


def _require_owner_link(db: Session, club: Club, actor: ClubActor) -> ClubKey:
    actor.require("keys")
    key = db.get(ClubKey, actor.key_id) if actor.key_id is not None else None
    if key is None or key.club_id != club.id or key.kind != "link" or key.role != "owner" or key.revoked_at:
        raise NightError(403, "role_forbidden", N_("Only the phone holding the club’s own owner link can remove "
                                                   "devices or renew the club’s links."), None)
    return key


def device_keys(db: Session, club: Club) -> list[ClubKey]:
    """The live keys that stand for a device: the owner link and every device that joined by
    code, oldest first (the member and viewer links are links, renewed with :func:`rotate`)."""
    keys = db.exec(select(ClubKey).where(ClubKey.club_id == club.id, ClubKey.revoked_at.is_(None))  # type: ignore[union-attr]
                   .order_by(ClubKey.id))  # type: ignore[arg-type]
    return [k for k in keys if k.kind == "device" or (k.kind == "link" and k.role == "owner")]


def device_json(key: ClubKey) -> dict[str, Any]:
    """``{id, name, role, joined}``: ``name`` is what the device joined as: the name it chose
    ("Bo's phone"), else its system and browser ("Android · Chrome"); the owner link in the
    reader's language. ``joined`` ISO 8601 with offset."""
    from ledger.access.devices import shown
    from ledger.i18n import gettext

    return {"id": key.id, "name": gettext(OWNER_LINK_NAME) if key.kind == "link" else shown(key.label),
            "role": key.role, "joined": key.created_at.isoformat()}


def devices(db: Session, club: Club, actor: ClubActor) -> list[dict[str, Any]]:
    """Every device holding a live club token, as :func:`device_json` (owner link only)."""
    _require_owner_link(db, club, actor)
    return [device_json(k) for k in device_keys(db, club)]


def _withdraw(db: Session, key_ids: list[int]) -> int:
    if not key_ids:
        return 0
    result = db.connection().execute(
        update(KEYS).where(KEYS.c.id.in_(key_ids), KEYS.c.revoked_at.is_(None)).values(revoked_at=utcnow()))
    return int(result.rowcount or 0)


def revoke_device(db: Session, club: Club, device_id: int, actor: ClubActor) -> dict[str, Any]:
    """Remove device ``device_id`` from ``club`` (committed, club event ``device_revoked``): its
    token answers 401 from then on. Returns :func:`device_json` with ``revoked_at``. Raises
    :class:`NightError` 404 ``device_not_found``, 409 ``own_device`` (the owner's own link: it
    renews it with :func:`rotate` instead), 403 ``role_forbidden``."""
    own = _require_owner_link(db, club, actor)
    key = db.get(ClubKey, device_id)
    missing = NightError(404, "device_not_found", N_("That device has not joined this club."), "device")
    if key is None or key.id not in {k.id for k in device_keys(db, club)}:
        raise missing
    if key.id == own.id:
        raise NightError(409, "own_device", N_("This phone cannot remove itself; renew the club’s links instead."),
                         "device")
    begin_write(db)
    if _withdraw(db, [key.id or 0]) != 1:
        db.rollback()
        raise missing
    club_event(db, club, actor, "device_revoked", before={"device": key.id, "name": key.label, "role": key.role},
               by=actor.key_id)
    db.commit()
    db.refresh(key)
    return device_json(key) | {"revoked_at": key.revoked_at.isoformat() if key.revoked_at else None}


def rotate(db: Session, club: Club, actor: ClubActor) -> str:
    """New owner token, member and viewer links and club code (committed, club event
    ``links_rotated``): the old links answer 401, the old code is refused; devices that joined
    keep their tokens. Returns the new owner token (the owner's phone keeps it). Raises as
    :func:`revoke_device`'s 403."""
    _require_owner_link(db, club, actor)
    for _attempt in range(5):
        begin_write(db)
        old = db.exec(select(ClubKey.id).where(
            ClubKey.club_id == club.id, ClubKey.kind.in_(("link", "code")),  # type: ignore[attr-defined]
            ClubKey.revoked_at.is_(None))).all()  # type: ignore[union-attr]
        _withdraw(db, [k for k in old if k is not None])
        token = access.new_host_token()
        add_keys(db, club, club_secrets(token, club.id))
        club_event(db, club, actor, "links_rotated", by=actor.key_id)
        try:
            db.commit()
        except IntegrityError:  # a club code shared with another club: draw new secrets
            db.rollback()
            continue
        return token
    raise RuntimeError("could not draw unique club secrets")
