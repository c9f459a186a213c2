"""The 13-card rummy engine beyond the vectors: RUMMY13.md's small worked examples (§1.3, §3.2–§3.6,
§4.2, §4.4, §4.7, §4.9), the games interface (rules, snapshots, seats, pool state, next dealer), and
hypothesis properties: every hand is zero-sum in multiples of the rate, the §3.5 classifier and
the arrangement search agree with brute force on small hands, and junk is refused with a code."""
from __future__ import annotations

import copy
from dataclasses import replace
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import load_json
from ledger.games import GAMES, HandError, game
from ledger.games.base import Game, Scored
from ledger.games.rummy13.cards import card_points, is_wild, read_card, read_wild_rank
from ledger.games.rummy13.entry import after_rules
from ledger.games.rummy13.errors import ALL_CODES
from ledger.games.rummy13.melds import IMPURE, PURE, SET, analyse, classify
from ledger.games.rummy13.ruleset import PRESETS, RummyRules

RUMMY = game("rummy13")
RULES = RummyRules()
VECTORS: list[dict[str, Any]] = load_json("vectors/rummy13/hands.json")
BY_ID = {v["id"]: v for v in VECTORS}


def cards(text: str) -> list[Any]:
    return [read_card(t) for t in text.split()]


def kind(text: str, wild: str | None = None, rules: RummyRules = RULES) -> str | None:
    return classify(cards(text), read_wild_rank(wild), rules)


# -- §1.3, §3.2–§3.4: the classification's own examples ---------------------------------------------
@pytest.mark.parametrize(("group", "wild", "expected"), [
    ("AH 2H 3H", None, PURE),
    ("QH KH AH", None, PURE),            # §1.3: the ace above the king
    ("KH AH 2H", None, None),            # never wraps
    ("KH AH 2H JK", None, None),         # nor with a joker
    ("6H 7H 8H", "7", PURE),             # §3.4: the wild seven as itself
    ("5S 6S 7H", "7", IMPURE),           # the seven stands in for 7♠
    ("7S 7S 7H", None, None),            # §3.2: two of one suit is no set
    ("7S 7S 7H", "7", IMPURE),           # §3.3: with 7 wild it is a meld (a sequence counts first)
    ("9C 9D 9H 9S JK", None, None),      # §3.2: five cards are too many for a set
    ("9C 9D JK", None, SET),
    ("JK JK JK", None, None),            # min_natural_cards = 1
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", None, PURE),
    ("2H 3H JK", None, IMPURE),
    ("10C JC JK", "2", IMPURE),
    ("4D 4S 4H 4C", None, SET),
    ("2H 4H", None, None),
])
def test_classification_examples(group: str, wild: str | None, expected: str | None) -> None:
    assert kind(group, wild) == expected


def test_toggles_change_the_classification() -> None:
    assert kind("9C 9D 9H 9S JK", rules=replace(RULES, set_max_size=5)) == SET
    assert kind("JK JK JK", rules=replace(RULES, min_natural_cards=0)) == IMPURE
    assert kind("2H JK JK", rules=replace(RULES, min_natural_cards=2)) is None


def test_point_values() -> None:
    """§1.2: faces 10, the ace 10 (or 1), jokers and the wild rank 0 wherever they lie."""
    seven = read_wild_rank("7")
    assert [card_points(c, seven, RULES) for c in cards("KS QH JD 10C 7H AS JK 2D")] == [10, 10, 10, 10, 0, 10, 0, 2]
    assert card_points(read_card("AS"), None, replace(RULES, ace_points=1)) == 1
    assert is_wild(read_card("7D"), seven) and not is_wild(read_card("JK"), seven)
    assert read_wild_rank(" t ") == 10 and read_wild_rank("k") == 13 and read_wild_rank(None) is None


def test_a_thirteen_card_run_declares_when_searched_but_not_shown_as_one_group() -> None:
    """§3.6: given as cards the search splits A–6 and 7–K; shown as one group it is one sequence."""
    run = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert analyse(run, None, RULES).declares
    assert BY_ID["err-invalid-declaration-long-run-shown"]["expected"] == {"error": "invalid_declaration"}
    shown_as_two = copy.deepcopy(BY_ID["err-invalid-declaration-long-run-shown"])
    shown_as_two["hands"]["A"]["melds"] = [["AS", "2S", "3S", "4S", "5S", "6S"],
                                           ["7S", "8S", "9S", "10S", "JS", "QS", "KS"]]
    assert RUMMY.score_entry(shown_as_two).net == {"A": 50, "B": -50}


@pytest.mark.parametrize(("raw", "rounded"), [(62, 60), (63, 65), (83, 80), (0, 0), (2, 0), (3, 5)])
def test_rounding_to_five_comes_before_the_cap(raw: int, rounded: int) -> None:
    assert after_rules(raw, replace(RULES, round_to_five=True)) == rounded


@pytest.mark.parametrize(("count", "half"), [(79, 40), (45, 23), (80, 40), (1, 1), (0, 0)])
def test_first_turn_halving_rounds_up(count: int, half: int) -> None:
    """§4.7: ``(count + 1) // 2``, after the cap; drops stay whole."""
    entry = {"ruleset": {"preset": "points_rummy", "toggles": {"first_turn_show_half": True}},
             "players": ["A", "B", "C"], "stake": 10, "outcome": {"kind": "show", "winner": "A", "first_turn_show": True},
             "hands": {"B": {"result": "lost", "points": count}, "C": {"result": "middle_drop"}}}
    assert RUMMY.score_entry(entry).points == {"A": 0, "B": half, "C": 40}


def test_two_players_move_the_same_money_in_both_wrong_show_modes() -> None:
    """§4.4: with two players, ``continue`` (the other is the last player) and ``ends_hand`` agree."""
    go_on = {"ruleset": {"preset": "points_rummy"}, "players": ["A", "B"], "stake": 25,
             "outcome": {"kind": "last_player", "winner": "A"}, "hands": {"B": {"result": "wrong_show"}}}
    ended = {"ruleset": {"preset": "home_table"}, "players": ["A", "B"], "stake": 25,
             "outcome": {"kind": "wrong_show", "shower": "B"}}
    assert RUMMY.score_entry(go_on).net == RUMMY.score_entry(ended).net == {"A": 2000, "B": -2000}


def test_a_drop_may_eliminate_a_pool_player() -> None:
    """§4.9: a home table lets a player drop out of the pool."""
    entry = {"ruleset": {"preset": "pool_101"}, "players": ["A", "B"], "outcome": {"kind": "show", "winner": "A"},
             "hands": {"B": {"result": "first_drop"}}, "pool": {"scores_before": {"A": 0, "B": 90}}}
    result = RUMMY.score_entry(entry).to_json()
    assert result["pool"] == {"scores": {"A": 0, "B": 110}, "eliminated": ["B"], "remaining": ["A"], "over": True,
                              "winner": "A"}


def test_a_stated_count_is_checked_against_the_best_arrangement() -> None:
    """§5.1 #2: the table's own worse arrangement is ``total_mismatch``; the best (50) or its cap agree."""
    entry = {"players": ["A", "B"], "stake": 10, "wild_rank": "J", "outcome": {"kind": "show", "winner": "A"},
             "hands": {"B": {"result": "lost", "points": 86,
                             "cards": "3C 4C 5C 7H 8H 9H 9S 9D KS QD 2S 4D 6S".split()}}}
    with pytest.raises(HandError) as refused:
        RUMMY.score_entry(entry)
    assert refused.value.code == "total_mismatch" and refused.value.field == "hands.B.points"
    entry["hands"]["B"]["points"] = 50
    assert RUMMY.score_entry(entry).points["B"] == 50


# -- the games interface ------------------------------------------------------------------------------
def test_registered_behind_the_games_interface() -> None:
    assert GAMES["rummy13"] is RUMMY and isinstance(RUMMY, Game)
    assert [p.name for p in RUMMY.presets] == ["points_rummy", "home_table", "pool_101", "pool_201"]
    assert RUMMY.accounts == ()
    assert RUMMY.seat_range(RUMMY.rules(None)) == range(2, 7)
    assert RUMMY.seat_range(RUMMY.rules({"preset": "points_rummy", "toggles": {"min_players": 3, "max_players": 4}})) \
        == range(3, 5)
    assert isinstance(RUMMY.score_entry(BY_ID["pts-4p-lost-drops"]), Scored)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_snapshot_rebuilds_the_same_rules(preset: str) -> None:
    rules = RUMMY.rules({"preset": preset, "toggles": {"count_cap": None, "ace_points": 1}})
    assert RUMMY.rules_from_snapshot(rules.snapshot()) == rules
    assert rules.snapshot()["preset"] == preset


def test_pool_state_runs_from_hand_to_hand_through_the_interface() -> None:
    rules = RUMMY.rules({"preset": "pool_101"})
    state = RUMMY.initial_state(rules)
    players = ["A", "B", "C"]
    hands = [({"kind": "show", "winner": "A"}, {"B": {"result": "lost", "points": 60}, "C": {"result": "first_drop"}}),
             ({"kind": "show", "winner": "C"}, {"A": {"result": "lost", "points": 30}, "B": {"result": "lost", "points": 45}})]
    dealer = "A"
    for outcome, given in hands:
        result = RUMMY.score(rules, players=players, stake_minor=0, dealer=dealer, state=state,
                             entry={"outcome": outcome, "hands": given})
        assert result.transfers == () and set(result.net.values()) == {0}
        state = result.state
        dealer = RUMMY.next_dealer(rules, players, dealer, result)
    # the scores go on, and a night keeps each player's buy-ins beside them (pool_night, issue 25)
    assert state == {"scores": {"A": 30, "B": 105, "C": 20}, "buy_ins": {"A": 1, "B": 1, "C": 1}}
    assert dealer == "C"
    assert RUMMY.initial_state(RUMMY.rules(None)) is None


# -- brute force ------------------------------------------------------------------------------------------
def brute_kind(group: list[Any], wild: int | None, rules: RummyRules) -> str | None:
    """§3.1–§3.4 read literally: try every choice of which wild cards stand as themselves, and every
    suit and window of ranks a sequence could occupy (ace as 1 or 14), or every rank of a set."""
    k = len(group)
    if k < 3:
        return None
    wilds = [i for i, c in enumerate(group) if is_wild(c, wild)]
    found = set()
    for choice in product((True, False), repeat=len(wilds)):
        stands = {i for i, keep in zip(wilds, choice) if keep}
        naturals = [c for i, c in enumerate(group) if not c.is_joker and (not is_wild(c, wild) or i in stands)]
        if len(naturals) < rules.min_natural_cards:
            continue
        every_card_itself = len(naturals) == k
        for suit in "SHDC":
            for start in range(1, 16 - k):
                window = set(range(start, start + k))
                if k > 13 or any(c.suit != suit for c in naturals):
                    continue
                spots = [14 if c.rank == 1 and 14 in window else c.rank for c in naturals]
                if len(set(spots)) == len(spots) and set(spots) <= window:
                    found.add(PURE if every_card_itself else IMPURE)
        if k <= rules.set_max_size:
            for rank in range(1, 14):
                if all(c.rank == rank for c in naturals) and len({c.suit for c in naturals}) == len(naturals):
                    found.add(SET)
    for answer in (PURE, IMPURE, SET):
        if answer in found:
            return answer
    return None


POOL = "AS 2S 3S 4S QS KS AH 2H 3H KH 2D 2C JK".split()
WILD = st.sampled_from([None, 2, 13, 3])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=3, max_size=6), WILD, st.sampled_from([0, 1, 2]))
def test_classifier_agrees_with_brute_force(texts: list[str], wild: int | None, naturals: int) -> None:
    group = [read_card(t) for t in texts]
    rules = replace(RULES, min_natural_cards=naturals)
    assert classify(group, wild, rules) == brute_kind(group, wild, rules)


def brute_arrangements(hand: list[Any], wild: int | None, rules: RummyRules) -> tuple[int, bool]:
    """The lowest raw count (§4.2) and whether a valid declaration exists (§3.6), by labelling each
    card loose (0) or in group 1 or 2 (a hand of at most 8 cards holds at most two melds)."""
    pts = [card_points(c, wild, rules) for c in hand]
    total = sum(pts)
    best, declares = total, False
    pure_points = [sum(pts[i] for i in idx) for idx in _subsets(len(hand))
                   if brute_kind([hand[i] for i in idx], wild, rules) == PURE]
    if rules.loser_melds_rule == "pure_first" and pure_points:
        best = min(best, total - max(pure_points))
    for labels in product(range(3), repeat=len(hand)):
        groups = [[i for i, lab in enumerate(labels) if lab == g] for g in (1, 2)]
        if any(0 < len(g) < 3 for g in groups) or not all(groups):
            continue
        kinds = [brute_kind([hand[i] for i in g], wild, rules) for g in groups]
        if None in kinds or PURE not in kinds or SET in kinds:
            continue  # two groups: both must be sequences, one pure
        loose = [i for i, lab in enumerate(labels) if lab == 0]
        best = min(best, sum(pts[i] for i in loose))
        declares = declares or not loose
    return best, declares


def _subsets(n: int) -> list[list[int]]:
    return [[i for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n) if bin(mask).count("1") >= 3]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(POOL), min_size=6, max_size=8), WILD, st.sampled_from(["two_sequences", "pure_first"]))
def test_arrangement_search_agrees_with_brute_force(texts: list[str], wild: int | None, rule: str) -> None:
    hand = [read_card(t) for t in texts]
    rules = replace(RULES, loser_melds_rule=rule)
    found = analyse(hand, wild, rules)
    assert (found.best_raw, found.declares) == brute_arrangements(hand, wild, rules)


# -- zero-sum and junk ----------------------------------------------------------------------------------------
@st.composite
def points_hands(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(2, 6))
    players = [f"P{i}" for i in range(n)]
    preset = draw(st.sampled_from(["points_rummy", "home_table"]))
    winner = draw(st.sampled_from(players))
    results = ["lost", "first_drop", "middle_drop", "full_count"] + (["wrong_show"] if preset == "points_rummy" else [])
    hands = {}
    for p in players:
        if p != winner:
            result = draw(st.sampled_from(results))
            hands[p] = {"result": result} | ({"points": draw(st.integers(0, 130))} if result == "lost" else {})
    toggles = draw(st.fixed_dictionaries({}, optional={"round_to_five": st.booleans(),
                                                       "count_cap": st.one_of(st.none(), st.integers(1, 130)),
                                                       "first_turn_show_half": st.booleans()}))
    return {"ruleset": {"preset": preset, "toggles": toggles}, "players": players,
            "stake": draw(st.integers(1, 10_000)), "wild_rank": draw(st.sampled_from([None, "7", "A"])),
            "outcome": {"kind": "show", "winner": winner, "first_turn_show": draw(st.booleans())}, "hands": hands}


@settings(max_examples=300, deadline=None)
@given(points_hands())
def test_every_points_hand_is_zero_sum_in_multiples_of_the_rate(entry: dict[str, Any]) -> None:
    result = RUMMY.score_entry(entry)
    stake, winner = entry["stake"], entry["outcome"]["winner"]
    assert sum(result.net.values()) == 0
    assert list(result.net) == entry["players"]
    cap = entry["ruleset"]["toggles"].get("count_cap", 80)
    for t in result.transfers:
        assert t.payee == winner and t.amount_minor > 0 and t.amount_minor % stake == 0
        assert t.amount_minor == result.points[t.payer] * stake
    for name, hand in entry["hands"].items():
        if hand["result"] == "lost":
            assert result.points[name] <= min(130, cap if cap is not None else 130)


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.text(max_size=5),
                 st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=3),
                 st.dictionaries(st.text(max_size=4), st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                                 max_size=3))
PARTS = ["ruleset", "players", "stake", "wild_rank", "outcome", "hands", "pool", "entry_fee", "pool_settlement"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VECTORS), st.sampled_from(PARTS), JUNK, st.booleans())
def test_junk_is_refused_with_a_code(vector: dict[str, Any], part: str, junk: Any, deep: bool) -> None:
    entry = copy.deepcopy(vector)
    if deep and isinstance(entry.get(part), dict) and entry[part]:
        key = sorted(entry[part])[0]
        entry[part][key] = junk
    else:
        entry[part] = junk
    try:
        result = RUMMY.score_entry(entry)
    except HandError as err:
        assert err.code in ALL_CODES
        assert err.message.endswith(".")
    else:
        assert sum(result.net.values()) == 0


# -- describing sentences ---------------------------------------------------------------------------------
def test_hands_are_described_in_whole_sentences() -> None:
    from ledger.games.rummy13.describe import describe_lines
    from ledger.sentences import english

    def said(vector_id: str) -> list[str]:
        v = BY_ID[vector_id]
        return [english(s.template, s.params) for s in describe_lines(v["outcome"], v.get("hands"), v["expected"])]

    assert said("pts-4p-lost-drops") == ["A made a valid show and collects 94 points",
                                         "C dropped at once (first drop)", "D dropped mid-hand (middle drop)"]
    assert said("home-wrong-show-ends-hand") == ["B showed wrongly and pays each player still in",
                                                 "D dropped at once (first drop)"]
    assert said("pts-void") == ["The stock ran out: a void hand, nobody pays"]
    assert said("pts-last-player-2p-wrong-show") == ["A won as the last player in", "B showed wrongly"]
    assert said("pts-full-count")[1] == "A gave up the cards: full count"
    assert said("pool101-game-over") == ["B made a valid show and collects 30 points", "A is out of the pool",
                                         "B is the last one in the pool"]
