"""The bounds of a declared total (RULES.md §9.1 item 11): ``total_range`` is what the engine
refuses outside of, and what the phone's total fields take as their min and max."""
from __future__ import annotations

from typing import Any

import pytest

from ledger.games.tonk import HandError, RuleSet, score_entry
from ledger.games.tonk.validation import total_range

PLAYERS = ["Dee", "Rosa", "Tomás"]
RULES = [
    {"preset": "classic"},
    {"preset": "classic", "toggles": {"hand_size": 7, "drop_timing": "any"}},
    {"preset": "classic", "toggles": {"jokers": 2, "joker_hand_value": 0}},
    {"preset": "classic", "toggles": {"jokers": 2, "joker_hand_value": 10, "held_spreads_count": False}},
]


def refused_code(ruleset: dict[str, Any], kind: str, who: str, total: int) -> str | None:
    """The code a ``kind`` hand is refused with when ``who`` declares ``total`` (the others 5)."""
    outcome = {"kind": "knock", "knocker": "Dee"} if kind == "knock" else {"kind": "dry_stock"}
    hands = {name: {"total": total if name == who else 5} for name in PLAYERS}
    try:
        score_entry({"ruleset": ruleset, "players": PLAYERS, "stake": 25, "outcome": outcome, "hands": hands})
    except HandError as err:
        return err.code
    return None


@pytest.mark.parametrize("ruleset", RULES)
@pytest.mark.parametrize(("kind", "who"), [("knock", "Dee"), ("knock", "Rosa"), ("dry_stock", "Rosa")])
def test_the_engine_refuses_a_total_just_outside_the_range_and_no_other(ruleset: dict[str, Any], kind: str, who: str) -> None:
    lowest, highest = total_range(RuleSet.from_spec(ruleset), kind, knocker=kind == "knock" and who == "Dee")
    assert 0 <= lowest <= 1 and highest >= 50
    for inside in (lowest, highest):
        assert refused_code(ruleset, kind, who, inside) != "total_out_of_range", inside
    for outside in (lowest - 1, highest + 1):
        assert refused_code(ruleset, kind, who, outside) == "total_out_of_range", outside


def test_the_ranges_follow_the_house_rules() -> None:
    classic = RuleSet.from_spec({"preset": "classic"})
    assert total_range(classic, "knock") == total_range(classic, "knock", knocker=True) == (1, 50)
    seven_any = RuleSet.from_spec({"preset": "classic", "toggles": {"hand_size": 7, "drop_timing": "any"}})
    assert (total_range(seven_any, "knock"), total_range(seven_any, "knock", knocker=True)) == ((1, 70), (1, 80))
    assert total_range(RuleSet.from_spec({"preset": "classic", "toggles": {"held_spreads_count": False}}),
                       "dry_stock") == (0, 50)
    assert total_range(classic, "deal_tonk") == (6, 50)  # four aces and a 2


@pytest.mark.parametrize("ruleset", [r for r in RULES if RuleSet.from_spec(r).hand_size == 5])
def test_a_dealt_hand_declares_at_least_the_lowest_deal_and_the_engine_agrees(ruleset: dict[str, Any]) -> None:
    """§9.2: a 5-card hand totals 6 to 50 without jokers (four aces and a two); a dealt hand
    given as a total only is refused below the lowest deal and taken at it."""
    rules = RuleSet.from_spec(ruleset)
    lowest = total_range(rules, "deal_tonk")[0]
    if rules.jokers == 0:
        assert lowest == 6

    def code(total: int) -> str | None:
        try:
            score_entry({"ruleset": ruleset, "players": ["Dee", "Rosa"], "stake": 25,
                         "outcome": {"kind": "deal_tonk", "claimants": ["Dee"]},
                         "hands": {"Dee": {"cards": ["KH", "QH", "JH", "10H", "KD"]},
                                   "Rosa": {"total": total}}})
        except HandError as err:
            return err.code
        return None

    assert code(lowest - 1) == "total_out_of_range"
    assert code(lowest) is None
