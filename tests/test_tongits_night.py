"""The shared Tong-its night (TONGITS.md §8.4) played hand by hand through the engine: the pot
chained from each result to the next hand, dealers following ``next_dealer``, every hand's
expected result, the final nets and pot, the close and the counts of §8.5 #9."""
from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import SHARED, TESTS
from ledger.games import game

NIGHT_FILE = TESTS / "nights" / "tongits" / "night-01.json"
NIGHT: dict[str, Any] = json.loads(NIGHT_FILE.read_text(encoding="utf-8"))
TONGITS = game("tongits")


def entry_for(hand: dict[str, Any], pot: dict[str, Any], dealer: str) -> dict[str, Any]:
    return {"ruleset": NIGHT["ruleset"], "players": NIGHT["players"], "stake": NIGHT["stake"], "dealer": dealer,
            "pot": pot, "outcome": hand["outcome"], "hands": hand["hands"]}


def play_night() -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]], dict[str, Any]]:
    """Each hand's result, the (pot, dealer) it was scored with, and the pot left at the end."""
    rules = TONGITS.rules(NIGHT["ruleset"])
    pot = TONGITS.initial_state(rules)
    dealer = NIGHT["first_dealer"]
    results, inputs = [], []
    for hand in NIGHT["hands"]:
        inputs.append((dict(pot), dealer))
        scored = TONGITS.score(rules, players=NIGHT["players"], stake_minor=NIGHT["stake"], dealer=dealer,
                               state=pot, entry=hand)
        results.append(scored.to_json())
        assert TONGITS.next_dealer(rules, NIGHT["players"], dealer, scored) == scored.to_json()["next_dealer"]
        pot, dealer = scored.state, scored.to_json()["next_dealer"]
    return results, inputs, pot


RESULTS, INPUTS, FINAL_POT = play_night()


def test_night_copy_matches_shared() -> None:
    shared = SHARED / "games" / "tongits" / "nights" / "night-01.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert NIGHT_FILE.read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("number", range(len(NIGHT["hands"])), ids=[f"hand-{h['hand']}" for h in NIGHT["hands"]])
def test_each_hand_scores_as_expected_with_the_chained_pot(number: int) -> None:
    hand = NIGHT["hands"][number]
    pot, dealer = INPUTS[number]
    assert hand["pot"] == pot, "the file's repeated pot is the state the previous hand left"
    assert hand["dealer"] == dealer, "each dealer is the previous result's next_dealer"
    assert RESULTS[number] == hand["expected"]
    # and any hand scored alone, from the file's own pot, gives the same
    alone = TONGITS.score_entry(entry_for(hand, hand["pot"], hand["dealer"])).to_json()
    assert alone == hand["expected"]


def test_night_totals_close_and_counts() -> None:
    expected = NIGHT["expected"]
    players = NIGHT["players"]
    net = {p: sum(r["net"][p] for r in RESULTS) for p in players}
    assert net == expected["net"]
    assert FINAL_POT["balance"] == expected["pot_balance"]
    assert sum(net.values()) + FINAL_POT["balance"] == 0
    close = TONGITS.score_entry({
        "ruleset": NIGHT["ruleset"], "players": players, "stake": NIGHT["stake"], "pot": FINAL_POT,
        "outcome": {"kind": "close_pot", "reason": "end_of_night"},
    }).to_json()
    assert close == expected["close"]
    assert {p: net[p] + close["net"][p] for p in players} == expected["net_after_close"]
    assert sum(expected["net_after_close"].values()) == 0
    assert len(NIGHT["hands"]) == expected["hands_recorded"]
    assert sum(h["outcome"]["kind"] == "redeal" for h in NIGHT["hands"]) == expected["redeals"]
    assert sum(r["pot"]["taken_by"] is not None for r in RESULTS) == expected["pot_takes"]


def test_pot_plus_players_is_zero_after_every_hand() -> None:
    running = dict.fromkeys(NIGHT["players"], 0)
    for result in RESULTS:
        for p in running:
            running[p] += result["net"][p]
        assert sum(running.values()) + result["pot"]["balance_after"] == 0
        assert result["pot"]["balance_after"] >= 0
