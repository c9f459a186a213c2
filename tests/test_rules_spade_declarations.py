"""The spade side pot's declarations against the cards an entry shows (RULES.md §4.10, §9.1
item 14): on a deal tonk the dealt hands are in the entry, so a declared spade that the entry
shows in another player's hand is impossible, ``invalid_side_bet`` naming the declaration."""
from __future__ import annotations

from typing import Any

import pytest

from ledger.games.tonk import HandError, score_entry

RULES = {"preset": "classic", "toggles": {"spade_side_pot": True}}


def deal_tonk(highest_spade: dict[str, str | None], hands: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ann is dealt a 50 (no spade); Bob's dealt hand, with the Q♠, is shown; Cy's is not."""
    return {
        "ruleset": RULES, "players": ["Ann", "Bob", "Cy"], "stake": 25,
        "outcome": {"kind": "deal_tonk", "claimants": ["Ann"]},
        "hands": hands or {"Ann": {"cards": ["KH", "QH", "JH", "10H", "KD"]},
                           "Bob": {"cards": ["QS", "2S", "3C", "4D", "5H"]}},
        "side_bets": {"spade": {"side_stake": 10, "highest_spade": highest_spade}},
    }


def test_a_spade_declared_by_one_player_and_dealt_to_another_is_refused() -> None:
    # Bob's own declaration (his highest spade, the Q♠) is right; Cy's 2♠ was dealt to Bob
    with pytest.raises(HandError) as caught:
        score_entry(deal_tonk({"Ann": None, "Bob": "QS", "Cy": "2S"}))
    err = caught.value
    assert (err.code, err.field) == ("invalid_side_bet", "side_bets.spade.highest_spade.Cy")
    assert str(err) == "Cy declared the 2♠ as highest spade, but the entry shows the 2♠ in Bob's hand."


def test_a_spade_no_hand_shows_is_still_taken() -> None:
    result = score_entry(deal_tonk({"Ann": None, "Bob": "QS", "Cy": "KS"}))
    # the main hand: Bob and Cy each pay Ann 2 × 25; the side pot: Ann and Bob each pay Cy 10
    assert result.net == {"Ann": 100 - 10, "Bob": -50 - 10, "Cy": -50 + 20}


def test_the_main_hand_is_checked_before_the_side_bet() -> None:
    """§9.1: outcome checks come before ``invalid_side_bet`` (item 14 lists it last)."""
    entry = deal_tonk({"Ann": None, "Bob": "QS", "Cy": "2S"},
                      hands={"Ann": {"cards": ["KH", "QH", "JH", "9H", "2D"]},
                             "Bob": {"cards": ["QS", "2S", "3C", "4D", "5H"]}})
    with pytest.raises(HandError) as caught:
        score_entry(entry)
    assert caught.value.code == "not_a_deal_tonk"


def test_after_the_deal_a_spade_may_end_in_another_hand() -> None:
    """Off the deal the entry shows end hands: a dealt spade may have moved (§1.3), so it stands."""
    entry = {
        "ruleset": RULES, "players": ["Ann", "Bob", "Cy"], "stake": 25,
        "outcome": {"kind": "knock", "knocker": "Ann"},
        "hands": {"Ann": {"cards": ["AH"]}, "Bob": {"cards": ["QS", "2C"]}, "Cy": {"total": 9}},
        "side_bets": {"spade": {"side_stake": 10, "highest_spade": {"Ann": None, "Bob": "2S", "Cy": "QS"}}},
    }
    result = score_entry(entry)
    assert result.net == {"Ann": 50 - 10, "Bob": -25 - 10, "Cy": -25 + 20}
