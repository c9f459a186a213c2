"""Finding 6 of the "nothing lost" issue: too few cards as well as too many (RULES.md §9.1 item 10).

``vectors/hands-card-counts.json`` (our own vectors, in the format of the shared
``vectors/hands.json``) holds one refused entry per card-count check and outcome, with accepted
controls beside them; each runs through the engine and through ``POST /api/v1/score``.
"""
from __future__ import annotations

from typing import Any

import pytest

from conftest import load_json
from ledger.games.tonk import HandError, score_entry
from test_rules_vectors import result_of

VECTORS: list[dict[str, Any]] = load_json("vectors/hands-card-counts.json")
FIFTY = ["10S", "10H", "JH", "QD", "KC"]


def by_id(vector_id: str) -> dict[str, Any]:
    return next(v for v in VECTORS if v["id"] == vector_id)


def refusal(entry: dict[str, Any]) -> HandError:
    with pytest.raises(HandError) as caught:
        score_entry(entry)
    return caught.value


def test_finding_6_deal_tonk_other_hand_with_three_cards_is_refused() -> None:
    err = refusal(by_id("count-deal-other-hand-three-cards"))
    assert (err.code, err.field) == ("wrong_card_count", "hands.B.cards")
    assert err.message == "B's dealt hand shows 3 cards; the deal is 5 cards."


def test_finding_6_deal_tonk_other_hand_with_no_cards_is_refused() -> None:
    err = refusal(by_id("count-deal-other-hand-no-cards"))
    assert (err.code, err.field) == ("wrong_card_count", "hands.B.cards")
    assert "0 cards" in err.message


def test_finding_6_deal_tonk_other_hand_with_a_laid_spread_is_refused() -> None:
    err = refusal(by_id("count-deal-other-hand-with-laid-spread"))
    assert (err.code, err.field) == ("wrong_card_count", "hands.B.spreads")


def test_finding_6_deal_tonk_total_below_the_lowest_deal_is_refused() -> None:
    err = refusal(by_id("count-deal-other-total-below-five-cards"))
    assert (err.code, err.field) == ("total_out_of_range", "hands.B.total")
    assert "6 to 50" in err.message


def test_finding_6_deal_tonk_lowest_possible_deal_total_is_accepted() -> None:
    entry = by_id("count-deal-other-total-lowest-five-cards-ok")
    assert score_entry(entry).net == {"A": 400, "B": -200, "C": -200}


def test_finding_6_seven_card_deal_lowest_total_counts_the_seven_lowest_cards() -> None:
    entry = {
        "ruleset": {"preset": "classic", "toggles": {"hand_size": 7, "low_deal_rules": [{"max_total": 13, "mult": 2}]}},
        "players": ["A", "B"], "stake": 10,
        "outcome": {"kind": "deal_tonk", "claimants": ["A"]},
        "hands": {"A": {"cards": ["AS", "AH", "AD", "AC", "2S", "2H", "3C"]}, "B": {"total": 9}},
    }
    err = refusal(entry)  # 1+1+1+1+2+2+2 = 10 is the least seven cards can count
    assert (err.code, err.field) == ("total_out_of_range", "hands.B.total")
    entry["hands"]["B"]["total"] = 10
    assert score_entry(entry).net == {"A": 20, "B": -20}


def test_finding_6_tonk_out_final_turn_with_one_card_is_refused() -> None:
    err = refusal(by_id("count-tonkout-final-turn-one-card"))
    assert (err.code, err.field) == ("wrong_card_count", "outcome.final_turn")
    assert "A" in err.message


def test_finding_6_tonk_out_final_turn_with_two_spread_cards_is_refused() -> None:
    err = refusal(by_id("count-tonkout-final-turn-two-spread-cards"))
    assert (err.code, err.field) == ("wrong_card_count", "outcome.final_turn.spread_cards")


def test_finding_6_tonk_out_final_turn_with_more_than_hand_size_plus_one_cards_is_refused() -> None:
    err = refusal(by_id("count-tonkout-final-turn-too-many"))
    assert (err.code, err.field) == ("too_many_cards", "outcome.final_turn")


def test_finding_6_double_double_final_spread_longer_than_a_turn_is_refused() -> None:
    err = refusal(by_id("count-double-double-final-spread-seven-cards"))
    assert (err.code, err.field) == ("too_many_cards", "outcome.tonker_final_spread")


def test_card_count_vectors_cover_every_outcome_that_lists_cards() -> None:
    kinds = {v["outcome"]["kind"] for v in VECTORS if "error" in v["expected"]}
    assert kinds == {"deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock", "double_double"}
    codes = {v["expected"]["error"] for v in VECTORS if "error" in v["expected"]}
    assert {"wrong_card_count", "empty_hand", "too_many_cards", "total_out_of_range"} <= codes


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_engine_matches_card_count_vector(vector: dict[str, Any]) -> None:
    assert result_of(vector) == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_score_endpoint_matches_card_count_vector(client: Any, vector: dict[str, Any]) -> None:
    response = client.post("/api/v1/score", json=vector)
    body = response.get_json()
    expected = vector["expected"]
    if "error" in expected:
        assert response.status_code == 422, body
        assert body["error"] == expected["error"]
        assert body["message"].endswith(".")
    else:
        assert response.status_code == 200, body
        assert (body["transfers"], body["net"]) == (expected["transfers"], expected["net"])
