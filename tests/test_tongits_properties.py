"""Property tests of the Tong-its engine (TONGITS.md §9.2): random valid entries under every
preset and random toggles keep players + pot at zero and the pot consistent; the meld search of
§3.2 equals a brute-force reference; junk is refused with a §9.1 code, never a crash."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from ledger.games import HandError, game
from ledger.games.cards import Card, full_deck
from ledger.games.tongits.errors import ALL_CODES
from ledger.games.tongits.melds import is_meld
from ledger.games.tongits.points import points
from ledger.games.tongits.ruleset import PRESETS, TOGGLES

TONGITS = game("tongits")
DECK = list(full_deck())
NAMES = ["Ligaya", "Dodong", "Marisol", "Bong"]


def toggle_value(name: str) -> st.SearchStrategy[Any]:
    toggle = TOGGLES[name]
    if toggle.kind == "bool":
        return st.booleans()
    if toggle.choices:
        return st.sampled_from(toggle.choices)
    return st.integers(toggle.minimum, toggle.minimum + 6)


RULESETS = st.builds(
    lambda preset, toggles: {"preset": preset, "toggles": toggles},
    st.sampled_from(sorted(PRESETS)),
    st.dictionaries(st.sampled_from(sorted(TOGGLES)), st.none()).flatmap(
        lambda names: st.fixed_dictionaries({n: toggle_value(n) for n in names})
    ),
)


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    """A valid §8.1 entry: totals or real cards (from one shuffled deck), opened or burned
    players, every outcome kind, any pot state."""
    ruleset = draw(RULESETS)
    four = bool(ruleset["toggles"].get("four_players"))
    players = NAMES[: draw(st.sampled_from([3, 4])) if four else 3]
    deck = draw(st.permutations(DECK))
    holder = draw(st.none() | st.sampled_from(players))
    pot = {"balance": draw(st.integers(0, 60_000)), "holder": holder,
           "streak": 0 if holder is None else draw(st.integers(1, 5))}
    kind = draw(st.sampled_from(["tongits", "draw", "draw", "stock_out", "stock_out", "redeal", "close_pot"]))
    hands: dict[str, dict[str, Any]] = {}
    opened = {p: draw(st.booleans()) for p in players}
    dealt = 0
    for p in players:
        hand: dict[str, Any] = {"opened": opened[p], "secrets": draw(st.integers(0, 1))}
        if draw(st.booleans()):
            size = draw(st.integers(1, 12))
            hand["cards"] = [str(c) for c in deck[dealt:dealt + size]]
            dealt += size
        else:
            hand["total"] = draw(st.integers(0, 120))
            hand["aces"] = draw(st.integers(0, 4))
        hands[p] = hand
    outcome: dict[str, Any] = {"kind": kind}
    if kind == "tongits":
        winner = draw(st.sampled_from(players))
        outcome["winner"] = winner
        hands[winner] = {"cards": [], "opened": True, "aces": draw(st.integers(0, 4)),
                         "secrets": draw(st.integers(0, 2))}
    elif kind == "draw":
        caller = draw(st.sampled_from(players))
        hands[caller]["opened"] = opened[caller] = True
        outcome["caller"] = caller
        responses = {}
        for p in players:
            if p == caller:
                continue
            if opened[p]:
                responses[p] = draw(st.sampled_from(["fight", "fold"]))
            elif ruleset["toggles"].get("secret_allows_fight", PRESETS[ruleset["preset"]].ruleset().secret_allows_fight) \
                    and hands[p]["secrets"] >= 1 and draw(st.booleans()):
                responses[p] = "fight"
            else:
                responses[p] = "auto_fold"
        outcome["responses"] = responses
    elif kind == "stock_out":
        outcome["last_drawer"] = draw(st.sampled_from(players))
    elif kind == "close_pot":
        outcome["reason"] = draw(st.sampled_from(["end_of_night", "seat_change"]))
    return {"ruleset": ruleset, "players": players, "stake": draw(st.integers(1, 10_000)),
            "dealer": draw(st.sampled_from(players)), "pot": pot, "outcome": outcome, "hands": hands}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries())
def test_valid_entries_keep_players_and_pot_at_zero(entry: dict[str, Any]) -> None:
    result = TONGITS.score_entry(entry).to_json()
    net, pot = result["net"], result["pot"]
    assert set(net) == {*entry["players"], "pot"}
    assert sum(net.values()) == 0
    assert pot["balance_before"] == entry["pot"]["balance"]
    assert pot["balance_after"] == pot["balance_before"] + pot["antes"] - pot["taken"] - pot["split"]
    assert pot["balance_after"] >= 0
    assert net["pot"] == pot["balance_after"] - pot["balance_before"]
    assert all(t["amount"] > 0 for t in result["transfers"])
    assert (pot["holder"] is None) == (pot["streak"] == 0)
    kind = entry["outcome"]["kind"]
    if kind in ("redeal", "close_pot"):
        assert result["winner"] is None and pot["antes"] == 0
    if kind == "redeal":
        assert result["transfers"] == [] and result["redeal"] is True
        assert result["next_dealer"] == entry["dealer"]
    if kind == "close_pot":
        assert all(t["from"] == "pot" for t in result["transfers"]) and pot["holder"] is None
    if kind in ("tongits", "draw") or (kind == "stock_out" and result["winner"] is not None):
        winner = result["winner"]
        assert winner in entry["players"]
        # no money moves between two losers
        for t in result["transfers"]:
            assert winner in (t["from"], t["to"]) or "pot" in (t["from"], t["to"]), t
    if pot["taken_by"] is not None:
        assert pot["taken_by"] == result["winner"] and pot["balance_after"] == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=13))
def test_points_never_above_the_unmelded_sum(cards: list[Card]) -> None:
    counted = points(cards)
    assert 0 <= counted <= sum(c.points for c in cards)


def brute_force(cards: list[Card]) -> int:
    """Every set of disjoint valid melds, tried one by one."""
    melds = [m for size in range(3, len(cards) + 1) for m in combinations(cards, size) if is_meld(m)]

    def best(remaining: frozenset[Card], start: int) -> int:
        low = sum(c.points for c in remaining)
        for index in range(start, len(melds)):
            meld = melds[index]
            if remaining.issuperset(meld):
                low = min(low, best(remaining - set(meld), index + 1))
        return low

    return best(frozenset(cards), 0)


# small hands drawn from a few ranks of every suit, so that sets and runs overlap often
CROWDED = [c for c in DECK if c.rank <= 6]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CROWDED), unique=True, max_size=9))
def test_meld_search_equals_brute_force(cards: list[Card]) -> None:
    assert points(cards) == brute_force(cards)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 200) | st.text(max_size=4) | st.sampled_from(
        ["Ligaya", "Dodong", "Marisol", "pot", "10H", "JK", "tongits", "draw", "fight", "auto_fold"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "winner", "caller", "responses", "last_drawer", "reason", "cards", "melds",
                         "total", "opened", "aces", "secrets", "Ligaya", "Dodong", "Marisol", "balance",
                         "holder", "streak"]), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(entries(), st.sampled_from(["outcome", "hands", "pot", "players", "stake", "dealer", "ruleset"]), JUNK)
def test_junk_is_refused_with_a_code_never_a_crash(entry: dict[str, Any], key: str, junk: Any) -> None:
    entry = {**entry, key: junk}
    try:
        result = TONGITS.score_entry(entry).to_json()
    except HandError as err:
        assert err.code in ALL_CODES
        assert err.message
    else:
        assert sum(result["net"].values()) == 0
