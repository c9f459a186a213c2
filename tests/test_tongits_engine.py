"""The Tong-its engine's parts beyond the vectors: the §3.2 counting examples, the §10 worked
examples being vectors, the games interface (rules, snapshots, seats, state, next dealer), the
describing sentences, and the game's independence from Tonk."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, SHARED, load_json
from ledger.games import GAMES, HandError, game
from ledger.games.base import Game, Scored
from ledger.games.tongits.cards import read_card
from ledger.games.tongits.describe import describe_hand, describe_lines
from ledger.games.tongits.points import points
from ledger.games.tongits.ruleset import PRESETS, TongitsRules
from ledger.sentences import english

TONGITS = game("tongits")
VECTORS: list[dict[str, Any]] = load_json("vectors/tongits/hands.json")
BY_ID = {v["id"]: v for v in VECTORS}
PACKAGE = REPO / "ledger" / "games" / "tongits"


def cards(text: str) -> list[Any]:
    return [read_card(t) for t in text.split()]


@pytest.mark.parametrize(("hand", "expected"), [
    ("5S 6S 7S 7H 7D", 11),
    ("AS 2S 3S AH AD", 2),
    ("4S 5S 6S 6H 6D 6C", 0),
    ("3H 4H 5H 6H 7H 7S 7C KD", 10),
    ("AS 5S 6S 7S 7H 7D", 12),  # §10 example 9
    ("9S 9H 9D 9C 2C", 2),  # §10 example 19
    ("QH KH AH", 21),  # ace low: Q-K-A is no run
    ("KH", 10),
    ("", 0),
])
def test_points_examples_of_section_3_2(hand: str, expected: int) -> None:
    assert points(cards(hand)) == expected


def test_every_worked_example_of_section_10_is_a_vector() -> None:
    spec = (SHARED / "games" / "tongits" / "TONGITS.md")
    if not spec.exists():
        pytest.skip("../shared is not beside this checkout")
    text = spec.read_text(encoding="utf-8")
    section = text[text.index("## 10. Worked examples"):text.index("## 11.")]
    named = set(re.findall(r"`((?:classic|toggle|percent|points|growing|spec)-[a-z0-9-]+)`", section))
    assert len(named) >= 25
    assert named <= set(BY_ID), named - set(BY_ID)


def test_tongits_is_a_registered_game() -> None:
    assert GAMES["tongits"] is TONGITS
    assert isinstance(TONGITS, Game)
    assert TONGITS.name == "tongits" and TONGITS.accounts == ("pot",)
    assert [p.name for p in TONGITS.presets] == ["classic", "points", "percent_of_ante", "growing_pot"]
    result = TONGITS.score_entry(BY_ID["classic-tongits-pot-take"])
    assert isinstance(result, Scored)
    assert result.winners == ("Ana",) and result.kind == "tongits" and result.redeal is False


def test_rules_presets_snapshot_and_seats() -> None:
    for preset in PRESETS.values():
        rules = TONGITS.rules({"preset": preset.name})
        assert TONGITS.rules_from_snapshot(rules.snapshot()) == rules
        assert preset.title and preset.description.endswith(".")
    percent = TONGITS.rules({"preset": "percent_of_ante"})
    assert (percent.unit, percent.pot_take_streak, percent.secret_allows_fight) == ("percent", 1, True)
    assert TONGITS.rules(None) == TongitsRules() == TONGITS.rules({"preset": None, "toggles": None})
    assert TONGITS.seat_range(TongitsRules()) == range(3, 4)
    assert TONGITS.seat_range(TONGITS.rules({"toggles": {"four_players": True}})) == range(3, 5)
    for bad in ({"preset": "Classic"}, {"toggles": {"burn_extra": True}}, {"toggles": {"unit": "cents"}},
                {"toggles": {"escalera_length": 6}}, {"toggles": {"pot_take_streak": 0}}, {"extra": 1}, []):
        with pytest.raises(HandError) as caught:
            TONGITS.rules(bad)
        assert caught.value.code == "invalid_ruleset"


def test_initial_state_and_a_carried_pot() -> None:
    rules = TongitsRules()
    assert TONGITS.initial_state(rules) == {"balance": 0, "holder": None, "streak": 0}
    carried = TONGITS.initial_state(rules, {"pot": 1800})
    assert carried == {"balance": 1800, "holder": None, "streak": 0}
    # a carried pot is opened with pot_ante, not the opening ante (the balance is not 0)
    growing = TONGITS.rules({"preset": "growing_pot"})
    scored = TONGITS.score(growing, players=["Ana", "Ben", "Carla"], stake_minor=100, dealer="Ana", state=carried,
                           entry={"outcome": {"kind": "redeal"}})
    assert scored.state == carried and scored.to_json()["redeal"] is True
    scored = TONGITS.score(growing, players=["Ana", "Ben", "Carla"], stake_minor=100, dealer="Ana", state=carried,
                           entry={"outcome": {"kind": "tongits", "winner": "Ben"}, "hands": {}})
    assert scored.to_json()["pot"]["antes"] == 300
    assert scored.state == {"balance": 2100, "holder": "Ben", "streak": 1}


def test_next_dealer_by_rule() -> None:
    winner_rules, rotate = TongitsRules(), TONGITS.rules({"toggles": {"next_dealer": "rotate"}})
    players = ["Ana", "Ben", "Carla"]
    draw = {"outcome": {"kind": "draw", "caller": "Ana", "responses": {"Ben": "fold", "Carla": "fold"}}}
    for rules, expected in ((winner_rules, "Ana"), (rotate, "Carla")):
        scored = TONGITS.score(rules, players=players, stake_minor=100, dealer="Ben", state=None, entry=draw)
        assert TONGITS.next_dealer(rules, players, "Ben", scored) == expected
        redeal = TONGITS.score(rules, players=players, stake_minor=100, dealer="Ben", state=None,
                               entry={"outcome": {"kind": "redeal"}})
        assert TONGITS.next_dealer(rules, players, "Ben", redeal) == "Ben"


def test_percent_rounding_is_half_up_once_per_payment() -> None:
    # §5.5: c = 333, 50 % → 166.5 → 167, 20 % → 66.6 → 67 (a draw nobody fought in percent_of_ante)
    entry = {"ruleset": {"preset": "percent_of_ante", "toggles": {"draw_uncontested_base": 50, "pot_ante": 20,
                                                                 "pot_opening_ante": 20}},
             "players": ["Ana", "Ben", "Carla"], "stake": 333,
             "outcome": {"kind": "draw", "caller": "Ana", "responses": {"Ben": "fold", "Carla": "fold"}}}
    result = TONGITS.score_entry(entry).to_json()
    assert result["pot"]["antes"] == 3 * 67
    assert result["net"] == {"Ana": 2 * 167 + 3 * 67 - 67, "Ben": -167 - 67, "Carla": -167 - 67, "pot": 0}


def describe(vector_id: str) -> list[str]:
    vector = BY_ID[vector_id]
    scored = TONGITS.score_entry(vector)
    result = scored.to_json() | {"detail": scored.detail, "points": scored.points}
    return [english(s.template, s.params) for s in describe_lines(vector["outcome"], result)]


def test_describing_sentences() -> None:
    assert describe("classic-tongits-pot-take") == [
        "Ana went out: tong-its", "Carla was burned (sunog)", "Ana took the pot"]
    assert describe("classic-draw-uncontested") == [
        "Ben called a draw (laban) and nobody fought", "Carla was burned (sunog)"]
    assert describe("classic-draw-tie-challenger-wins") == ["Ben called a draw (laban); Carla won"]
    assert describe("classic-draw-caller-wins-and-takes-pot") == [
        "Carla called a draw (laban) and won the fight", "Carla took the pot"]
    assert describe("classic-stock-tie-last-drawer-wins") == [
        "Stock out: Ben won with 6", "Carla was burned (sunog)"]
    assert describe("classic-stock-washed-nobody-opened") == [
        "Stock out with nobody opened: washed, the antes stay in the pot"]
    assert describe("classic-redeal") == ["Misdeal: redeal, nobody pays"]
    assert describe("classic-close-night-split-remainder") == ["The pot was split among the players"]
    assert describe("toggle-pot-at-end-carry") == ["The pot is carried to the next night"]
    # from the stored JSON alone (no detail kept), the same main sentence
    vector = BY_ID["classic-draw-tie-challenger-wins"]
    stored = TONGITS.score_entry(vector).to_json()
    assert str(describe_hand(vector["outcome"], stored)) == "Ben called a draw (laban); Carla won"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_tongits_is_pure_and_independent_of_tonk() -> None:
    allowed_ledger = ("ledger.games.tongits", "ledger.games.cards", "ledger.games.errors", "ledger.games.netting",
                      "ledger.sentences", "ledger.transfers")
    for path in PACKAGE.glob("*.py"):
        for module in _imports(path):
            if module.startswith("ledger"):
                assert module.startswith(allowed_ledger), (path.name, module)
            else:
                assert module.split(".")[0] in {"__future__", "collections", "dataclasses", "functools", "itertools",
                                                "typing"}, (path.name, module)
