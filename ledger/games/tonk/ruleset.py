"""Rule sets: every house-rule toggle of RULES.md §6 and the named presets of §7.

A :class:`RuleSet` is immutable and complete (every toggle has a value), so a session can store
``ruleset.snapshot()`` when the night starts and rebuild exactly that rule set later with
:meth:`RuleSet.from_snapshot`, whatever later happens to the preset definitions.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ledger.games.errors import HandError
from ledger.sentences import N_, render


@dataclass(frozen=True, slots=True)
class LowDealRule:
    """House rule of §4.2: a dealt hand totalling ``max_total`` or less is paid ``mult`` × S."""

    max_total: int
    mult: int

    def to_json(self) -> dict[str, int]:
        return {"max_total": self.max_total, "mult": self.mult}


@dataclass(frozen=True, slots=True)
class Toggle:
    """How one toggle of §6 is validated: ``kind`` is ``bool``, ``int``, ``choice`` or
    ``low_deal_rules``; ``choices`` holds the allowed values (ints or strings) where they are
    a closed set; ``minimum``/``maximum`` bound an ``int``."""

    name: str
    kind: str
    section: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


TOGGLES: dict[str, Toggle] = {
    t.name: t
    for t in (
        Toggle("min_players", "int", "§2", minimum=2, maximum=8),
        Toggle("max_players", "int", "§2", minimum=2, maximum=8),
        Toggle("hand_size", "int", "§2", choices=(5, 7, 9)),
        Toggle("jokers", "int", "§1.4", choices=(0, 2)),
        Toggle("joker_value_mode", "choice", "§1.4", choices=("fixed", "declared")),
        Toggle("joker_hand_value", "int", "§1.4", minimum=0, maximum=10),
        Toggle("min_natural_cards_per_spread", "int", "§1.4", minimum=1, maximum=3),
        Toggle("ace_in_runs", "choice", "§3.1", choices=("low_only", "high_or_low")),
        Toggle("deal_tonk_mult_50", "int", "§4.1", minimum=1, maximum=4),
        Toggle("deal_tonk_mult_49", "int", "§4.1", minimum=1, maximum=4),
        Toggle("deal_tonk_49_timing", "choice", "§4.1", choices=("immediate", "in_turn")),
        Toggle("low_deal_rules", "low_deal_rules", "§4.2"),
        Toggle("low_rules_apply_to", "choice", "§4.2", choices=("deal", "deal_and_knock_win")),
        Toggle(
            "tonk_out_double_requires", "choice", "§4.3",
            choices=("any", "new_spread", "six_card_spread"),
        ),
        Toggle(
            "caught_model", "choice", "§4.6",
            choices=("pagat", "wikipedia", "at_or_below_only", "lowest_only"),
        ),
        Toggle("caught_knocker_pays_low_on_top", "bool", "§4.6"),
        Toggle(
            "knock_tie_rule", "choice", "§4.7",
            choices=("caught", "knocker_wins", "tied_players_win_single"),
        ),
        Toggle("dry_stock_tie", "choice", "§4.8", choices=("redeal", "all_lows_paid")),
        Toggle("hit_penalty_turns_per_hit", "int", "§3.5", choices=(0, 1, 2, 3)),
        Toggle("must_lay_spreads", "bool", "§3.4"),
        Toggle("three_aces_exception", "bool", "§3.4"),
        Toggle("held_spreads_count", "bool", "§3.4"),
        Toggle("drop_timing", "choice", "§6", choices=("start_of_turn", "any")),
        Toggle("double_double", "bool", "§4.9"),
        Toggle("double_double_collector", "choice", "§4.9", choices=("first_tonker", "responder")),
        Toggle("double_double_two_player_only", "bool", "§4.9"),
        Toggle("spade_side_pot", "bool", "§4.10"),
        Toggle("spade_ace_high", "bool", "§4.10"),
        Toggle("spade_pot_on_redeal", "choice", "§4.10", choices=("settle", "void")),
    )
}

LOW_DEAL_MAX_TOTAL = 90  # 9 cards of 10 points: the largest dealt total of any hand size


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A complete rule set: the preset it started from plus the value of every §6 toggle.

    Defaults are the ``classic`` preset (§7). Build one with :meth:`from_spec` (preset name +
    overrides, validated) or :meth:`from_snapshot` (a stored full snapshot).
    """

    preset: str = "classic"
    min_players: int = 2
    max_players: int = 4
    hand_size: int = 5
    jokers: int = 0
    joker_value_mode: str = "fixed"
    joker_hand_value: int = 0
    min_natural_cards_per_spread: int = 2
    ace_in_runs: str = "low_only"
    deal_tonk_mult_50: int = 2
    deal_tonk_mult_49: int = 2
    deal_tonk_49_timing: str = "immediate"
    low_deal_rules: tuple[LowDealRule, ...] = field(default_factory=tuple)
    low_rules_apply_to: str = "deal"
    tonk_out_double_requires: str = "any"
    caught_model: str = "pagat"
    caught_knocker_pays_low_on_top: bool = False
    knock_tie_rule: str = "caught"
    dry_stock_tie: str = "redeal"
    hit_penalty_turns_per_hit: int = 0
    must_lay_spreads: bool = False
    three_aces_exception: bool = True
    held_spreads_count: bool = True
    drop_timing: str = "start_of_turn"
    double_double: bool = False
    double_double_collector: str = "first_tonker"
    double_double_two_player_only: bool = True
    spade_side_pot: bool = False
    spade_ace_high: bool = True
    spade_pot_on_redeal: str = "settle"

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> RuleSet:
        """Build from ``{"preset": name-or-alias, "toggles": {name: value}}`` (§8.1).

        A missing spec or preset means ``classic``. Raises :class:`HandError` with code
        ``invalid_ruleset`` and ``field`` naming the preset or toggle when the preset is
        unknown, a toggle is unknown, or a value is of the wrong type or out of range.
        Rule sets are immutable: the same toggle values give back the same object
        (remembered, see :meth:`_build`).
        """
        if spec is None:
            spec = {}
        if not isinstance(spec, _OBJECT):
            raise HandError("invalid_ruleset", N_("The rules must be an object with a preset and toggles."), "ruleset")
        preset_name = spec.get("preset", "classic")
        preset = find_preset(preset_name)
        toggles = spec.get("toggles") or {}
        if not isinstance(toggles, _OBJECT):
            raise HandError("invalid_ruleset", N_("Toggles must be an object of name: value."), "ruleset.toggles")
        if not _SPEC_FIELDS.issuperset(spec):
            name = sorted(set(spec) - _SPEC_FIELDS)[0]
            raise HandError("invalid_ruleset", N_("The rules have no setting called {name}."), f"ruleset.{name}",
                            name=repr(name))
        values = dict(preset.overrides)
        values.update(toggles)
        return cls._build(preset.name, values, "ruleset.toggles")

    @classmethod
    def from_snapshot(cls, snapshot: Mapping[str, Any]) -> RuleSet:
        """Rebuild exactly the rule set that :meth:`snapshot` stored (no preset lookup)."""
        values = dict(snapshot)
        preset = values.pop("preset", "classic")
        if not isinstance(preset, str):
            raise HandError("invalid_ruleset", N_("The stored rules name no preset."), "ruleset.preset")
        return cls._build(preset, values, "ruleset")

    @classmethod
    def _build(cls, preset: str, values: Mapping[str, Any], where: str) -> RuleSet:
        """The rule set of ``preset`` with the toggle ``values`` (checked; ``where`` prefixes
        the field of a refusal). Rule sets are immutable, so each one checked is remembered
        by its values (:data:`_BUILT`); a refusal is raised again each time."""
        key = _json_key(values)
        if key is not None:
            known = _BUILT.get((cls, preset, key))
            if known is not None:
                return known
        ruleset = cls._check_values(preset, values, where)
        if key is not None:
            if len(_BUILT) >= _BUILT_LIMIT:
                _BUILT.clear()
            _BUILT[(cls, preset, key)] = ruleset
        return ruleset

    @classmethod
    def _check_values(cls, preset: str, values: Mapping[str, Any], where: str) -> RuleSet:
        clean: dict[str, Any] = {}
        for name, value in values.items():
            toggle = TOGGLES.get(name)
            if toggle is None:
                raise HandError("invalid_ruleset", N_("There is no house rule called {name}."), f"{where}.{name}",
                                name=repr(name))
            clean[name] = _check_toggle(toggle, value, f"{where}.{name}")
        ruleset = cls(preset=preset, **clean)
        if ruleset.min_players > ruleset.max_players:
            raise HandError(
                "invalid_ruleset",
                N_("min_players ({least}) cannot be above max_players ({most})."),
                f"{where}.min_players", least=ruleset.min_players, most=ruleset.max_players,
            )
        return ruleset

    # -- output -------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Every toggle's value plus ``preset``, as JSON-ready data (lists, not tuples)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "low_deal_rules":
                value = [rule.to_json() for rule in value]
            out[f.name] = value
        return out

    def differences(self) -> dict[str, Any]:
        """The toggles whose values differ from the ``classic`` defaults (JSON-ready)."""
        base = RuleSet().snapshot()
        mine = self.snapshot()
        return {k: v for k, v in mine.items() if k != "preset" and base[k] != v}

    # -- derived ------------------------------------------------------------------------------
    def max_hand_cards(self, *, knocker: bool = False) -> int:
        """Most cards an end hand may hold (§9.1 item 10): ``hand_size``, +1 for a knocker when
        ``drop_timing = any``."""
        return self.hand_size + (1 if knocker and self.drop_timing == "any" else 0)

    def low_deal_mult(self, total: int) -> int | None:
        """The highest multiplier among the low-deal rules that ``total`` meets (§4.2), else None."""
        matching = [rule.mult for rule in self.low_deal_rules if total <= rule.max_total]
        return max(matching) if matching else None


_SPEC_FIELDS = frozenset({"preset", "toggles"})
# what an object of a rule set may be: a dict (as parsed JSON is, checked first because it is
# quickest) or any other mapping
_OBJECT = (dict, Mapping)
# Rule sets already checked, by (class, preset, the values' key); cleared when full.
_BUILT: dict[tuple[Any, ...], RuleSet] = {}
_BUILT_LIMIT = 512
_JSON_SCALARS = (str, int, bool, float, type(None))


def _json_key(value: Any) -> tuple[Any, ...] | None:
    """A hashable copy of parsed JSON (dicts with text keys, lists, scalars) that keeps every
    type (``1``, ``1.0`` and ``True`` stay apart, as the toggle checks tell them apart), or
    ``None`` when ``value`` holds anything else (such values are checked every time)."""
    kind = type(value)
    if kind in _JSON_SCALARS:
        return (kind, value)
    if kind is dict:
        items = []
        for name, item in value.items():
            item_kind = type(item)
            inner = (item_kind, item) if item_kind in _JSON_SCALARS else _json_key(item)
            if type(name) is not str or inner is None:
                return None
            items.append((name, inner))
        return (dict, tuple(items))
    if kind is list:
        inners = [_json_key(item) for item in value]
        return None if None in inners else (list, tuple(inners))
    return None


def _check_toggle(toggle: Toggle, value: Any, path: str) -> Any:
    def refuse(template: str) -> HandError:
        return HandError(
            "invalid_ruleset", template, path, name=toggle.name, value=repr(value),
            choices=", ".join(str(c) for c in toggle.choices), least=toggle.minimum, most=toggle.maximum,
        )

    if toggle.kind == "bool":
        if not isinstance(value, bool):
            raise refuse(N_("House rule {name} must be true or false; got {value}."))
        return value
    if toggle.kind == "int":
        if type(value) is not int:
            raise refuse(N_("House rule {name} must be a whole number; got {value}."))
        if toggle.choices and value not in toggle.choices:
            raise refuse(N_("House rule {name} must be one of {choices}; got {value}."))
        if toggle.minimum is not None and value < toggle.minimum:
            raise refuse(N_("House rule {name} must be at least {least}; got {value}."))
        if toggle.maximum is not None and value > toggle.maximum:
            raise refuse(N_("House rule {name} must be at most {most}; got {value}."))
        return value
    if toggle.kind == "choice":
        if value not in toggle.choices:
            raise refuse(N_("House rule {name} must be one of {choices}; got {value}."))
        return value
    if toggle.kind == "low_deal_rules":
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
            raise refuse(N_("House rule {name} must be a list of {{max_total, mult}}; got {value}."))
        rules = []
        for index, item in enumerate(value):
            if isinstance(item, LowDealRule):
                item = item.to_json()
            if not isinstance(item, _OBJECT) or set(item) != {"max_total", "mult"}:
                raise HandError(
                    "invalid_ruleset",
                    N_("Each low-deal rule needs exactly max_total and mult."),
                    f"{path}[{index}]",
                )
            max_total, mult = item["max_total"], item["mult"]
            if type(max_total) is not int or not 0 <= max_total <= LOW_DEAL_MAX_TOTAL:
                raise HandError(
                    "invalid_ruleset",
                    N_("A low-deal max_total must be a whole number from 0 to {most}."),
                    f"{path}[{index}].max_total", most=LOW_DEAL_MAX_TOTAL,
                )
            if type(mult) is not int or not 1 <= mult <= 4:
                raise HandError(
                    "invalid_ruleset",
                    N_("A low-deal multiplier must be 1, 2, 3 or 4."),
                    f"{path}[{index}].mult",
                )
            rules.append(LowDealRule(max_total, mult))
        return tuple(rules)
    raise AssertionError(f"unhandled toggle kind {toggle.kind}")


# -- presets (§7) ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set of §7: ``overrides`` are the toggles that differ from classic.

    ``title_template`` and ``description_template`` are English, marked for the catalogue;
    :attr:`title` and :attr:`description` are them in the language being written now."""

    name: str
    title_template: str
    description_template: str
    overrides: Mapping[str, Any]
    aliases: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """``"Texas Tonk"`` in the current language."""
        return render(self.title_template, {})

    @property
    def description(self) -> str:
        """One sentence on what sets the preset apart, in the current language."""
        return render(self.description_template, {})

    def ruleset(self) -> RuleSet:
        return RuleSet.from_spec({"preset": self.name})


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "classic", N_("Classic"),
            N_("The common table rules: a caught knocker pays 2× to everyone at or below them."),
            {}, aliases=("default", "standard", "seed"),
        ),
        Preset(
            "pagat_literal", N_("Pagat (literal)"),
            N_("Classic, but a caught knocker also pays the low player's base stake: 3× to the low."),
            {"caught_knocker_pays_low_on_top": True}, aliases=("pagat", "literal"),
        ),
        Preset(
            "wikipedia", N_("Wikipedia"),
            N_("Two wild jokers, aces high or low in runs, Wikipedia's caught-knocker payments and a "
               "one-turn lock after being hit."),
            {
                "jokers": 2,
                "ace_in_runs": "high_or_low",
                "caught_model": "wikipedia",
                "hit_penalty_turns_per_hit": 1,
            },
            aliases=("wiki", "wikipedia_tonk"),
        ),
        Preset(
            "texas", N_("Texas Tonk"),
            N_("A dealt 49 pays single, and a caught knocker pays 2× to the lowest player only."),
            {"deal_tonk_mult_49": 1, "caught_model": "lowest_only"},
            aliases=("texas_tonk", "tx"),
        ),
        Preset(
            "black_company", N_("Black Company (Speno)"),
            N_("John P. Speno's rules: a dealt 15 or less pays double, and only the caught knocker pays."),
            {"caught_model": "at_or_below_only", "low_deal_rules": [{"max_total": 15, "mult": 2}]},
            aliases=("speno", "blackcompany"),
        ),
    )
}

_ALIASES: dict[str, str] = {}
for _preset in PRESETS.values():
    _ALIASES[_preset.name] = _preset.name
    for _alias in _preset.aliases:
        _ALIASES[_alias] = _preset.name


def _normalise_name(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


def find_preset(name: object) -> Preset:
    """The preset called ``name`` or one of its aliases ("pagat", "wiki", "Texas Tonk"...),
    ignoring case, spaces, hyphens and underscores.

    Raises :class:`HandError` ``invalid_ruleset`` (field ``ruleset.preset``) for an unknown name.
    """
    if isinstance(name, str):
        # a name already in normal form (as stored) is found without normalising it again
        key = _ALIASES.get(name) or _ALIASES.get(_normalise_name(name))
        if key is not None:
            return PRESETS[key]
    raise HandError("invalid_ruleset", N_("Unknown rules preset {name}; choose one of {known}."), "ruleset.preset",
                    name=repr(name), known=", ".join(PRESETS))
