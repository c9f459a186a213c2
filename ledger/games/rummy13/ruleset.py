"""13-card rummy rule sets: every toggle of RUMMY13.md §6 and the four presets of §7.

A :class:`RummyRules` is immutable and complete, so a night stores ``rules.snapshot()`` and
rebuilds the same rules later with :meth:`RummyRules.from_snapshot`.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ledger.games.rummy13.errors import refuse

_UNSET = object()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# the most a points house rule may be: far above any table's, and low enough that every amount a
# night can reach fits the books' 64-bit integers (10**15 drop points made a hand that could not be stored)
MOST = 10_000


def _points(value: Any, least: int) -> bool:
    return _is_int(value) and least <= value <= MOST


# name: (check, default); each check returns True when the value is allowed (§6)
_CHECKS: dict[str, Any] = {
    "format": lambda v: v in ("points", "pool"),
    "min_players": lambda v: _is_int(v) and 2 <= v <= 6,
    "max_players": lambda v: _is_int(v) and 2 <= v <= 6,
    "decks": lambda v: _is_int(v) and v in (1, 2, 3),
    "printed_jokers_per_deck": lambda v: _is_int(v) and v in (0, 1, 2),
    "ace_points": lambda v: _is_int(v) and v in (1, 10),
    "count_cap": lambda v: v is None or _points(v, 1),
    "loser_melds_rule": lambda v: v in ("two_sequences", "pure_first"),
    "no_pure_full_count": lambda v: isinstance(v, bool),
    "round_to_five": lambda v: isinstance(v, bool),
    "first_drop_points": lambda v: _points(v, 0),
    "middle_drop_points": lambda v: _points(v, 0),
    "wrong_show_points": lambda v: _points(v, 0),
    "full_count_points": lambda v: _points(v, 0),
    "wrong_show_mode": lambda v: v in ("continue", "ends_hand"),
    "set_max_size": lambda v: _is_int(v) and 4 <= v <= 8,
    "min_natural_cards": lambda v: _is_int(v) and v in (0, 1, 2),
    "first_turn_show_half": lambda v: isinstance(v, bool),
    "pool_limit": lambda v: _points(v, 2),
    "rejoin_max_score": lambda v: v is None or _points(v, 0),
}


@dataclass(frozen=True, slots=True)
class RummyRules:
    """Every toggle of §6 (defaults = the ``points_rummy`` preset) and the preset's name."""

    preset: str = "points_rummy"
    format: str = "points"
    min_players: int = 2
    max_players: int = 6
    decks: int = 2
    printed_jokers_per_deck: int = 1
    ace_points: int = 10
    count_cap: int | None = 80
    loser_melds_rule: str = "two_sequences"
    no_pure_full_count: bool = False
    round_to_five: bool = False
    first_drop_points: int = 20
    middle_drop_points: int = 40
    wrong_show_points: int = 80
    full_count_points: int = 80
    wrong_show_mode: str = "continue"
    set_max_size: int = 4
    min_natural_cards: int = 1
    first_turn_show_half: bool = False
    pool_limit: int = 101
    rejoin_max_score: int | None = 79

    @property
    def is_pool(self) -> bool:
        return self.format == "pool"

    def snapshot(self) -> dict[str, Any]:
        """Every toggle's value and ``preset``: what a night stores."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> RummyRules:
        """The rules a night stored with :meth:`snapshot`; raises ``HandError("invalid_ruleset")``."""
        if not isinstance(snapshot, Mapping) or snapshot.get("preset") not in PRESETS:
            refuse("invalid_ruleset", "ruleset")
        toggles = {k: v for k, v in snapshot.items() if k != "preset"}
        return _with_toggles(PRESETS[snapshot["preset"]].rules, toggles)

    @classmethod
    def from_spec(cls, spec: Any) -> RummyRules:
        """``{"preset": name, "toggles": {...}}`` (§8.1; ``None`` = ``points_rummy``); raises
        ``HandError("invalid_ruleset")`` for an unknown preset or toggle, a wrong type or range,
        or ``min_players > max_players`` (§6, §9.1 step 0)."""
        if spec is None:
            return PRESETS["points_rummy"].rules
        if not isinstance(spec, Mapping):
            refuse("invalid_ruleset", "ruleset")
        name = spec.get("preset", "points_rummy")
        if not isinstance(name, str) or name not in PRESETS:
            refuse("invalid_ruleset", "ruleset.preset", name=str(name))
        toggles = spec.get("toggles", {})
        if toggles is None:
            toggles = {}
        if not isinstance(toggles, Mapping):
            refuse("invalid_ruleset", "ruleset.toggles")
        return _with_toggles(PRESETS[name].rules, toggles)


def _with_toggles(base: RummyRules, toggles: Mapping[str, Any]) -> RummyRules:
    for name, value in toggles.items():
        check = _CHECKS.get(name) if isinstance(name, str) else None
        if check is None or not check(value):
            refuse("invalid_ruleset", f"ruleset.toggles.{name}", name=str(name))
    rules = replace(base, **dict(toggles))
    if rules.min_players > rules.max_players:
        refuse("invalid_ruleset", "ruleset.toggles.min_players", name="min_players")
    return rules


@dataclass(frozen=True, slots=True)
class Preset:
    """A named preset of §7: ``name`` and its complete ``rules``."""

    name: str
    rules: RummyRules

    def ruleset(self) -> RummyRules:
        return self.rules


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("points_rummy", RummyRules()),
        Preset("home_table", RummyRules(preset="home_table", wrong_show_mode="ends_hand",
                                        loser_melds_rule="pure_first")),
        Preset("pool_101", RummyRules(preset="pool_101", format="pool", pool_limit=101, rejoin_max_score=79)),
        Preset("pool_201", RummyRules(preset="pool_201", format="pool", pool_limit=201, first_drop_points=25,
                                      middle_drop_points=50, rejoin_max_score=174)),
    )
}
