"""Standings and statistics of a club for a period (all time, a date range, the last N nights).

Counted nights are the club's closed nights (their finals are final), whether carried or
settled in cash; a night closed to carry counts only while carried (not while it waits for the
owner's say, nor after the owner undid its carry: issue 20 item 5). A period keeps the nights whose start falls on ``date_from``..``date_to``
(inclusive, read in the club's time zone), then the last ``last`` of them. Per member:
nights played, hands played (counted hands they were dealt into; redeals are not played), net
(the sum of their finals: each night's running net over its counted hands, before payments; a
Tong-its night's finals include the split of its pot at the close, an entry that is not a hand
played: TONGITS.md §4.9),
hands won by kind, times caught, best and worst night, average per night (to the nearest minor unit, half away from zero),
and the cumulative net after each counted night (the chart). Money is int minor units.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import Session

from ledger.money import divide_rounded
from ledger.night import lifecycle as ledger_night
from ledger.night.figures import NOT_A_HAND
from ledger.clubs.carry import carried_of, nights_of, seat_members
from ledger.storage.club_models import Club, ClubMember
from ledger.clubs.roster import members_of
from ledger.storage.models import GameSession

#: the kinds of hands won, Tonk's then Tong-its' (a club plays either game: TONGITS.md §4.1–4.4)
WIN_KINDS = ("deal_tonk", "tonk_out", "discard_out", "knock", "catch", "dry_stock", "double_double",
             "tongits", "draw", "stock_out")


@dataclass(frozen=True, slots=True)
class Period:
    """Which counted nights to keep: by local start date (inclusive), then the last N."""

    date_from: date | None = None
    date_to: date | None = None
    last: int | None = None


@dataclass(slots=True)
class NightLine:
    """One member's part of one counted night."""

    night_id: str
    night_name: str
    started: date
    net_minor: int
    hands: int
    carried: bool
    carried_minor: int = 0


@dataclass(slots=True)
class Standing:
    """One member's figures for a period (``nights`` lists each counted night they played)."""

    member_id: int
    name: str
    lines: list[NightLine] = field(default_factory=list)
    hands: int = 0
    wins: dict[str, int] = field(default_factory=lambda: {k: 0 for k in WIN_KINDS})
    caught: int = 0

    @property
    def net_minor(self) -> int:
        return sum(line.net_minor for line in self.lines)

    @property
    def best_minor(self) -> int | None:
        return max((line.net_minor for line in self.lines), default=None)

    @property
    def worst_minor(self) -> int | None:
        return min((line.net_minor for line in self.lines), default=None)

    @property
    def average_minor(self) -> int | None:
        if not self.lines:
            return None
        return divide_rounded(self.net_minor, len(self.lines))

    def to_json(self, cumulative: list[int]) -> dict[str, Any]:
        return {
            "member": self.name, "member_id": self.member_id, "nights": len(self.lines), "hands": self.hands,
            "net": self.net_minor, "wins": dict(self.wins), "caught": self.caught,
            "best_night": self.best_minor, "worst_night": self.worst_minor,
            "average_per_night": self.average_minor, "cumulative": cumulative,
        }


@dataclass(slots=True)
class Standings:
    """The counted nights of the period (oldest first) and every member's standing (best net
    first; members who did not play last, in roster order)."""

    club: Club
    nights: list[GameSession]
    members: list[Standing]

    def cumulative(self, standing: Standing) -> list[int]:
        """The member's cumulative net after each counted night of the period."""
        by_night = {line.night_id: line.net_minor for line in standing.lines}
        out, total = [], 0
        for night in self.nights:
            total += by_night.get(night.id, 0)
            out.append(total)
        return out

    def to_json(self) -> dict[str, Any]:
        zone = ZoneInfo(self.club.timezone)
        return {
            "members": [s.to_json(self.cumulative(s)) for s in self.members],
            "nights": [{"id": n.id, "name": n.name, "date": n.created_at.astimezone(zone).date().isoformat()}
                       for n in self.nights],
        }


def counted_nights(db: Session, club: Club, period: Period) -> list[GameSession]:
    """The club's closed nights in ``period``, oldest first; a night closed to carry counts
    only while carried (not while it waits for the owner, nor once its carry was undone)."""
    zone = ZoneInfo(club.timezone)
    kept = []
    for night, link in nights_of(db, club):
        if night.status != "closed" or link.carry_state in ("pending", "uncarried"):
            continue
        day = night.created_at.astimezone(zone).date()
        if period.date_from is not None and day < period.date_from:
            continue
        if period.date_to is not None and day > period.date_to:
            continue
        kept.append(night)
    if period.last is not None:
        kept = kept[-period.last:] if period.last else []
    return kept


def _hand_wins(hand: Any) -> tuple[list[tuple[str, str]], str | None]:
    """``([(player, win kind)], player caught or None)`` for one counted hand."""
    result = hand.result
    winners = list(result.get("winners", []))
    if result.get("redeal"):
        return [], None
    if hand.kind != "knock":
        return [(w, hand.kind) for w in winners if hand.kind in WIN_KINDS], None
    knocker = (hand.entry.get("outcome") or {}).get("knocker")
    outcome = (result.get("detail") or {}).get("result")
    wins = [(w, "knock" if w == knocker else "catch") for w in winners]
    return wins, knocker if outcome == "knocker_caught" else None


def standings(db: Session, club: Club, period: Period = Period()) -> Standings:
    """Every member's standing over the counted nights of ``period``."""
    zone = ZoneInfo(club.timezone)
    roster: list[ClubMember] = members_of(db, club)
    table = {m.id: Standing(member_id=m.id, name=m.name) for m in roster}
    carried_flags = {night.id: carried_of(night, link) for night, link in nights_of(db, club)}
    nights = counted_nights(db, club, period)
    for night in nights:
        members = seat_members(db, club, night)
        finals = ledger_night.balances(db, night)
        left = ledger_night.outstanding(db, night)
        hands_played = {name: 0 for name in members}
        for hand in ledger_night.hands_of(db, night):
            if hand.status != "counted":
                continue
            if not hand.redeal and hand.kind not in NOT_A_HAND:
                for name in hand.players:
                    if name in hands_played:
                        hands_played[name] += 1
            wins, caught = _hand_wins(hand)
            for name, kind in wins:
                if name in members:
                    table[members[name].id].wins[kind] += 1
            if caught in members:
                table[members[caught].id].caught += 1
        started = night.created_at.astimezone(zone).date()
        for name, member in members.items():
            standing = table[member.id]
            standing.hands += hands_played[name]
            standing.lines.append(NightLine(
                night_id=night.id, night_name=night.name, started=started, net_minor=finals.get(name, 0),
                hands=hands_played[name], carried=carried_flags.get(night.id, False),
                carried_minor=left.get(name, 0) if carried_flags.get(night.id, False) else 0))
    order = {m.id: i for i, m in enumerate(roster)}
    ranked = sorted(table.values(), key=lambda s: (not s.lines, -s.net_minor, order[s.member_id]))
    return Standings(club=club, nights=nights, members=ranked)
