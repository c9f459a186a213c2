"""The 13-card rummy engine's front door: score one hand (RUMMY13.md §4.1–§4.9) or the end of a
pool (§4.10), giving the §8.2 / §8.4 result.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.games.netting import net_payments
from ledger.games.rummy13.entry import DROPS, Entry, raw_and_count
from ledger.games.rummy13.ruleset import RummyRules
from ledger.transfers import Transfer


@dataclass(frozen=True, slots=True)
class _Payment:
    payer: str
    payee: str
    amount_minor: int


@dataclass(slots=True)
class RummyResult:
    """One scored rummy hand (§8.2), a :class:`ledger.games.base.Scored`: ``points`` charged to
    each player (seat order), netted ``transfers`` and ``net`` in minor units, ``winner`` (or the
    wrong ``shower``), ``redeal`` for a void hand, ``pool`` (pool format: scores, eliminated,
    remaining, over, winner)."""

    kind: str
    points: dict[str, int]
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    winner: str | None
    shower: str | None = None
    redeal: bool = False
    pool: dict[str, Any] | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[str, ...]:
        return (self.winner,) if self.winner is not None else ()

    @property
    def state(self) -> dict[str, Any] | None:
        """Pool format: ``{"scores": {...}}`` for the next hand (§4.9), with ``buy_ins`` when a
        night keeps them (:mod:`ledger.games.rummy13.pool_night`); else ``None``."""
        if self.pool is None:
            return None
        return {"scores": dict(self.pool["scores"])} | (
            {"buy_ins": dict(self.pool["buy_ins"])} if "buy_ins" in self.pool else {})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "points": dict(self.points),
            "transfers": [t.to_json() for t in self.transfers],
            "net": dict(self.net),
        }
        if self.pool is not None:
            out["pool"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.pool.items()}
        if self.redeal:
            out["redeal"] = True
        return out


def charged_points(rules: RummyRules, entry: Entry) -> dict[str, int]:
    """The points charged to each player (§4.1, §4.4–§4.7; the winner 0)."""
    points = dict.fromkeys(entry.players, 0)
    if entry.kind == "void":
        return points
    if entry.kind == "wrong_show":
        points[entry.shower] = rules.wrong_show_points
        return points
    halve = rules.first_turn_show_half and entry.first_turn_show and entry.kind == "show"
    fixed = {"first_drop": rules.first_drop_points, "middle_drop": rules.middle_drop_points,
             "wrong_show": rules.wrong_show_points, "full_count": rules.full_count_points}
    for name in entry.players:
        if name == entry.winner:
            continue
        hand = entry.hands[name]
        if hand.result == "lost":
            if hand.form is None:
                _, count = raw_and_count(hand, entry.wild, rules)
            else:
                raw, count = raw_and_count(hand, entry.wild, rules)
            points[name] = (count + 1) // 2 if halve else count
        else:
            points[name] = fixed[hand.result]
    return points


def score(rules: RummyRules, entry: Entry) -> RummyResult:
    """Score a checked hand entry."""
    points = charged_points(rules, entry)
    payments: list[_Payment] = []
    if not rules.is_pool and entry.kind != "void":
        if entry.kind == "wrong_show":
            for name in entry.players:
                if name != entry.shower and entry.result_of(name) not in DROPS:
                    if points[entry.shower]:
                        payments.append(_Payment(entry.shower, name, points[entry.shower] * entry.stake))
        else:
            payments = [_Payment(n, entry.winner, p * entry.stake) for n, p in points.items() if p > 0]
    transfers, net = net_payments(entry.players, payments)
    assert sum(net.values()) == 0
    pool = None
    if rules.is_pool:
        scores = {n: entry.scores_before[n] + points[n] for n in entry.players}
        eliminated = [n for n in entry.players if scores[n] >= rules.pool_limit]
        remaining = [n for n in entry.players if scores[n] < rules.pool_limit]
        over = len(remaining) <= 1
        pool = {"scores": scores, "eliminated": eliminated, "remaining": remaining, "over": over,
                "winner": remaining[0] if len(remaining) == 1 else None}
    return RummyResult(entry.kind, points, transfers, net, entry.winner, entry.shower, entry.kind == "void", pool)


def next_dealer(players: tuple[str, ...] | list[str], dealer: str) -> str:
    """§2: the next player in turn order deals the next hand (a void hand too)."""
    seats = list(players)
    if dealer not in seats:
        return seats[0]
    return seats[(seats.index(dealer) + 1) % len(seats)]


__all__ = ["RummyResult", "charged_points", "next_dealer", "score"]
