"""Tong-its behind the games interface (:class:`ledger.games.base.Game`): TONGITS.md.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.games.tongits.engine import TongitsResult, following_dealer, score, score_entry
from ledger.games.tongits.ruleset import PRESETS, Preset, TongitsRules
from ledger.games.tongits.validation import check_seated, read_entry


class Tongits:
    """The Tong-its game: one account besides the players, ``"pot"``, whose state (§4.8
    ``{"balance", "holder", "streak"}``) each hand hands to the next."""

    name = "tongits"
    accounts: tuple[str, ...] = ("pot",)

    @property
    def presets(self) -> tuple[Preset, ...]:
        """§7, in the order a table is offered them (``classic`` first)."""
        return tuple(PRESETS.values())

    def rules(self, spec: Mapping[str, Any] | None) -> TongitsRules:
        """:meth:`TongitsRules.from_spec`; raises ``HandError("invalid_ruleset")``."""
        return TongitsRules.from_spec(spec)

    def rules_from_snapshot(self, snapshot: Mapping[str, Any]) -> TongitsRules:
        """:meth:`TongitsRules.from_snapshot`."""
        return TongitsRules.from_snapshot(snapshot)

    def seat_range(self, rules: TongitsRules) -> range:
        """3 seats, or 3 to 4 with ``four_players`` (§2.1)."""
        return range(3, rules.max_players + 1)

    def initial_state(self, rules: TongitsRules, carried: Mapping[str, int] | None = None) -> dict[str, Any]:
        """A night's first pot (§4.8): the carried balance (minor units, ``carried["pot"]``, 0
        if none) with no holder."""
        balance = int((carried or {}).get("pot", 0))
        return {"balance": balance, "holder": None, "streak": 0}

    def score(
        self,
        rules: TongitsRules,
        *,
        players: Sequence[str],
        stake_minor: int,
        dealer: str | None,
        state: Mapping[str, Any] | None,
        entry: Mapping[str, Any],
    ) -> TongitsResult:
        """The entry's ``outcome`` and ``hands`` at this table, the pot ``state`` the previous
        hand left; raises ``HandError`` (§9.1)."""
        data = {
            "players": list(players), "stake": stake_minor, "dealer": dealer,
            "pot": None if state is None else dict(state),
            "outcome": entry.get("outcome"), "hands": entry.get("hands"),
        }
        _, checked = read_entry(data, rules)
        return score(rules, checked)

    def score_entry(self, entry: Mapping[str, Any]) -> TongitsResult:
        """A self-contained §8.1 entry; raises ``HandError``."""
        return score_entry(entry)

    def check_seated(self, state: Mapping[str, Any] | None, players: Sequence[str]) -> None:
        """§4.9: a pot's streak never stays with a player who left; raises
        ``HandError("unknown_player")`` (field ``pot.holder``)."""
        check_seated(state, players)

    def next_dealer(self, rules: TongitsRules, players: Sequence[str], dealer: str, result: TongitsResult) -> str:
        """§2.3: the winner (or the same dealer after a wash or a redeal), or the next seat
        with ``next_dealer = rotate``."""
        return following_dealer(rules, tuple(players), dealer, result.kind, result.winner)


TONGITS = Tongits()
