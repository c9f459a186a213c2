"""The read model a club's season PDFs render (:mod:`ledger.statements.season`): the period's
counted nights, every member's standing and cumulative net by night, the running balances, the
plan that clears them, and the payments against them. Money is int minor units."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlmodel import Session

from ledger.money import is_points
from ledger.clubs.books import balances, payments_of, settlement_plan
from ledger.storage.club_models import Club
from ledger.clubs.roster import members_of
from ledger.clubs.standings import Period, Standing, standings
from ledger.transfers import Transfer


@dataclass(frozen=True, slots=True)
class ClubPaymentLine:
    payer: str
    payee: str
    amount_minor: int
    at: datetime


@dataclass(frozen=True, slots=True)
class SeasonReport:
    """Everything a season statement or the club summary shows."""

    club_name: str
    currency: str
    timezone: str
    period: Period
    nights: tuple[tuple[str, date], ...]  # (name, local date), oldest first
    members: tuple[Standing, ...]  # best net first
    cumulative: dict[str, list[tuple[int, int]]]  # member → [(night index, cumulative net)], from (0, 0)
    balances_minor: dict[str, int]
    plan: tuple[Transfer, ...]
    plan_minimal: bool
    payments: tuple[ClubPaymentLine, ...]


def season_report(db: Session, club: Club, period: Period = Period()) -> SeasonReport:
    """The season read model of ``club`` for ``period``."""
    table = standings(db, club, period)
    zone_nights = table.to_json()["nights"]
    cumulative = {s.name: [(0, 0)] + [(i + 1, v) for i, v in enumerate(table.cumulative(s))] for s in table.members}
    plan = settlement_plan(db, club)
    names = {m.id: m.name for m in members_of(db, club)}
    return SeasonReport(
        club_name=club.name, currency=club.currency, timezone=club.timezone, period=period,
        nights=tuple((n["name"], date.fromisoformat(n["date"])) for n in zone_nights),
        members=tuple(table.members), cumulative=cumulative, balances_minor=balances(db, club),
        # a club kept in points settles nothing (issue 25): no plan in its statements
        plan=() if is_points(club.currency) else plan.transfers, plan_minimal=plan.minimal,
        payments=tuple(ClubPaymentLine(names[p.payer_id], names[p.payee_id], p.amount_minor, p.created_at)
                       for p in payments_of(db, club) if p.status == "counted"),
    )
