"""RULES.md §4.8: a dry stock where every player ties for lowest. Under ``all_lows_paid`` the
players outside the tie pay the lows, and when nobody is outside it nobody pays: the hand is a
draw (redealt), never a hand with "winners" who won nothing (found by the property test)."""
from __future__ import annotations

from ledger.games.tonk import score_entry


def entry(totals: dict[str, int], tie: str) -> dict[str, object]:
    return {
        "ruleset": {"preset": "classic", "toggles": {"dry_stock_tie": tie}},
        "players": list(totals), "stake": 25,
        "outcome": {"kind": "dry_stock"},
        "hands": {p: {"total": t} for p, t in totals.items()},
    }


def test_every_player_tied_at_dry_stock_is_a_draw_under_all_lows_paid() -> None:
    result = score_entry(entry({"Dee": 4, "Marcus": 4}, "all_lows_paid"))
    assert (result.redeal, result.winners, result.transfers) == (True, (), ())
    assert result.net == {"Dee": 0, "Marcus": 0}


def test_a_tie_with_someone_outside_it_still_pays_the_lows() -> None:
    result = score_entry(entry({"Dee": 4, "Marcus": 4, "Rosa": 9}, "all_lows_paid"))
    assert result.redeal is False and set(result.winners) == {"Dee", "Marcus"}
    assert result.net == {"Dee": 25, "Marcus": 25, "Rosa": -50}
