"""House rules on the phone: one control per toggle of :data:`ledger.games.tonk.ruleset.TOGGLES`,
read back from a form, and the rules in plain words.

:class:`RulesChoice` is what the "House rules" part of the start form sent: the chosen
``preset``, the preset the controls were filled from (``rules_base``) and the value of each
control (``rule-<toggle>``). The toggles that differ from ``rules_base`` are the table's
changes; they are laid over the chosen preset, so picking another preset without JavaScript
keeps the changes made by hand. Every check is the engine's (:meth:`RuleSet.from_spec`); its
refusals (``invalid_ruleset``, field ``ruleset.toggles.<name>``) land beside the control.

Nothing here computes a payout: the plain words come from
:func:`ledger.games.tonk.explain.rule_lines`. The labels below are display text only, marked for the
catalogue (``N_``) and put into the request's language where they are read (:func:`label_of`,
:func:`value_label`, :meth:`RulesChoice.groups`), never when this module is imported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ledger.i18n import N_, _
from ledger.games.tonk import PRESETS, HandError, RuleSet
from ledger.games.tonk.describe import OUTCOME_TITLES
from ledger.games.tonk.explain import rule_lines
from ledger.games.tonk.ruleset import TOGGLES, Toggle
from ledger.web.formatting import engine_words

DEFAULT_PRESET = "classic"
PREFIX = "rule-"
LOW_DEAL = "low_deal_rules"
LOW_DEAL_ROWS = 3
TRUE_TEXTS = frozenset({"1", "true", "on", "yes"})
FALSE_TEXTS = frozenset({"0", "false", "off", "no", ""})
WHOLE = re.compile(r"-?[0-9]{1,6}")

TOPIC_TITLES = OUTCOME_TITLES | {"side_pot": N_("Spade side pot"), "cards": N_("Cards and spreads")}

# (label, hint) of every toggle: what the control asks, in the table's words.
LABELS: dict[str, tuple[str, str]] = {
    "min_players": (N_("Fewest players"), N_("A night needs at least this many seats.")),
    "max_players": (N_("Most players"), ""),
    "hand_size": (N_("Cards dealt to each player"), N_("The 49/50 tonk on the deal exists only with 5 cards.")),
    "ace_in_runs": (N_("Aces in runs"), ""),
    "drop_timing": (N_("When a player may knock"), ""),
    "jokers": (N_("Jokers in the deck"), ""),
    "joker_value_mode": (N_("A joker held in hand counts"), N_("Only with jokers.")),
    "joker_hand_value": (N_("Points of a held joker"), N_("When a joker counts a fixed number of points.")),
    "min_natural_cards_per_spread": (N_("Real cards needed in a spread with a joker"), ""),
    "deal_tonk_mult_50": (N_("A dealt 50 pays"), N_("Times the stake, from each other player.")),
    "deal_tonk_mult_49": (N_("A dealt 49 pays"), N_("Times the stake, from each other player.")),
    "deal_tonk_49_timing": (N_("A dealt 49 counts"), ""),
    LOW_DEAL: (N_("Low dealt hands win"), N_("Up to three limits, e.g. 13 or less pays 2×, 9 or less pays 3×. "
                                             "Leave a row empty for none.")),
    "low_rules_apply_to": (N_("Low-hand multiples apply"), ""),
    "tonk_out_double_requires": (N_("A tonk out pays double"), ""),
    "double_double": (N_("Double-double (4×)"), N_("Tonk out on a run another player could also have gone out on.")),
    "double_double_collector": (N_("Who collects a double-double"), ""),
    "double_double_two_player_only": (N_("Double-double only between two players"), ""),
    "caught_model": (N_("A caught knocker pays"), ""),
    "caught_knocker_pays_low_on_top": (N_("Pagat model: caught knocker pays 3× to the lowest"),
                                       N_("Pagat read literally: the low's 1× base on top of the 2×.")),
    "knock_tie_rule": (N_("A knocker who ties the lowest count"), ""),
    "hit_penalty_turns_per_hit": (N_("After your spread is hit, no knocking for"), N_("Turns per hit; 0 is off.")),
    "must_lay_spreads": (N_("Spreads must be laid down"), N_("Checked on the hands shown at the end.")),
    "three_aces_exception": (N_("…except a book of aces may be held"), N_("Only when spreads must be laid.")),
    "held_spreads_count": (N_("Spreads held in hand count against you"), N_("Off: only unmatched cards count.")),
    "dry_stock_tie": (N_("A tie for lowest when the stock runs out"), ""),
    "spade_side_pot": (N_("Spade side pot"), N_("An optional side bet each hand: the highest spade dealt takes it.")),
    "spade_ace_high": (N_("Ace of spades is the highest spade"), N_("Off: the ace is the lowest spade.")),
    "spade_pot_on_redeal": (N_("On a redeal the side pot is"), ""),
}

CHOICE_LABELS: dict[str, dict[Any, str]] = {
    "hand_size": {5: N_("5 cards"), 7: N_("7 cards"), 9: N_("9 cards")},
    "jokers": {0: N_("None"), 2: N_("Two wild jokers")},
    "hit_penalty_turns_per_hit": {0: N_("Off"), 1: N_("1 turn"), 2: N_("2 turns"), 3: N_("3 turns")},
    "ace_in_runs": {"low_only": N_("Low only: A-2-3"), "high_or_low": N_("Low or high: A-2-3 or Q-K-A")},
    "drop_timing": {"start_of_turn": N_("At the start of a turn, before drawing"),
                    "any": N_("At any point of a turn (may hold one extra card)")},
    "joker_value_mode": {"fixed": N_("A fixed number of points"), "declared": N_("The card it is declared as")},
    "deal_tonk_49_timing": {"immediate": N_("At once, like a 50"),
                            "in_turn": N_("Only if declared at the start of the holder's turn, before anyone knocks")},
    "low_rules_apply_to": {"deal": N_("On the deal only"), "deal_and_knock_win": N_("On the deal and on a winning knock")},
    "tonk_out_double_requires": {
        "any": N_("Always"),
        "new_spread": N_("Only if the last turn laid a new spread (hits alone pay 1×)"),
        "six_card_spread": N_("Only if every card went into new spreads in the last turn (else 1×)"),
    },
    "caught_model": {
        "pagat": N_("Pagat: 2× to all at or below, others pay the low"),
        "wikipedia": N_("Wikipedia: 2× to the low, 1× to those below, others pay the low"),
        "at_or_below_only": N_("Black Company: 2× to all at or below, nobody else pays"),
        "lowest_only": N_("Texas: 2× to the lowest only, nobody else pays"),
    },
    "knock_tie_rule": {
        "caught": N_("Is caught"),
        "knocker_wins": N_("Wins"),
        "tied_players_win_single": N_("Pays nothing extra; tied players collect 1× each"),
    },
    "dry_stock_tie": {"redeal": N_("Redealt, nobody pays"), "all_lows_paid": N_("Each tied player is paid 1× by the others")},
    "double_double_collector": {"first_tonker": N_("The player who tonked out"),
                                "responder": N_("The player who could have gone out on the run")},
    "spade_pot_on_redeal": {"settle": N_("Settled anyway"), "void": N_("Void")},
}

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Knock (drop)"), ("caught_model", "caught_knocker_pays_low_on_top", "knock_tie_rule",
                          "hit_penalty_turns_per_hit", "drop_timing")),
    (N_("Tonk on the deal"), ("deal_tonk_mult_50", "deal_tonk_mult_49", "deal_tonk_49_timing", LOW_DEAL,
                              "low_rules_apply_to")),
    (N_("Going out"), ("tonk_out_double_requires", "double_double", "double_double_collector",
                       "double_double_two_player_only")),
    (N_("Dry stock"), ("dry_stock_tie",)),
    (N_("Spade side pot"), ("spade_side_pot", "spade_ace_high", "spade_pot_on_redeal")),
    (N_("Cards and jokers"), ("hand_size", "ace_in_runs", "jokers", "joker_value_mode", "joker_hand_value",
                              "min_natural_cards_per_spread")),
    (N_("Spreads"), ("must_lay_spreads", "three_aces_exception", "held_spreads_count")),
    (N_("Players"), ("min_players", "max_players")),
)


def _grouped() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """:data:`GROUPS`, plus any toggle the groups do not name (so a new toggle always shows)."""
    named = {n for _title, names in GROUPS for n in names}
    rest = tuple(n for n in TOGGLES if n not in named)
    return GROUPS + (((N_("More"), rest),) if rest else ())


def label_of(name: str) -> str:
    """A toggle's label in the request's language (a toggle newer than :data:`LABELS`: its name)."""
    if name in LABELS:
        return _(LABELS[name][0])
    return name.replace("_", " ").capitalize()


def hint_of(name: str) -> str:
    """The hint under a toggle's control, in the request's language (``""`` for none)."""
    hint = LABELS.get(name, ("", ""))[1]
    return _(hint) if hint else ""


def topic_title(topic: str) -> str:
    """The heading a rule line is grouped under ("Knock (drop)"), in the request's language."""
    return engine_words(TOPIC_TITLES.get(topic, topic))


def value_label(name: str, value: Any) -> str:
    """A toggle's value in words of the request's language: ``on``/``off``, a choice's label,
    ``13 or less pays 2×``..."""
    toggle = TOGGLES.get(name)
    if toggle is None:
        return str(value)
    if toggle.kind == "bool":
        return _("on") if value else _("off")
    if toggle.kind == LOW_DEAL:
        rows = [r if isinstance(r, Mapping) else r.to_json() for r in value or ()]
        if not rows:
            return _("none")
        # a list of whole clauses, one per limit
        return ", ".join(_("{total} or less pays {mult}×", total=r["max_total"], mult=r["mult"]) for r in rows)
    labels = CHOICE_LABELS.get(name, {})
    if value in labels:
        return _(labels[value])
    if name.startswith("deal_tonk_mult"):
        return _("{mult}×", mult=value)
    return str(value)


def control_text(toggle: Toggle, value: Any) -> str:
    """A toggle value as the text its control posts (``true``/``false``, ``7``, ``pagat``)."""
    if toggle.kind == "bool":
        return "true" if value else "false"
    return str(value)


def _control_kind(toggle: Toggle) -> str:
    if toggle.kind == "bool":
        return "switch"
    if toggle.kind == LOW_DEAL:
        return "low_deal"
    if toggle.kind == "int" and toggle.choices:
        return "segmented"
    if toggle.kind == "int":
        return "number"
    return "radios"


@dataclass(frozen=True, slots=True)
class Control:
    """One control of the House rules section, ready to render."""

    name: str
    key: str
    kind: str
    label: str
    hint: str
    value: str
    options: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    rows: tuple[tuple[str, str], ...] = ()
    error: str = ""
    changed: bool = False


@dataclass(frozen=True, slots=True)
class ControlGroup:
    title: str
    controls: tuple[Control, ...]

    @property
    def changed(self) -> int:
        return sum(1 for c in self.controls if c.changed)


@dataclass(frozen=True, slots=True)
class SummaryLine:
    topic: str
    topic_title: str
    text: str
    section: str
    changed: bool

    def to_json(self) -> dict[str, Any]:
        return {"topic": self.topic, "topic_title": self.topic_title, "text": self.text,
                "section": self.section, "changed": self.changed}


def summary_lines(rules: RuleSet) -> list[SummaryLine]:
    """:func:`rule_lines` of ``rules``, each marked ``changed`` when its preset says otherwise."""
    preset = PRESETS.get(rules.preset)
    usual = {line.text for line in rule_lines(preset.ruleset())} if preset else set()
    return [
        SummaryLine(line.topic, topic_title(line.topic), engine_words(line.text), line.section,
                    line.text not in usual)
        for line in rule_lines(rules)
    ]


def grouped_lines(lines: list[SummaryLine]) -> list[tuple[str, list[SummaryLine]]]:
    out: dict[str, list[SummaryLine]] = {}
    for line in lines:
        out.setdefault(line.topic_title, []).append(line)
    return list(out.items())


def changes_from_preset(rules: RuleSet) -> list[tuple[str, str, str]]:
    """``(toggle, label, value in words)`` of every toggle that differs from the rule set's own
    preset (the table's house changes), in the order of the House rules section, in the
    request's language."""
    preset = PRESETS.get(rules.preset)
    if preset is None or not isinstance(rules, RuleSet):  # another game's rules (Tong-its' "classic" is not Tonk's)
        return []
    usual = preset.ruleset().snapshot()
    mine = rules.snapshot()
    order = [n for _title, names in _grouped() for n in names]
    return [(n, label_of(n), value_label(n, mine[n])) for n in order if mine[n] != usual[n]]


@dataclass
class RulesChoice:
    """The preset and house rules a start form sent, checked by the engine.

    ``texts`` holds each control's text (as posted, or the value shown); ``errors`` is keyed by
    control (``rule-<toggle>``, or ``preset``). ``ruleset`` is set when everything is valid.
    """

    preset: str = DEFAULT_PRESET
    base: str = DEFAULT_PRESET
    texts: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    ruleset: RuleSet | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    touched: bool = False

    # -- reading ------------------------------------------------------------------------------
    @classmethod
    def default(cls, preset: str = DEFAULT_PRESET) -> RulesChoice:
        rules = PRESETS[preset].ruleset()
        choice = cls(preset=preset, base=preset, ruleset=rules)
        choice.texts = _texts_of(rules)
        return choice

    @classmethod
    def from_form(cls, form: Mapping[str, Any]) -> RulesChoice:
        """Read ``preset``, ``rules_base`` and the ``rule-*`` controls (a Werkzeug MultiDict
        or a plain mapping). A control that was not sent keeps the base preset's value."""
        preset = str(form.get("preset") or DEFAULT_PRESET)[:40]
        base = str(form.get("rules_base") or preset)[:40]
        choice = cls(preset=preset, base=base)
        if preset not in PRESETS:
            choice.errors["preset"] = _("Choose one of the rules presets.")
            known = base if base in PRESETS else DEFAULT_PRESET
            choice.texts = _texts_of(PRESETS[known].ruleset())
            return choice
        if base not in PRESETS:
            base = choice.base = preset
        base_values = PRESETS[base].ruleset().snapshot()
        choice.texts = _texts_of(PRESETS[base].ruleset())
        wanted: dict[str, Any] = {}
        for name, toggle in TOGGLES.items():
            sent = choice._read(form, name, toggle)
            if sent is not _NOT_SENT:
                wanted[name] = sent
        if choice.errors:
            return choice
        changes = {n: v for n, v in wanted.items() if v != base_values[n]}
        choice.touched = bool(changes)
        for name, value in changes.items():  # each refusal beside its own control
            try:
                RuleSet.from_spec({"preset": preset, "toggles": {name: value}})
            except HandError as err:
                choice.errors[key_for(err.field) or PREFIX + name] = err.message
        if choice.errors:
            return choice
        usual = PRESETS[preset].ruleset().snapshot()
        overrides = {n: v for n, v in changes.items() if v != usual[n]}  # only what differs from the preset
        try:
            rules = RuleSet.from_spec({"preset": preset, "toggles": overrides})
        except HandError as err:
            choice.errors[key_for(err.field) or "preset"] = err.message
            return choice
        choice._accept(rules)
        return choice

    def _accept(self, rules: RuleSet) -> None:
        usual = PRESETS[rules.preset].ruleset().snapshot()
        mine = rules.snapshot()
        self.ruleset = rules
        self.base = rules.preset
        self.texts = _texts_of(rules)
        self.overrides = {n: mine[n] for n in TOGGLES if mine[n] != usual[n]}

    def _read(self, form: Mapping[str, Any], name: str, toggle: Toggle) -> Any:
        key = PREFIX + name
        if toggle.kind == LOW_DEAL:
            return self._read_low_deal(form, name)
        texts = _all(form, key)
        if not texts:
            return _NOT_SENT
        text = texts[-1].strip()[:20]  # a switch posts "false" then, when on, "true"
        self.texts[key] = text
        if toggle.kind == "bool":
            if text.lower() in TRUE_TEXTS:
                return True
            if text.lower() in FALSE_TEXTS:
                return False
            self.errors[key] = _("Choose on or off.")
            return _NOT_SENT
        if toggle.kind == "int":
            if not WHOLE.fullmatch(text):
                self.errors[key] = (_("“{text}” is not a whole number; type digits only.", text=text) if text
                                    else _("Type a whole number."))
                return _NOT_SENT
            return int(text)
        return text

    def _read_low_deal(self, form: Mapping[str, Any], name: str) -> Any:
        key = PREFIX + name
        if not _all(form, key):
            return _NOT_SENT
        rows = []
        for i in range(LOW_DEAL_ROWS):
            texts = []
            for part in ("max_total", "mult"):
                text = str(form.get(f"{key}-{i}-{part}") or "").strip()[:8]
                self.texts[f"{key}-{i}-{part}"] = text
                texts.append(text)
            if not any(texts):
                continue
            if not all(WHOLE.fullmatch(t) for t in texts):
                self.errors[key] = _("Row {row}: type both the highest total and the multiplier, as whole numbers.",
                                     row=i + 1)
                continue
            rows.append({"max_total": int(texts[0]), "mult": int(texts[1])})
        return rows

    # -- showing ------------------------------------------------------------------------------
    @property
    def valid(self) -> bool:
        return self.ruleset is not None and not self.errors

    @property
    def should_open(self) -> bool:
        """Open the House rules section when something in it changed or needs fixing."""
        return bool(self.overrides) or any(k.startswith(PREFIX) for k in self.errors) or self.touched

    def groups(self) -> list[ControlGroup]:
        shown = self.ruleset if self.ruleset is not None else None
        usual = PRESETS[self.preset].ruleset().snapshot() if self.preset in PRESETS else {}
        mine = shown.snapshot() if shown is not None else {}
        out = []
        for title, names in _grouped():
            controls = []
            for name in names:
                toggle = TOGGLES[name]
                key = PREFIX + name
                label, hint = label_of(name), hint_of(name)
                kind = _control_kind(toggle)
                options: tuple[tuple[str, str], ...] = ()
                if kind in ("segmented", "radios"):
                    options = tuple((str(c), value_label(name, c)) for c in toggle.choices)
                rows: tuple[tuple[str, str], ...] = ()
                if kind == "low_deal":
                    rows = tuple(
                        (self.texts.get(f"{key}-{i}-max_total", ""), self.texts.get(f"{key}-{i}-mult", ""))
                        for i in range(LOW_DEAL_ROWS)
                    )
                controls.append(Control(
                    name=name, key=key, kind=kind, label=label, hint=hint,
                    value=self.texts.get(key, ""), options=options,
                    minimum=toggle.minimum, maximum=toggle.maximum, rows=rows,
                    error=self.errors.get(key, ""),
                    changed=bool(mine) and bool(usual) and mine[name] != usual[name],
                ))
            out.append(ControlGroup(_(title), tuple(controls)))
        return out

    def summary(self) -> list[SummaryLine]:
        return summary_lines(self.ruleset) if self.ruleset is not None else []

    def grouped_summary(self) -> list[tuple[str, list[SummaryLine]]]:
        return grouped_lines(self.summary())

    def changes(self) -> list[tuple[str, str, str]]:
        return changes_from_preset(self.ruleset) if self.ruleset is not None else []

    @property
    def preset_title(self) -> str:
        preset = PRESETS.get(self.preset)
        return engine_words(preset.title) if preset else self.preset

    def control_values(self) -> dict[str, str]:
        """Every control's text: what a script puts back into the form."""
        return dict(self.texts)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.valid,
            "preset": self.preset,
            "title": self.preset_title,
            "rules_base": self.base,
            "lines": [line.to_json() for line in self.summary()],
            "changes": [{"toggle": n, "label": label, "value": value} for n, label, value in self.changes()],
            "overrides": self.overrides,
            "values": self.control_values(),
            "errors": dict(self.errors),
        }


class _NotSent:
    def __repr__(self) -> str:
        return "<not sent>"


_NOT_SENT: Any = _NotSent()


def _all(form: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(form, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(key)]
    value = form.get(key)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def _texts_of(rules: RuleSet) -> dict[str, str]:
    texts: dict[str, str] = {}
    for name, toggle in TOGGLES.items():
        value = getattr(rules, name)
        if toggle.kind == LOW_DEAL:
            texts[PREFIX + name] = "rows"
            for i in range(LOW_DEAL_ROWS):
                rule = value[i] if i < len(value) else None
                texts[f"{PREFIX}{name}-{i}-max_total"] = str(rule.max_total) if rule else ""
                texts[f"{PREFIX}{name}-{i}-mult"] = str(rule.mult) if rule else ""
        else:
            texts[PREFIX + name] = control_text(toggle, value)
    return texts


def key_for(path: str | None) -> str | None:
    """The control an engine error path belongs to: ``ruleset.toggles.jokers`` →
    ``rule-jokers``; ``ruleset.toggles.low_deal_rules[1].mult`` → ``rule-low_deal_rules``."""
    if not path:
        return None
    for prefix in ("ruleset.toggles.", "ruleset."):
        if path.startswith(prefix):
            name = re.split(r"[.\[]", path[len(prefix):], maxsplit=1)[0]
            if name == "preset":
                return "preset"
            if name in TOGGLES:
                return PREFIX + name
    return None
