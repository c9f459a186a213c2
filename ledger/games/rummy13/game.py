"""13-card rummy behind the games interface (:class:`ledger.games.base.Game`): RUMMY13.md.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.games.rummy13.engine import RummyResult, next_dealer, score
from ledger.games.rummy13.entry import read_entry
from ledger.games.rummy13.ruleset import PRESETS, Preset, RummyRules
from ledger.games.rummy13.pool_night import END_KIND, end_pool, score_pool_hand
from ledger.games.rummy13.settlement import PoolSettlement, settle


def score_entry(data: Any) -> RummyResult | PoolSettlement:
    """A self-contained §8.1 hand entry, or a §8.4 pool settlement entry (one with
    ``pool_settlement``), → its §8.2 / §8.4 result; raises ``HandError`` with the first failing
    §9.1 code."""
    rules = RummyRules.from_spec(data.get("ruleset") if isinstance(data, Mapping) else None)
    if isinstance(data, Mapping) and "pool_settlement" in data:
        return settle(rules, data)
    return score(rules, read_entry(data, rules))


class Rummy13:
    """13-card Indian rummy: no accounts besides the players; in pool format the state each hand
    hands on is the running scores (§4.9)."""

    name = "rummy13"
    accounts: tuple[str, ...] = ()

    @property
    def presets(self) -> tuple[Preset, ...]:
        """§7 in the order a table is offered them (``points_rummy`` first)."""
        return tuple(PRESETS.values())

    def rules(self, spec: Mapping[str, Any] | None) -> RummyRules:
        """:meth:`RummyRules.from_spec`; raises ``HandError("invalid_ruleset")``."""
        return RummyRules.from_spec(spec)

    def rules_from_snapshot(self, snapshot: Mapping[str, Any]) -> RummyRules:
        return RummyRules.from_snapshot(snapshot)

    def seat_range(self, rules: RummyRules) -> range:
        """``min_players`` to ``max_players`` (§2; 2 to 6 by default)."""
        return range(rules.min_players, rules.max_players + 1)

    def initial_state(self, rules: RummyRules, carried: Mapping[str, int] | None = None) -> dict[str, Any] | None:
        """Points format: ``None``; pool format: ``{"scores": {}}`` (every player starts at 0)."""
        return {"scores": {}} if rules.is_pool else None

    def score(
        self,
        rules: RummyRules,
        *,
        players: Sequence[str],
        stake_minor: int,
        dealer: str | None,
        state: Mapping[str, Any] | None,
        entry: Mapping[str, Any],
    ) -> RummyResult:
        """The entry's ``wild_rank``, ``outcome``, ``hands`` (and ``pool.rejoined``) at this
        table; in pool format the scores before the hand come from ``state`` and the hand is dealt
        to the players still in (:func:`ledger.games.rummy13.pool_night.score_pool_hand`; an
        outcome of kind ``pool_end`` pays the pot, :func:`~ledger.games.rummy13.pool_night.end_pool`,
        ``stake_minor`` being the entry fee). Raises ``HandError`` (§9.1)."""
        if rules.is_pool:  # a pool night (pool_night): the scores go on, the end pays the pot
            outcome = entry.get("outcome")
            if isinstance(outcome, Mapping) and outcome.get("kind") == END_KIND:
                return end_pool(rules, players, stake_minor, state, outcome)  # type: ignore[return-value]
            return score_pool_hand(rules, players, state, entry)
        data: dict[str, Any] = {
            "players": list(players), "stake": stake_minor, "wild_rank": entry.get("wild_rank"),
            "outcome": entry.get("outcome"), "hands": entry.get("hands", {}),
        }
        return score(rules, read_entry(data, rules))

    def score_entry(self, entry: Mapping[str, Any]) -> RummyResult | PoolSettlement:
        return score_entry(entry)

    def check_seated(self, state: Mapping[str, Any] | None, players: Sequence[str]) -> None:
        """Nothing to refuse: no state names a player who left."""

    def next_dealer(self, rules: RummyRules, players: Sequence[str], dealer: str, result: Any) -> str:
        """§2: the next player in turn order, after every hand."""
        return next_dealer(tuple(players), dealer)


RUMMY13 = Rummy13()
