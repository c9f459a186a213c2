"""``joker_hand_value`` is 0 to 10 (RULES.md §6: no card counts more than 10): a rule set with a
value outside is refused with ``invalid_ruleset`` naming the toggle, by the engine, by a stored
snapshot, and by the API (422 with the field); nothing is capped silently."""
from __future__ import annotations

from typing import Any

import pytest

from conftest import session_body
from ledger.games.tonk import HandError, RuleSet
from ledger.games.tonk.validation import total_range


@pytest.mark.parametrize(("value", "sentence"), [
    (11, "House rule joker_hand_value must be at most 10; got 11."),
    (-1, "House rule joker_hand_value must be at least 0; got -1."),
])
def test_a_joker_value_outside_0_to_10_is_refused_naming_the_toggle(value: int, sentence: str) -> None:
    with pytest.raises(HandError) as caught:
        RuleSet.from_spec({"preset": "wikipedia", "toggles": {"joker_hand_value": value}})
    assert (caught.value.code, caught.value.field, str(caught.value)) == (
        "invalid_ruleset", "ruleset.toggles.joker_hand_value", sentence)
    with pytest.raises(HandError) as caught:
        RuleSet.from_snapshot(RuleSet().snapshot() | {"jokers": 2, "joker_hand_value": value})
    assert (caught.value.code, caught.value.field) == ("invalid_ruleset", "ruleset.joker_hand_value")


@pytest.mark.parametrize("value", [0, 10])
def test_the_ends_of_the_range_are_kept_as_given(value: int) -> None:
    rules = RuleSet.from_spec({"preset": "wikipedia", "toggles": {"joker_hand_value": value}})
    assert rules.joker_hand_value == value
    # a held joker counts at most 10, like any card: five cards count at most 50
    assert total_range(rules, "knock")[1] == 50


def test_the_api_answers_422_invalid_ruleset_with_the_field(client: Any, night_data: dict[str, Any]) -> None:
    ruleset = {"preset": "wikipedia", "toggles": {"joker_hand_value": 11}}
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {"ruleset": ruleset})
    assert response.status_code == 422
    body = response.get_json()
    assert (body["error"], body["field"]) == ("invalid_ruleset", "ruleset.toggles.joker_hand_value")
    scored = client.post("/api/v1/score", json={
        "ruleset": ruleset, "players": ["Ann", "Bob"], "stake": 25,
        "outcome": {"kind": "discard_out", "winner": "Ann"}, "hands": {"Ann": {"cards": []}, "Bob": {"total": 12}},
    })
    assert scored.status_code == 422
    assert (scored.get_json()["error"], scored.get_json()["field"]) == ("invalid_ruleset", "ruleset.toggles.joker_hand_value")
