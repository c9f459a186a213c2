"""The club's Tong-its pot (TONGITS.md §4.8, §4.9 ``pot_at_end: carry``) as the club's books owe it.

:attr:`~ledger.storage.club_models.Club.pot_minor` is what carried nights' pots left for the club's
next Tong-its night; a night that opened with it holds it until it is carried back
(:mod:`ledger.clubs.carry`). A night's players' nets equal minus what its pot moved from its opening
(:func:`ledger.night.figures.movements`), so the members' running balances plus the club's pot plus
:func:`pot_in_nights` sum to zero, and the club's plan owes the pot :func:`owed_pot`. Amounts are
``int`` minor units.
"""
from __future__ import annotations

from sqlalchemy import func, or_
from sqlmodel import Session, select

from ledger.storage.club_models import Club, ClubNight
from ledger.storage.models import GameSession, NightAccount

#: the club's pot as a party of its plan (the name a Tong-its seat may never take, TONGITS.md §8.1)
POT = "pot"


def pot_in_nights(db: Session, club: Club) -> int:
    """What the club's Tong-its nights that are not carried into it (open, waiting for the owner,
    settled in cash, or their carry undone) opened with from the club's pot (minor units). One
    query."""
    statement = (select(func.coalesce(func.sum(NightAccount.opening_minor), 0))
                 .join(ClubNight, ClubNight.session_id == NightAccount.session_id)  # type: ignore[arg-type]
                 .join(GameSession, GameSession.id == NightAccount.session_id)  # type: ignore[arg-type]
                 .where(ClubNight.club_id == club.id, NightAccount.account == POT,
                        or_(GameSession.status != "closed", ClubNight.carried.is_not(True))))  # type: ignore[union-attr]
    return int(db.exec(statement).one() or 0)


def owed_pot(db: Session, club: Club) -> int:
    """What the members' carried balances owe the pot: the club's pot plus :func:`pot_in_nights`."""
    return int(club.pot_minor or 0) + pot_in_nights(db, club)
