"""Tong-its rule sets: every toggle of TONGITS.md §6 and the four presets of §7.

A :class:`TongitsRules` is immutable and complete (every toggle has a value), so a night stores
``rules.snapshot()`` when it starts and rebuilds exactly that rule set later with
:meth:`TongitsRules.from_snapshot`, whatever later happens to the presets.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from ledger.games.errors import HandError
from ledger.sentences import N_, render

_OBJECT = (dict, Mapping)


# the most a whole-number house rule may be (chips or percent of c, a streak's length): far above any
# table's, and low enough that every amount a night can reach fits the books' 64-bit integers
# (a toggle of 10**15 at the largest stake made a hand that could not be stored)
MOST = 10_000


@dataclass(frozen=True, slots=True)
class Toggle:
    """How one toggle of §6 is checked: ``kind`` ``bool``, ``int`` (``minimum`` to :data:`MOST`,
    or one of ``choices``) or ``choice`` (one of ``choices``)."""

    name: str
    kind: str
    choices: tuple[Any, ...] = ()
    minimum: int = 0


TOGGLES: dict[str, Toggle] = {
    t.name: t
    for t in (
        Toggle("four_players", "bool"),
        Toggle("next_dealer", "choice", ("winner", "rotate")),
        Toggle("unit", "choice", ("chips", "percent")),
        Toggle("tongits_base", "int"),
        Toggle("stock_out_base", "int"),
        Toggle("draw_uncontested_base", "int"),
        Toggle("draw_fought_base", "int"),
        Toggle("draw_folded_base", "int"),
        Toggle("fighter_points", "choice", ("none", "difference", "own")),
        Toggle("fighter_point_value", "int"),
        Toggle("burn_extra", "int"),
        Toggle("burn_extra_draw", "int"),
        Toggle("ace_bonus", "int"),
        Toggle("king_bonus", "int"),
        Toggle("secret_bonus", "int"),
        Toggle("escalera_bonus", "int"),
        Toggle("escalera_length", "int", (4, 5)),
        Toggle("bonuses_on_tongits", "bool"),
        Toggle("loser_secret_bonus", "int"),
        Toggle("streak_bonus", "int"),
        Toggle("streak_bonus_step", "int"),
        Toggle("secret_allows_fight", "bool"),
        Toggle("pot_ante", "int"),
        Toggle("pot_opening_ante", "int"),
        Toggle("pot_take_streak", "int", minimum=1),
        Toggle("pot_after_take", "choice", ("keep", "reset")),
        Toggle("pot_at_end", "choice", ("split", "carry")),
        Toggle("pot_on_seat_change", "choice", ("split", "keep")),
    )
}


@dataclass(frozen=True, slots=True)
class TongitsRules:
    """A complete Tong-its rule set: the preset it started from and every §6 toggle. Defaults
    are ``classic`` (§7). Integer toggles are whole units of §0 (chips, or percent of c)."""

    preset: str = "classic"
    four_players: bool = False
    next_dealer: str = "winner"
    unit: str = "chips"
    tongits_base: int = 3
    stock_out_base: int = 1
    draw_uncontested_base: int = 1
    draw_fought_base: int = 3
    draw_folded_base: int = 3
    fighter_points: str = "none"
    fighter_point_value: int = 1
    burn_extra: int = 1
    burn_extra_draw: int = 1
    ace_bonus: int = 1
    king_bonus: int = 0
    secret_bonus: int = 3
    escalera_bonus: int = 0
    escalera_length: int = 5
    bonuses_on_tongits: bool = True
    loser_secret_bonus: int = 0
    streak_bonus: int = 0
    streak_bonus_step: int = 0
    secret_allows_fight: bool = False
    pot_ante: int = 2
    pot_opening_ante: int = 2
    pot_take_streak: int = 2
    pot_after_take: str = "keep"
    pot_at_end: str = "split"
    pot_on_seat_change: str = "split"

    @classmethod
    def from_spec(cls, spec: Any) -> TongitsRules:
        """From ``{"preset": name, "toggles": {name: value}}`` (§8.1): ``spec``, ``preset`` or
        ``toggles`` absent or null = ``classic`` with no overrides. Raises ``HandError``
        ``invalid_ruleset`` (§9.1 #1) naming the field: ``ruleset`` not an object, an unknown
        preset or key, ``toggles`` not an object, an unknown toggle or a value outside §6."""
        if spec is None:
            spec = {}
        if not isinstance(spec, _OBJECT):
            raise HandError("invalid_ruleset", N_("The rules must be an object with a preset and toggles."), "ruleset")
        extra = sorted(set(spec) - {"preset", "toggles"}, key=str)
        if extra:
            raise HandError("invalid_ruleset", N_("The rules have no setting called {name}."),
                            f"ruleset.{extra[0]}", name=repr(extra[0]))
        name = spec.get("preset")
        preset = find_preset("classic" if name is None else name)
        toggles = spec.get("toggles")
        if toggles is None:
            toggles = {}
        if not isinstance(toggles, _OBJECT):
            raise HandError("invalid_ruleset", N_("Toggles must be an object of name: value."), "ruleset.toggles")
        values = dict(preset.values)
        values.update(toggles)
        return cls._build(preset.name, values, "ruleset.toggles")

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> TongitsRules:
        """Exactly the rule set :meth:`snapshot` stored (no preset lookup); ``invalid_ruleset``
        if it holds an unknown toggle or a bad value."""
        values = dict(snapshot)
        preset = values.pop("preset", "classic")
        if not isinstance(preset, str):
            raise HandError("invalid_ruleset", N_("The stored rules name no preset."), "ruleset.preset")
        return cls._build(preset, values, "ruleset")

    @classmethod
    def _build(cls, preset: str, values: Mapping[str, Any], where: str) -> TongitsRules:
        clean: dict[str, Any] = {}
        for name, value in values.items():
            toggle = TOGGLES.get(name) if isinstance(name, str) else None
            if toggle is None:
                raise HandError("invalid_ruleset", N_("There is no house rule called {name}."), f"{where}.{name}",
                                name=repr(name))
            clean[name] = _checked(toggle, value, f"{where}.{name}")
        return replace(cls(preset=preset), **clean)

    def snapshot(self) -> dict[str, Any]:
        """Every toggle's value plus ``preset``, JSON-ready."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def differences(self) -> dict[str, Any]:
        """The toggles whose values differ from ``classic``'s."""
        base = TongitsRules().snapshot()
        return {k: v for k, v in self.snapshot().items() if k != "preset" and base[k] != v}

    @property
    def max_players(self) -> int:
        """3, or 4 with ``four_players`` (§2.1)."""
        return 4 if self.four_players else 3


def money(rules: TongitsRules, units: int, stake: int) -> int:
    """§5.5: ``unit = chips``: units × c; ``unit = percent``: ⌊(units × c + 50) / 100⌋ (half up),
    once per payment. Minor units, never negative for units ≥ 0."""
    if rules.unit == "chips":
        return units * stake
    return (units * stake + 50) // 100


def _checked(toggle: Toggle, value: Any, path: str) -> Any:
    def refuse(template: str) -> HandError:
        return HandError("invalid_ruleset", template, path, name=toggle.name, value=repr(value),
                         choices=", ".join(str(c) for c in toggle.choices), least=toggle.minimum, most=MOST)

    if toggle.kind == "bool":
        if not isinstance(value, bool):
            raise refuse(N_("House rule {name} must be true or false; got {value}."))
        return value
    if toggle.kind == "int":
        if type(value) is not int:
            raise refuse(N_("House rule {name} must be a whole number; got {value}."))
        if toggle.choices and value not in toggle.choices:
            raise refuse(N_("House rule {name} must be one of {choices}; got {value}."))
        if value < toggle.minimum:
            raise refuse(N_("House rule {name} must be at least {least}; got {value}."))
        if value > MOST:
            raise refuse(N_("House rule {name} must be at most {most}; got {value}."))
        return value
    if not isinstance(value, str) or value not in toggle.choices:
        raise refuse(N_("House rule {name} must be one of {choices}; got {value}."))
    return value


# -- presets (§7) ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Preset:
    """A named full set of toggle values (§7); ``values`` are those differing from ``classic``.
    ``title`` and ``description`` are in the language being written now."""

    name: str
    title_template: str
    description_template: str
    values: Mapping[str, Any]

    @property
    def title(self) -> str:
        return render(self.title_template, {})

    @property
    def description(self) -> str:
        return render(self.description_template, {})

    def ruleset(self) -> TongitsRules:
        return TongitsRules.from_spec({"preset": self.name})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("classic", N_("Classic chips"),
               N_("Pagat's chip table: tong-its 3, a draw or stock out 1, aces and secrets pay extra, "
                  "and a 2-chip pot taken by two wins in a row."), {}),
        Preset("points", N_("Points sheet"),
               N_("A home points sheet: normal win 2, tong-its 3, fighters pay their own points twice, "
                  "bonuses of 2 and a win streak of 3; no pot."),
               {"stock_out_base": 2, "draw_uncontested_base": 2, "draw_folded_base": 2, "fighter_points": "own",
                "fighter_point_value": 2, "burn_extra": 2, "burn_extra_draw": 2, "ace_bonus": 2, "king_bonus": 2,
                "secret_bonus": 2, "escalera_bonus": 2, "loser_secret_bonus": 2, "streak_bonus": 3,
                "pot_ante": 0, "pot_opening_ante": 0}),
        Preset("percent_of_ante", N_("Percent of ante"),
               N_("Percentages of the ante as played online: tong-its 40 %, a lost fight 50 %, a fold 20 %, "
                  "and every hand's winner takes the antes."),
               {"unit": "percent", "tongits_base": 40, "stock_out_base": 40, "draw_uncontested_base": 20,
                "draw_fought_base": 50, "draw_folded_base": 20, "burn_extra": 0, "burn_extra_draw": 20,
                "ace_bonus": 20, "king_bonus": 20, "secret_bonus": 20, "escalera_bonus": 20,
                "secret_allows_fight": True, "pot_ante": 100, "pot_opening_ante": 100, "pot_take_streak": 1}),
        Preset("growing_pot", N_("Growing pot"),
               N_("A family chip counter: tong-its 5, a won fight 5, a simple win 3, fighters pay the point "
                  "difference, and a pot of 3 each then 1 each per hand."),
               {"tongits_base": 5, "stock_out_base": 3, "draw_uncontested_base": 3, "draw_fought_base": 5,
                "draw_folded_base": 3, "fighter_points": "difference", "burn_extra": 0, "burn_extra_draw": 0,
                "secret_bonus": 0, "bonuses_on_tongits": False, "pot_ante": 1, "pot_opening_ante": 3}),
    )
}


def find_preset(name: object) -> Preset:
    """The preset called ``name`` exactly (§7); ``HandError("invalid_ruleset")`` on
    ``ruleset.preset`` otherwise."""
    if isinstance(name, str) and name in PRESETS:
        return PRESETS[name]
    raise HandError("invalid_ruleset", N_("Unknown rules preset {name}; choose one of {known}."), "ruleset.preset",
                    name=repr(name), known=", ".join(PRESETS))
