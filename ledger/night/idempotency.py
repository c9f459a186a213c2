"""Submission keys (``Idempotency-Key``): a phone that sends the same request twice (a
double tap, a retry after a lost answer) has it stored once. Hands (:mod:`ledger.night.recording`)
and payments (:mod:`ledger.night.payments`, :mod:`ledger.clubs.carry`) keep the key with what they
stored, unique per night or club; the same key with the same request is answered with what
was stored, with another request refused (409 ``idempotency_key_reused``). A retry carries the
names it was first sent with: a hand renamed since it was stored is compared with it under the
renames made since (:func:`renames_since`)."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Mapping, TypeVar

from sqlmodel import Session, col, select

from ledger.errors import NightError
from ledger.i18n import N_
from ledger.storage.models import AuditEvent

MAX_IDEMPOTENCY_KEY = 200
IDEMPOTENCY_KEY = re.compile(r"[\x20-\x7e]{1,%d}" % MAX_IDEMPOTENCY_KEY)  # printable ASCII
KEY_REUSED = N_("That submission key was already used for another request; send this one with a new key.")


def check_idempotency_key(key: str | None) -> None:
    """A key is stored whole or refused, never cut: 1 to :data:`MAX_IDEMPOTENCY_KEY` printable
    ASCII characters. Raises :class:`NightError` 422 ``invalid_entry`` (field
    ``Idempotency-Key``)."""
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise NightError(422, "invalid_entry",
                         N_("An Idempotency-Key must be 1 to {most} printable ASCII characters."),
                         "Idempotency-Key", None, most=MAX_IDEMPOTENCY_KEY)


def key_reused(existing: Mapping[str, Any]) -> NightError:
    """The 409 ``idempotency_key_reused`` for a key that stored ``existing`` (its JSON) but
    came back with another request."""
    return NightError(409, "idempotency_key_reused", KEY_REUSED, "Idempotency-Key", {"existing": dict(existing)})


Stored = TypeVar("Stored")


def replay(db: Session, stored: Stored, same: bool, shown: Mapping[str, Any]) -> Stored:
    """The answer to a request whose key already stored ``stored`` (found under the caller's
    write lock, nothing written since): ends the transaction, and returns ``stored`` when the
    request is the ``same`` one, else raises :func:`key_reused` with ``shown`` (its JSON)."""
    db.rollback()
    if not same:
        raise key_reused(shown)
    return stored


def renames_since(db: Session, night_id: str, since: datetime) -> list[tuple[str, str]]:
    """The night's renames (``player_renamed``, :func:`ledger.night.seating.rename_player`) made after
    ``since`` (when a hand was stored), oldest first, as ``(old, new)`` names: what a retry of
    the request that stored it must be read under. One read along the night's events of that
    kind (an index of session, action and id), only when a retry differs from what it stored."""
    events = db.exec(select(AuditEvent.detail).where(
        AuditEvent.session_id == night_id, AuditEvent.action == "player_renamed",
        col(AuditEvent.created_at) > since).order_by(col(AuditEvent.id)))
    renames = [((d or {}).get("before", {}).get("name"), (d or {}).get("after", {}).get("name")) for d in events]
    return [(old, new) for old, new in renames if isinstance(old, str) and isinstance(new, str)]
