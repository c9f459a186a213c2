"""A night as a whole, undone by its host: removed when it was started by mistake, voided when
it was played but should not count (issue 23, item 6).

- **Removed** (status ``removed``): a night with no hands and no payments. Its row and its audit
  trail stay (nothing acknowledged is ever deleted); it leaves every list, and its links answer
  410 Gone.
- **Voided** (status ``voided``): a night with hands, kept whole for the record and shown struck
  through; nothing in it changes, and it is out of its club's standings and statistics (those
  count closed nights only, :mod:`ledger.clubs.standings`). **Restored**, it is a closed night
  again and counts. A club night whose balances were carried into the club is refused
  (409 ``night_carried``): undo the carry first, so the club's books never hold money from a
  night that does not count. An open night is closed by its void (no more hands); a club night
  that had not carried (open, or waiting for the owner's say) is marked as not carried, and
  restoring it does not carry it.

Each change is one write transaction on the night's locked row, with its audit event
(``night_removed``, ``night_voided``, ``night_restored``: the status before and after).
Errors: :class:`~ledger.access.roles.AccessDenied` unless host; :class:`NightError` 409
``night_has_hands`` (remove), ``night_carried`` (void), ``night_removed``, ``night_not_voided``.
"""
from __future__ import annotations

from sqlalchemy import func
from sqlmodel import Session, select

from ledger.access.roles import Actor
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.night import figures
from ledger.night.audit import audit
from ledger.night.payments import carried_into
from ledger.night.recording import close_pot
from ledger.storage.db import begin_write
from ledger.storage.club_models import ClubNight
from ledger.storage.models import GameSession, Hand, Payment, utcnow

REMOVED = "removed"
VOIDED = "voided"
#: the statuses of a night undone as a whole: nothing in it changes, and it counts nowhere
UNDONE = frozenset({REMOVED, VOIDED})


def remove_night(db: Session, night: GameSession, actor: Actor) -> GameSession:
    """Remove a night started by mistake (no hand recorded, not even one voided since, and no
    payment). Removing it twice changes nothing."""
    locked = _locked_for(db, night, actor, REMOVED)
    if locked is None:
        return night
    night = locked
    hands = db.exec(select(func.count()).select_from(Hand).where(Hand.session_id == night.id)).one()
    paid = db.exec(select(func.count()).select_from(Payment).where(Payment.session_id == night.id)).one()
    if hands or paid:
        db.rollback()
        raise NightError(409, "night_has_hands", N_("This night has hands or payments, so it cannot be removed; "
                                                    "void it as a whole instead, and it is kept for the record."))
    before = night.status
    night.status = REMOVED
    night.closed_at = night.closed_at or utcnow()
    db.add(night)
    audit(db, night, actor, "night_removed", before={"status": before}, after={"status": REMOVED})
    db.commit()
    return night


def void_night(db: Session, night: GameSession, actor: Actor) -> GameSession:
    """Void the whole night: kept, struck through, out of its club's standings. Voiding it
    twice changes nothing. An open night's pot (Tong-its) is closed first, as closing the night
    closes it (:func:`ledger.night.recording.close_pot`, ``end_of_night``), so that restoring the
    night (a closed night) leaves no money in a pot that says it was closed."""
    locked = _locked_for(db, night, actor, VOIDED)
    if locked is None:
        return night
    night = locked
    _refuse_removed(db, night)
    club = carried_into(db, night)
    if club is not None:
        name = club.name
        db.rollback()
        raise NightError(409, "night_carried", N_("The debts of this night were carried into the balances of {club}; "
                                                  "the club's owner undoes that carry first, then the night can be "
                                                  "voided."), club=name)
    before = night.status
    if before == "open":  # its pot is closed as closing does (TONGITS.md §4.9), so a restore finds it closed too
        try:
            close_pot(db, night, actor, "end_of_night")
        except BaseException:
            db.rollback()
            raise
    night.status = VOIDED
    night.closed_at = night.closed_at or utcnow()
    db.add(night)
    link = db.get(ClubNight, night.id)
    if link is not None and link.carried is None:  # open, or closed to carry and waiting: it carries nothing now
        link.carried, link.carry_state = False, None
        db.add(link)
    audit(db, night, actor, "night_voided", before={"status": before}, after={"status": VOIDED})
    db.commit()
    return night


def restore_night(db: Session, night: GameSession, actor: Actor) -> GameSession:
    """A voided night counts again, as a closed night."""
    actor.require("close")
    begin_write(db)
    night = figures.lock(db, night)
    _refuse_removed(db, night)
    if night.status != VOIDED:
        db.rollback()
        raise NightError(409, "night_not_voided", N_("This night is not void; there is nothing to restore."))
    night.status = "closed"
    db.add(night)
    audit(db, night, actor, "night_restored", before={"status": VOIDED}, after={"status": "closed"})
    db.commit()
    return night


def _locked_for(db: Session, night: GameSession, actor: Actor, status: str) -> GameSession | None:
    """The night's row, locked for a change to ``status`` in a write transaction, or ``None``
    (the transaction ended) when it has that status already: nothing to do."""
    actor.require("close")
    begin_write(db)
    night = figures.lock(db, night)
    if night.status == status:
        db.rollback()
        return None
    return night


def _refuse_removed(db: Session, night: GameSession) -> None:
    if night.status == REMOVED:
        db.rollback()
        raise NightError(409, "night_removed", N_("This night was removed."))
