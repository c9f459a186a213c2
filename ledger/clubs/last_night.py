"""What a club's next night starts from: who sat at its last night (ticked again on the start
form), its stake and rules, and the names its nights already have (a default name that is
taken gets a number). Reads only; three indexed queries over the club's nights and one night's
seats."""
from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from ledger.storage.club_models import Club, ClubMember, ClubNight, ClubSeat
from ledger.storage.models import GameSession


@dataclass(frozen=True, slots=True)
class LastNight:
    """The club's most recent night: ``members`` the current names of the members who sat at
    it (roster order), ``stake_minor`` (minor units of the club's currency), ``game`` and
    ``preset`` as it was started."""

    members: tuple[str, ...]
    stake_minor: int
    game: str
    preset: str


def last_night(db: Session, club: Club) -> LastNight | None:
    """The club's most recently started night, or ``None`` before its first."""
    night = db.exec(select(GameSession).join(ClubNight, col(ClubNight.session_id) == col(GameSession.id))
                    .where(ClubNight.club_id == club.id)
                    .order_by(col(GameSession.created_at).desc(), col(GameSession.id).desc()).limit(1)).first()
    if night is None:
        return None
    members = db.exec(select(ClubMember.name).join(ClubSeat, col(ClubSeat.member_id) == col(ClubMember.id))
                      .where(ClubSeat.session_id == night.id).order_by(col(ClubMember.id)))
    return LastNight(tuple(members), night.stake_minor, night.game or "tonk",
                     str((night.ruleset or {}).get("preset") or ""))


def night_names(db: Session, club: Club) -> list[str]:
    """The names of the club's nights."""
    return list(db.exec(select(GameSession.name).join(ClubNight, col(ClubNight.session_id) == col(GameSession.id))
                        .where(ClubNight.club_id == club.id)))
