"""The three questions an audit of the rules raised, as RULES.md now answers them (issue 20):

- §4.10: a declared highest spade that the entry shows in another player's hand or laid spreads
  (or in the final spread of the player who went out) is impossible: ``invalid_side_bet``, at any
  outcome, naming the declaration;
- §6: ``joker_hand_value`` is 0 to 10 (no card counts more than 10): any other value, or a value
  that is not a whole number, is ``invalid_ruleset`` naming the toggle;
- §9.2: the lowest 5-card total is 6 (four aces and a 2), so a dealt hand declared by its total
  counts 6 to 50 without jokers.
"""
from __future__ import annotations

from typing import Any

import pytest

from ledger.rules import HandError, RuleSet, score_entry
from ledger.rules.validation import lowest_deal_total, total_range

PLAYERS = ["Ann", "Bo", "Cy"]
SPADE_POT = {"preset": "classic", "toggles": {"spade_side_pot": True}}


def refusal(entry: dict[str, Any]) -> tuple[str, str | None, str] | None:
    try:
        score_entry({"players": PLAYERS, "stake": 25} | entry)
    except HandError as err:
        return err.code, err.field, err.message
    return None


def bet(**declared: str | None) -> dict[str, Any]:
    return {"spade": {"side_stake": 10, "highest_spade": declared}}


KNOCK = {"kind": "knock", "knocker": "Ann"}
SHOWN_ELSEWHERE = [
    # (outcome, hands, declarations, declarer, holder)
    (KNOCK, {"Ann": {"cards": ["AH", "2H"]}, "Bo": {"cards": ["KS", "QH"]}, "Cy": {"total": 20}}, {"Ann": "KS"},
     "Ann", "Bo"),
    (KNOCK, {"Ann": {"cards": ["AH", "2H"]}, "Bo": {"cards": ["QH"], "spreads": [["KS", "KH", "KD"]]},
             "Cy": {"total": 20}}, {"Ann": "KS", "Bo": None}, "Ann", "Bo"),
    (KNOCK, {"Ann": {"cards": ["AH", "2H", "QS"]}, "Bo": {"total": 9}, "Cy": {"total": 20}}, {"Cy": "QS"},
     "Cy", "Ann"),
    ({"kind": "tonk_out", "winner": "Cy"}, {"Cy": {"cards": [], "spreads": [["QS", "QH", "QD"]]}},
     {"Ann": "QS", "Bo": "KS"}, "Ann", "Cy"),
    ({"kind": "dry_stock"}, {"Ann": {"cards": ["3H"]}, "Bo": {"cards": ["9S"]}, "Cy": {"cards": ["JD"]}},
     {"Cy": "9S"}, "Cy", "Bo"),
    ({"kind": "deal_tonk", "claimants": ["Ann"]},
     {"Ann": {"cards": ["KH", "QH", "JH", "10H", "10D"]}, "Bo": {"cards": ["KS", "2H", "3H", "4H", "5H"]}},
     {"Ann": "KS"}, "Ann", "Bo"),
]


@pytest.mark.parametrize(("outcome", "hands", "declared", "declarer", "holder"), SHOWN_ELSEWHERE)
def test_4_10_a_declared_spade_shown_with_another_player_is_an_invalid_side_bet(
    outcome: dict[str, Any], hands: dict[str, Any], declared: dict[str, str | None], declarer: str, holder: str
) -> None:
    refused = refusal({"ruleset": SPADE_POT, "outcome": outcome, "hands": hands, "side_bets": bet(**declared)})
    assert refused is not None, "the bet was settled"
    code, field, message = refused
    assert (code, field) == ("invalid_side_bet", f"side_bets.spade.highest_spade.{declarer}")
    card = declared[declarer]
    assert message == (f"{declarer} shows the {card[:-1]}♠ as highest spade, but the entry shows it with {holder}.")


def test_4_10_a_spade_the_declarer_holds_or_nobody_shows_is_settled() -> None:
    own = {"Ann": {"cards": ["AH", "2H", "KS"]}, "Bo": {"cards": ["QH"]}, "Cy": {"total": 20}}
    entry = {"ruleset": SPADE_POT, "players": PLAYERS, "stake": 25, "outcome": KNOCK, "hands": own}
    with_pot = score_entry(entry | {"side_bets": bet(Ann="KS", Bo="QS", Cy=None)}).net
    without = score_entry(entry).net
    assert {p: with_pot[p] - without[p] for p in PLAYERS} == {"Ann": 20, "Bo": -10, "Cy": -10}  # K♠ takes the pot
    joker_for_it = {"ruleset": {"preset": "classic", "toggles": {"spade_side_pot": True, "jokers": 2}},
                    "outcome": KNOCK, "hands": {"Ann": {"cards": ["AH", "2H"]},
                                                "Bo": {"cards": ["QH"], "spreads": [["JK", "KH", "KD"]]},
                                                "Cy": {"total": 20}},
                    "side_bets": bet(Ann="KS")}
    assert refusal(joker_for_it) is None  # a joker in Bo's book is not the K♠


@pytest.mark.parametrize("value", [-1, 11, 50, True, 5.0, "5", None])
def test_6_joker_hand_value_outside_0_to_10_is_an_invalid_ruleset_naming_the_toggle(value: Any) -> None:
    with pytest.raises(HandError) as refused:
        RuleSet.from_spec({"preset": "classic", "toggles": {"jokers": 2, "joker_hand_value": value}})
    assert (refused.value.code, refused.value.field) == ("invalid_ruleset", "ruleset.toggles.joker_hand_value")


@pytest.mark.parametrize("value", [0, 1, 10])
def test_6_joker_hand_value_0_to_10_is_a_ruleset(value: int) -> None:
    assert RuleSet.from_spec({"preset": "classic", "toggles": {"jokers": 2, "joker_hand_value": value}}
                             ).joker_hand_value == value


def test_6_the_api_refuses_a_joker_worth_more_than_10(client: Any) -> None:
    body = {"name": "n", "currency": "USD", "stake": 25, "players": PLAYERS, "first_dealer": "Ann",
            "ruleset": {"preset": "classic", "toggles": {"jokers": 2, "joker_hand_value": 11}}}
    refused = client.post("/api/v1/sessions", json=body)
    assert refused.status_code == 422
    assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_ruleset",
                                                                          "ruleset.toggles.joker_hand_value")


def test_9_2_the_lowest_five_card_total_is_6() -> None:
    classic = RuleSet.from_spec({"preset": "classic"})
    assert lowest_deal_total(classic) == 6 and total_range(classic, "deal_tonk") == (6, 50)
    deal = {"ruleset": {"preset": "classic"}, "outcome": {"kind": "deal_tonk", "claimants": ["Ann"]}}
    ann = {"cards": ["KH", "QH", "JH", "10H", "10D"]}
    refused = refusal(deal | {"hands": {"Ann": ann, "Bo": {"total": 5}}})
    assert refused == ("total_out_of_range", "hands.Bo.total",
                       "Bo's total of 5 is impossible: a hand here counts 6 to 50.")
    assert refusal(deal | {"hands": {"Ann": ann, "Bo": {"total": 6}}}) is None
    four_aces_and_a_two = {"cards": ["AH", "AD", "AC", "AS", "2H"]}
    refused = refusal(deal | {"hands": {"Ann": ann, "Bo": four_aces_and_a_two | {"total": 5}}})
    assert refused is not None and refused[:2] == ("total_mismatch", "hands.Bo.total")
    # seven cards: four aces and three 2s; jokers worth 0 go lower
    assert lowest_deal_total(RuleSet.from_spec({"preset": "classic", "toggles": {"hand_size": 7}})) == 10
    assert lowest_deal_total(RuleSet.from_spec({"preset": "classic", "toggles": {"jokers": 2}})) == 3
