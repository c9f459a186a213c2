"""Rules in words and engine-priced worked examples (issue: rules reference page), and the
preset registry with aliases and refusals of unknown presets or toggles."""
from __future__ import annotations

from typing import Any

import pytest

from ledger.games.tonk import HandError, RuleSet, find_preset
from ledger.games.tonk.explain import rule_lines, worked_examples
from ledger.games.tonk.ruleset import PRESETS


@pytest.mark.parametrize(
    ("preset", "net"),
    [  # RULES.md §10, example 2 and its table of presets: A knocks with 17, B 5, C 15, S = 25
        ("classic", {"A": -100, "B": 75, "C": 25}),
        ("wikipedia", {"A": -75, "B": 75, "C": 0}),
        ("texas", {"A": -50, "B": 50, "C": 0}),
        ("black_company", {"A": -100, "B": 50, "C": 50}),
        ("pagat_literal", {"A": -125, "B": 100, "C": 25}),
    ],
)
def test_caught_example_matches_the_spec_for_every_preset(preset: str, net: dict[str, int]) -> None:
    examples = {e.title: e for e in worked_examples(RuleSet.from_spec({"preset": preset}), ["A", "B", "C"], 25)}
    assert examples["Knock, caught"].result.net == net


def test_examples_cover_every_outcome_at_a_four_player_table() -> None:
    examples = worked_examples(RuleSet(), ["Dee", "Marcus", "Rosa", "Tomás"], 333)
    assert [e.title for e in examples] == [
        "Tonk on the deal", "Tonk out", "Out by discard", "Knock and win", "Knock, caught", "Catch tie", "Dry stock",
    ]
    by_title = {e.title: e.result for e in examples}
    assert by_title["Tonk on the deal"].net == {"Dee": 1998, "Marcus": -666, "Rosa": -666, "Tomás": -666}  # §10 ex. 1
    assert by_title["Dry stock"].net["Marcus"] == 999
    # Tomás (15) is at or below the knocker (17): paid 2S by Dee, pays 1S to each low player
    assert by_title["Catch tie"].net == {"Dee": -1998, "Marcus": 999, "Rosa": 999, "Tomás": 0}


def test_examples_left_out_when_the_rules_refuse_them() -> None:
    seven = RuleSet.from_spec({"preset": "classic", "toggles": {"hand_size": 7}})
    titles = [e.title for e in worked_examples(seven, ["A", "B"], 10)]
    assert "Tonk on the deal" not in titles and "Knock and win" in titles


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"preset": "classic"}, "A caught knocker pays 2× to every player at or below them; every other player also pays 1× to the lowest."),
        ({"preset": "pagat_literal"}, "A caught knocker pays 2× to every player at or below them and 3× to the lowest; every other player also pays 1× to the lowest."),
        ({"preset": "texas"}, "A caught knocker pays 2× to the lowest player only; nobody else pays."),
        ({"preset": "texas"}, "A dealt 50 wins at once: each other player pays 2×; a dealt 49 pays 1×."),
        ({"preset": "black_company"}, "A dealt hand of 15 or less wins: each other player pays 2×."),
        ({"preset": "wikipedia"}, "A player whose spread is hit may not knock for 1 turn per hit."),
        ({"preset": "classic", "toggles": {"dry_stock_tie": "all_lows_paid"}},
         "Dry stock: the lowest count collects 1× from each other player; players tied for lowest are each paid 1× by everyone else."),
        ({"preset": "classic", "toggles": {"spade_side_pot": True}},
         "Spade side pot: the highest spade dealt (ace high) takes each player's side stake; settled even on a redeal."),
    ],
)
def test_rule_lines_say_what_is_paid(spec: dict[str, Any], expected: str) -> None:
    assert expected in [line.text for line in rule_lines(RuleSet.from_spec(spec))]


@pytest.mark.parametrize(
    ("alias", "name"),
    [("pagat", "pagat_literal"), ("Wiki", "wikipedia"), ("texas tonk", "texas"), ("TEXAS-TONK", "texas"),
     ("speno", "black_company"), ("Black Company", "black_company"), ("default", "classic")],
)
def test_preset_aliases(alias: str, name: str) -> None:
    assert find_preset(alias).name == name
    assert RuleSet.from_spec({"preset": alias}).preset == name


def test_every_preset_has_a_description_and_its_spec_overrides() -> None:
    assert set(PRESETS) == {"classic", "pagat_literal", "wikipedia", "texas", "black_company"}
    for preset in PRESETS.values():
        assert preset.description and preset.title
        assert preset.ruleset().differences() == {
            k: v for k, v in preset.overrides.items()
        }


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"preset": "vegas"}, "ruleset.preset"),
        ({"preset": "classic", "toggles": {"jokers": 3}}, "ruleset.toggles.jokers"),
        ({"preset": "classic", "toggles": {"caught_model": "nobody"}}, "ruleset.toggles.caught_model"),
        ({"preset": "classic", "toggles": {"must_lay_spreads": "yes"}}, "ruleset.toggles.must_lay_spreads"),
        ({"preset": "classic", "toggles": {"low_deal_rules": [{"max_total": 13}]}}, "ruleset.toggles.low_deal_rules[0]"),
        ({"preset": "classic", "toggles": {"low_deal_rules": [{"max_total": 13, "mult": 9}]}}, "ruleset.toggles.low_deal_rules[0].mult"),
        ({"preset": "classic", "toggles": {"min_players": 4, "max_players": 3}}, "ruleset.toggles.min_players"),
        ({"preset": "classic", "extra": 1}, "ruleset.extra"),
    ],
)
def test_bad_rule_sets_name_the_toggle(spec: dict[str, Any], field: str) -> None:
    with pytest.raises(HandError) as caught:
        RuleSet.from_spec(spec)
    assert caught.value.code == "invalid_ruleset"
    assert caught.value.field == field
