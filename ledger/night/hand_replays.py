"""A repeated request under an idempotency key: whether it is the very request that stored a
hand (a retry, a double tap), answered with the hand as it stands, or another request under a
used key (409 ``idempotency_key_reused``). :mod:`ledger.night.recording` and the corrections of
:mod:`ledger.night.lifecycle` answer their repeats with these."""
from __future__ import annotations

from typing import Sequence

from sqlalchemy import bindparam, select
from sqlmodel import Session

from ledger.errors import NightError
from ledger.games.tonk.renaming import name_along, rename_along
from ledger.night import idempotency
from ledger.night.reads import hand_json
from ledger.night.submission import Submission
from ledger.storage.models import GameSession, Hand

HANDS = Hand.__table__  # type: ignore[attr-defined]
# prepared once: SQLAlchemy caches their compiled forms
_HAND_BY_KEY = select(HANDS.c.id).where(HANDS.c.session_id == bindparam("night"),
                                        HANDS.c.idempotency_key == bindparam("key"))
_CURRENT_BY_NUMBER = select(HANDS.c.id).where(HANDS.c.session_id == bindparam("night"),
                                              HANDS.c.number == bindparam("number"),
                                              HANDS.c.status != "superseded")


def replays(existing: Hand, submission: Submission, amends: tuple[int, int] | None = None,
            renames: Sequence[tuple[str, str]] = ()) -> bool:
    """Whether ``submission`` is the very request that stored ``existing`` under its key: the
    same kind (a new hand is version 1; the amendment of hand ``n`` at version ``v`` stored
    ``n`` at ``v + 1``), the same entry, and the same dealer and number where they are given;
    the request's names read after ``renames`` (``(old, new)``, oldest first: the renames made
    since ``existing`` was stored, which renamed it)."""
    if amends is None:
        same_kind = existing.version == 1 and submission.number in (None, existing.number)
    else:
        same_kind = (existing.number, existing.version) == (amends[0], amends[1] + 1)
    return (same_kind and existing.entry == rename_along(submission.entry(), renames)
            and name_along(submission.dealer, renames) in (None, existing.dealer))


def replays_now(db: Session, night: GameSession, existing: Hand, submission: Submission,
                amends: tuple[int, int] | None = None) -> bool:
    """:func:`replays`, also under the renames made since ``existing`` was stored
    (:func:`ledger.night.idempotency.renames_since`, read only when the names differ): a retry sent
    with the names of then is the request that stored it, not another one."""
    if replays(existing, submission, amends):
        return True
    renames = idempotency.renames_since(db, night.id, existing.created_at)
    return bool(renames) and replays(existing, submission, amends, renames)


def key_reused(existing: Hand) -> NightError:
    """The 409 ``idempotency_key_reused`` for a key that stored ``existing`` but came back
    with another request."""
    return idempotency.key_reused(hand_json(existing))


def same_submission(existing: Hand, submission: Submission) -> Hand:
    """The hand a repeated idempotency key already recorded, if the repeat is the same request;
    anything else under a used key is :class:`NightError` 409 ``idempotency_key_reused``
    (nothing is recorded, nothing is silently dropped)."""
    if not replays(existing, submission):
        raise key_reused(existing)
    return existing


def as_now(db: Session, night: GameSession, stored: Hand) -> Hand:
    """The answer to a repeated request: ``stored`` (the version its key stored), or the hand's
    current version when a later correction or seat fix has superseded it, so that a retry is
    answered with the hand as it stands (one indexed read then)."""
    if stored.status != "superseded":
        return stored
    current = current_id(db, night, stored.number)
    return db.get(Hand, current) if current is not None else stored


def current_id(db: Session, night: GameSession, number: int) -> int | None:
    """The row id of hand ``number``'s current version at ``night`` (one indexed read), or
    ``None`` when no hand has that number."""
    row = db.connection().execute(_CURRENT_BY_NUMBER, {"night": night.id, "number": number}).first()
    return None if row is None else int(row.id)


def by_idempotency_key(db: Session, night: GameSession, key: str) -> Hand | None:
    """The hand version stored under idempotency ``key`` at ``night``, or ``None`` (one
    indexed read; the hand itself is loaded only when there is one)."""
    found = db.connection().execute(_HAND_BY_KEY, {"night": night.id, "key": key}).first()
    return None if found is None else db.get(Hand, found.id)
