"""Every worked 13-card rummy entry of RUMMY13.md (the 97 shared vectors) through the engine
(``game("rummy13").score_entry``) and through ``POST /api/v1/score`` with ``"game": "rummy13"``;
the shared night hand by hand through the game's ``score`` and ``next_dealer``."""
from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import SHARED, TESTS, load_json
from ledger.games import HandError, game
from ledger.games.rummy13.errors import ALL_CODES
from ledger.settlement.plan import settle

VECTORS: list[dict[str, Any]] = load_json("vectors/rummy13/hands.json")
NIGHT_FILE = TESTS / "nights" / "rummy13" / "night-01.json"  # a copy of the shared nights/night-01.json
ERROR_VECTORS = [v for v in VECTORS if "error" in v["expected"]]


def result_of(vector: dict[str, Any]) -> dict[str, Any]:
    try:
        return game("rummy13").score_entry(vector).to_json()
    except HandError as err:
        return {"error": err.code}


def test_vector_copy_matches_shared() -> None:
    shared = SHARED / "games" / "rummy13" / "vectors" / "hands.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert (TESTS / "vectors" / "rummy13" / "hands.json").read_bytes() == shared.read_bytes()


def test_vectors_cover_every_preset_outcome_and_code() -> None:
    assert len(VECTORS) == 97
    assert len(ERROR_VECTORS) == 42
    valid = [v for v in VECTORS if "error" not in v["expected"]]
    assert {v["ruleset"]["preset"] for v in valid} == {"points_rummy", "home_table", "pool_101", "pool_201"}
    kinds = {v["outcome"]["kind"] for v in valid if "outcome" in v}
    assert kinds == {"show", "last_player", "wrong_show", "void"}
    # every §9.1 code but the structural ones is worked by a vector
    assert {v["expected"]["error"] for v in ERROR_VECTORS} == ALL_CODES


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_engine_matches_vector(vector: dict[str, Any]) -> None:
    assert result_of(vector) == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_score_endpoint_matches_vector(client: Any, vector: dict[str, Any]) -> None:
    response = client.post("/api/v1/score", json={"game": "rummy13", **vector})
    body = response.get_json()
    expected = vector["expected"]
    if "error" in expected:
        assert response.status_code == 422, body
        assert body["error"] == expected["error"]
        assert isinstance(body["message"], str) and body["message"].endswith(".")
        assert "field" in body
    else:
        assert response.status_code == 200, body
        assert body == expected


def test_night_copy_matches_shared() -> None:
    shared = SHARED / "games" / "rummy13" / "nights" / "night-01.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert NIGHT_FILE.read_bytes() == shared.read_bytes()


def test_shared_night_hand_by_hand() -> None:
    """nights/night-01.json (§10 #13): each hand's result, the dealer rotation, the final nets."""
    night = json.loads(NIGHT_FILE.read_text(encoding="utf-8"))
    rummy = game("rummy13")
    rules = rummy.rules(night["ruleset"])
    net = dict.fromkeys(night["players"], 0)
    dealer = night["first_dealer"]
    redeals = 0
    for hand in night["hands"]:
        assert hand["dealer"] == dealer
        result = rummy.score(rules, players=night["players"], stake_minor=night["stake"], dealer=dealer,
                             state=None, entry=hand)
        assert result.to_json() == hand["expected"]
        redeals += result.redeal
        for name, amount in result.net.items():
            net[name] += amount
        dealer = rummy.next_dealer(rules, night["players"], dealer, result)
    assert net == night["expected"]["net"]
    assert len(night["hands"]) == night["expected"]["hands_recorded"]
    assert redeals == night["expected"]["redeals"]
    assert len(settle(net).transfers) == night["expected"]["settlement_transfer_count"]


@pytest.mark.parametrize("vector", ERROR_VECTORS, ids=[v["id"] for v in ERROR_VECTORS])
def test_refusals_are_sentences_naming_the_player_concerned(vector: dict[str, Any]) -> None:
    """A refusal pointing into a player's hand or pool score names that player, in a whole sentence."""
    with pytest.raises(HandError) as caught:
        game("rummy13").score_entry(vector)
    err = caught.value
    assert err.message.endswith(".") and len(err.message) > 15
    parts = (err.field or "").replace("[", ".").split(".")
    if parts[0] == "hands" and len(parts) > 1 or parts[:2] == ["pool", "scores_before"]:
        player = parts[1] if parts[0] == "hands" else parts[2]
        assert player in err.message, err.message
