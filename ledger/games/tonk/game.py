"""Tonk behind the games interface (:class:`ledger.games.base.Game`), RULES.md unchanged."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.games.tonk.engine import HandResult, score_entry, score_hand
from ledger.games.tonk.entry import parse_hand
from ledger.games.tonk.ruleset import PRESETS, Preset, RuleSet


class Tonk:
    """The Tonk game (RULES.md): no accounts beyond the players, no state between hands."""

    name = "tonk"
    accounts: tuple[str, ...] = ()

    @property
    def presets(self) -> tuple[Preset, ...]:
        """RULES.md §7, in the order a table is offered them."""
        return tuple(PRESETS.values())

    def rules(self, spec: Mapping[str, Any] | None) -> RuleSet:
        """:meth:`RuleSet.from_spec`; raises ``HandError("invalid_ruleset")``."""
        return RuleSet.from_spec(spec)

    def rules_from_snapshot(self, snapshot: Mapping[str, Any]) -> RuleSet:
        """:meth:`RuleSet.from_snapshot`."""
        return RuleSet.from_snapshot(snapshot)

    def seat_range(self, rules: RuleSet) -> range:
        """``min_players`` to ``max_players`` of the rule set (RULES.md §6)."""
        return range(rules.min_players, rules.max_players + 1)

    def initial_state(self, rules: RuleSet, carried: Mapping[str, int] | None = None) -> None:
        """Tonk keeps nothing from hand to hand."""
        return None

    def score(
        self,
        rules: RuleSet,
        *,
        players: Sequence[str],
        stake_minor: int,
        dealer: str | None,
        state: Mapping[str, Any] | None,
        entry: Mapping[str, Any],
    ) -> HandResult:
        """RULES.md §8.1 ``outcome``, ``hands`` and ``side_bets`` of ``entry``, at this table;
        raises ``HandError`` (§9.1)."""
        record = parse_hand(
            players=tuple(players), stake=stake_minor, outcome=entry.get("outcome"),
            hands=entry.get("hands"), side_bets=entry.get("side_bets"),
        )
        return score_hand(rules, record)

    def score_entry(self, entry: Mapping[str, Any]) -> HandResult:
        """A self-contained RULES.md §8.1 entry; raises ``HandError``."""
        return score_entry(entry)

    def check_seated(self, state: Mapping[str, Any] | None, players: Sequence[str]) -> None:
        """Nothing to refuse: no state names a player who left."""

    def next_dealer(self, rules: RuleSet, players: Sequence[str], dealer: str, result: HandResult) -> str:
        """One seat clockwise, after every hand, redeals included (RULES.md §2)."""
        seats = list(players)
        if dealer not in seats:
            return seats[0]
        return seats[(seats.index(dealer) + 1) % len(seats)]


TONK = Tonk()
