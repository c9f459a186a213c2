"""The three questions an audit of the rules raised, as RULES.md now answers them (issue 20):

- §4.10: on a deal tonk (the entry shows the dealt hands) a declared highest spade that the entry
  shows in another player's hand or spreads is impossible: ``invalid_side_bet`` naming the
  declaration; off the deal the entry shows end hands, where a dealt spade may have been
  discarded and drawn or laid off by another player (§1.3), so the bet stands;
- §6: ``joker_hand_value`` is 0 to 10 (no card counts more than 10): any other value, or a value
  that is not a whole number, is ``invalid_ruleset`` naming the toggle;
- §9.2: the lowest 5-card total is 6 (four aces and a 2), so a dealt hand declared by its total
  counts 6 to 50 without jokers.
"""
from __future__ import annotations

from typing import Any

import pytest

from ledger.games.tonk import HandError, RuleSet, score_entry
from ledger.games.tonk.validation import lowest_deal_total, total_range

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
AFTER_PLAY = [
    # (outcome, hands, declarations): the declared spade shown with another player at the end
    (KNOCK, {"Ann": {"cards": ["AH", "2H"]}, "Bo": {"cards": ["KS", "QH"]}, "Cy": {"total": 20}}, {"Ann": "KS"}),
    (KNOCK, {"Ann": {"cards": ["AH", "2H"]}, "Bo": {"cards": ["QH"], "spreads": [["KS", "KH", "KD"]]},
             "Cy": {"total": 20}}, {"Ann": "KS", "Bo": None}),
    (KNOCK, {"Ann": {"cards": ["AH", "2H", "QS"]}, "Bo": {"total": 9}, "Cy": {"total": 20}}, {"Cy": "QS"}),
    ({"kind": "tonk_out", "winner": "Cy"}, {"Cy": {"cards": [], "spreads": [["QS", "QH", "QD"]]}},
     {"Ann": "QS", "Bo": "KS"}),
    ({"kind": "dry_stock"}, {"Ann": {"cards": ["3H"]}, "Bo": {"cards": ["9S"]}, "Cy": {"cards": ["JD"]}},
     {"Cy": "9S"}),
]


def test_4_10_a_declared_spade_dealt_to_another_player_is_an_invalid_side_bet() -> None:
    deal = {"kind": "deal_tonk", "claimants": ["Ann"]}
    hands = {"Ann": {"cards": ["KH", "QH", "JH", "10H", "10D"]}, "Bo": {"cards": ["KS", "2H", "3H", "4H", "5H"]}}
    refused = refusal({"ruleset": SPADE_POT, "outcome": deal, "hands": hands, "side_bets": bet(Ann="KS")})
    assert refused == ("invalid_side_bet", "side_bets.spade.highest_spade.Ann",
                       "Ann declared the K♠ as highest spade, but the entry shows the K♠ in Bo's hand.")


@pytest.mark.parametrize(("outcome", "hands", "declared"), AFTER_PLAY)
def test_4_10_after_play_a_declared_spade_may_end_with_another_player(
    outcome: dict[str, Any], hands: dict[str, Any], declared: dict[str, str | None]
) -> None:
    entry = {"ruleset": SPADE_POT, "players": PLAYERS, "stake": 25, "outcome": outcome, "hands": hands}
    with_pot = score_entry(entry | {"side_bets": bet(**declared)}).net
    without = score_entry(entry).net
    moved = {p: with_pot[p] - without[p] for p in PLAYERS}
    assert sum(moved.values()) == 0 and max(moved.values()) == 10 * (len(declared) - 1)


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
