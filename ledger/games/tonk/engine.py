"""The rules engine's front door: score one entered hand (RULES.md §4, §8, §9).

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.games.tonk.entry import HandRecord, parse_entry
from ledger.games.netting import net_payments
from ledger.games.tonk.payouts import main_payout, side_pot_payments
from ledger.games.tonk.ruleset import RuleSet
from ledger.games.tonk.validation import check_entry
from ledger.transfers import Transfer


@dataclass(slots=True)
class HandResult:
    """The exact result of one hand (§8.2).

    ``transfers``: canonical netted transfers (§8.3), amounts in minor units; ``net``: every
    player's signed int in seat order (sums to 0); ``redeal``: the main hand was a no-pay draw;
    ``winners``: who won the main hand, seat order (empty on a redeal); ``kind`` the outcome;
    ``detail``: facts used to describe the hand (``mult``, ``result``, counts...);
    ``counts``: the count of every hand given, for display.
    """

    kind: str
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    redeal: bool
    winners: tuple[str, ...]
    detail: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    side_pot_winner: str | None = None

    @property
    def state(self) -> None:
        """Tonk keeps no state from hand to hand (:class:`ledger.games.base.Scored`)."""
        return None

    def to_json(self) -> dict[str, Any]:
        """``{"transfers": [{"from","to","amount"}], "net": {...}, "redeal": bool,
        "winners": [...]}``: the §8.2 shape plus ``redeal: false`` and ``winners``."""
        return {
            "transfers": [t.to_json() for t in self.transfers],
            "net": dict(self.net),
            "redeal": self.redeal,
            "winners": list(self.winners),
        }


def score_hand(rules: RuleSet, record: HandRecord) -> HandResult:
    """Check ``record`` under ``rules`` and work out its payouts.

    Returns a :class:`HandResult`. Raises :class:`~ledger.games.errors.HandError` with the first
    failing §9.1 code (``invalid_entry`` for a malformed record).
    """
    checked = check_entry(rules, record)
    payout = main_payout(checked)
    side = side_pot_payments(checked, payout.redeal)
    transfers, net = net_payments(checked.players, payout.payments + side)
    assert sum(net.values()) == 0, "a hand's payouts must sum to zero"
    side_winner = side[0].payee if side else None
    return HandResult(
        kind=record.outcome.kind,
        transfers=transfers,
        net=net,
        redeal=payout.redeal,
        winners=payout.winners,
        detail=dict(payout.detail),
        counts=checked.counts,
        side_pot_winner=side_winner,
    )


def score_entry(entry: Mapping[str, Any]) -> HandResult:
    """Score a self-contained §8.1 entry (with ``ruleset``, ``players`` and ``stake``).

    Raises :class:`~ledger.games.errors.HandError` (``invalid_ruleset``, ``invalid_entry`` or
    a §9.1 code).
    """
    record = parse_entry(entry)
    rules = RuleSet.from_spec(entry.get("ruleset")) if isinstance(entry, (dict, Mapping)) else RuleSet()
    return score_hand(rules, record)
