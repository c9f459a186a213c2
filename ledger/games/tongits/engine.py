"""The Tong-its engine's front door: check and score one entry (TONGITS.md §8, §9), giving the
§8.2 result.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.games.netting import net_payments
from ledger.games.tongits.entry import POT, Entry
from ledger.games.tongits.payouts import PotMove, pay
from ledger.games.tongits.ruleset import TongitsRules
from ledger.games.tongits.validation import read_entry
from ledger.transfers import Transfer


@dataclass(slots=True)
class TongitsResult:
    """One scored Tong-its entry (§8.2), a :class:`ledger.games.base.Scored`.

    ``transfers``: netted (§8.3), ``"pot"`` a party after every player; ``net``: every player
    (seat order, zeros included) and ``"pot"``, minor units, summing to 0; ``pot``: the pot's
    move and the state after; ``winner`` (``None``: washed, redeal, close); ``next_dealer``
    (when the entry named its dealer and it is not a ``close_pot``); ``detail``: facts for the
    describing sentences (``burned``, ``contested``...); ``points``: every counted hand."""

    kind: str
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    pot: PotMove
    winner: str | None
    redeal: bool
    next_dealer: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)

    @property
    def winners(self) -> tuple[str, ...]:
        return (self.winner,) if self.winner is not None else ()

    @property
    def state(self) -> dict[str, Any]:
        """The next hand's ``pot`` input: ``{"balance", "holder", "streak"}`` (§4.8)."""
        return self.pot.state.to_json()

    def to_json(self) -> dict[str, Any]:
        """Exactly §8.2: ``transfers``, ``net``, ``pot``, ``winner``, ``next_dealer`` when the
        dealer was given (not on a close), ``redeal: true`` only on a redeal."""
        out: dict[str, Any] = {
            "transfers": [t.to_json() for t in self.transfers],
            "net": dict(self.net),
            "pot": self.pot.to_json(),
            "winner": self.winner,
        }
        if self.next_dealer is not None:
            out["next_dealer"] = self.next_dealer
        if self.redeal:
            out["redeal"] = True
        return out


def score(rules: TongitsRules, entry: Entry) -> TongitsResult:
    """Score a checked entry (§4, §5, §8.3)."""
    payout = pay(rules, entry)
    transfers, net = net_payments((*entry.players, POT), payout.payments)
    assert sum(net.values()) == 0, "players and pot must sum to zero"
    assert net[POT] == payout.pot.balance_after - payout.pot.balance_before >= -payout.pot.balance_before
    kind = entry.outcome.kind
    nxt = None
    if entry.dealer is not None and kind != "close_pot":
        nxt = following_dealer(rules, entry.players, entry.dealer, kind, payout.winner)
    counted = {p: v for p in entry.players if (v := entry.points_of(p)) is not None}
    return TongitsResult(kind, transfers, net, payout.pot, payout.winner, kind == "redeal", nxt,
                         dict(payout.detail), counted)


def following_dealer(rules: TongitsRules, players: tuple[str, ...] | list[str], dealer: str, kind: str,
                     winner: str | None) -> str:
    """§2.3: after a redeal the same dealer; ``winner``: the winner, or the same dealer when
    nobody won; ``rotate``: the next seat after every played hand."""
    if kind == "redeal" or kind == "close_pot":
        return dealer
    if rules.next_dealer == "winner":
        return winner if winner is not None else dealer
    seats = list(players)
    if dealer not in seats:
        return seats[0]
    return seats[(seats.index(dealer) + 1) % len(seats)]


def score_entry(data: Any) -> TongitsResult:
    """A self-contained §8.1 entry (``ruleset``, ``players``, ``stake``, ``pot``...) → result;
    raises ``HandError`` with the first failing §9.1 code."""
    rules, entry = read_entry(data)
    return score(rules, entry)
