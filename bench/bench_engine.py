"""Rules engine speed, run by hand: ``.venv/bin/python bench/bench_engine.py``.

Prints hands scored per second over the shared vectors, and the worst cases we know of for the
subset searches of RULES.md §3.4 (held spreads excluded, mandatory spreads) on 10-card hands
with jokers (JK JK 2H-9H is the worst known), and a 10-card hand holding no spread under
mandatory spreads (every subset is looked at). Then Tong-its (TONGITS.md): hands per second
over its shared vectors, and its worst hand for the best meld choice of §3.2 over 13 cards
(found by a hill-climbing search of the meld search's states: ``AD 2C 2D 2H 2S 3D 3H 3S 4D 4H 4S
5H 5S``, sets and runs crossing everywhere), timed with the search's memory cleared before each
call (cold) and as a table meets it (warm), beside Tonk's figures with the ratios. Then 13-card
rummy (RUMMY13.md): hands per second over its shared vectors, and the worst best-arrangement search
of §3.6/§4.2 we know, 13 cards with 2 printed jokers and the cut joker's rank wild (found by a
hill-climbing search of the arrangement search's states: ``4C 4C 4D 4H 4S 5C 6C 6S 7C 7S 8C JK
JK``, wild 4: seven jokers in all), cold and warm, with its search states, and the slowest hand of
the vectors given as cards. Each figure is the best of five rounds. No assertions: figures and
ratios to compare between builds.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from ledger.games import game
from ledger.games.tonk import HandError, RuleSet, parse_entry, score_entry, score_hand
from ledger.games.tongits.cards import read_card
from ledger.games.tongits.points import _deadwood, points
from ledger.games.rummy13.cards import read_card as read_rummy_card, read_wild_rank
from ledger.games.rummy13.melds import _analyse, analyse
from ledger.games.cards import InvalidCard

TESTS = Path(__file__).resolve().parent.parent / "tests"
VECTORS = json.loads((TESTS / "vectors" / "hands.json").read_text())
TONGITS_VECTORS = json.loads((TESTS / "vectors" / "tongits" / "hands.json").read_text())
# the 13-card hand whose best meld choice takes the most search states (hill-climbing search)
TONGITS_WORST = [read_card(c) for c in "AD 2C 2D 2H 2S 3D 3H 3S 4D 4H 4S 5H 5S".split()]
RUMMY_VECTORS = json.loads((TESTS / "vectors" / "rummy13" / "hands.json").read_text())
# the 13 cards whose best arrangement takes the most search states (hill-climbing search), with 4s wild
RUMMY_WORST = ([read_rummy_card(c) for c in "4C 4C 4D 4H 4S 5C 6C 6S 7C 7S 8C JK JK".split()], read_wild_rank("4"))


def per_second(label: str, fn, repeat: int, rounds: int = 5) -> float:
    """Calls per second of ``fn``: the best of ``rounds`` rounds of ``repeat`` calls (as
    ``timeit`` advises, the least disturbed round is the best estimate on a busy machine)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, time.perf_counter() - start)
    rate = repeat / best
    print(f"{label:<58} {rate:>10,.0f} /s   ({best / repeat * 1e6:,.0f} µs each)")
    return rate


def score_all() -> None:
    for vector in VECTORS:
        try:
            score_entry(vector)
        except HandError:
            pass


def score_all_of(name: str, vectors: list) -> None:
    """Score every vector of game ``name`` through the games interface (a refusal is a result too)."""
    chosen = game(name)
    for vector in vectors:
        try:
            chosen.score_entry(vector)
        except HandError:
            pass


def main() -> None:
    print(f"{len(VECTORS)} shared vectors")
    vectors_rate = per_second("all vectors, parse + check + score (per vector set)", score_all, 40) * len(VECTORS)
    print(f"{'  = hands per second':<58} {vectors_rate:>10,.0f} /s")
    tonk_worst = tonk_figures()
    tongits_figures(vectors_rate, tonk_worst)
    rummy_figures(vectors_rate, tonk_worst)


def rummy_figures(tonk_rate: float, tonk_worst: float) -> None:
    print(f"\n13-card rummy: {len(RUMMY_VECTORS)} shared vectors")
    rate = per_second("all rummy vectors, check + score (per vector set)", lambda: score_all_of("rummy13", RUMMY_VECTORS), 40) * len(RUMMY_VECTORS)
    print(f"{'  = hands per second':<58} {rate:>10,.0f} /s")
    print(f"{'  ratio rummy / Tonk hands per second':<58} {rate / tonk_rate:>10.2f} ×")
    rules = game("rummy13").rules({"preset": "points_rummy"})
    cards, wild = RUMMY_WORST

    def cold() -> None:
        _analyse.cache_clear()
        analyse(cards, wild, rules)

    worst = per_second("worst 13 cards, 2 jokers, 4s wild, cold (4C 4C 4D … JK JK)", cold, 20)
    _analyse.cache_clear()
    found = analyse(cards, wild, rules)
    print(f"{'  its lowest count and search states':<58} {found.best_raw:>10} pts, {found.search_states} states")
    per_second("same hand, warm (the search's memory kept)", lambda: analyse(cards, wild, rules), 5000)
    print(f"{'  ratio rummy worst / Tonk worst (calls per second)':<58} {worst / tonk_worst:>10.3g} ×")
    slowest = (0, "")
    for vector in RUMMY_VECTORS:
        for name, hand in (vector.get("hands") or {}).items():
            if isinstance(hand, dict) and isinstance(hand.get("cards"), list) and len(hand["cards"]) == 13:
                try:
                    given = [read_rummy_card(c) for c in hand["cards"]]
                except (HandError, InvalidCard):  # a vector of a refused card
                    continue
                _analyse.cache_clear()
                states = analyse(given, read_wild_rank(vector.get("wild_rank")), rules).search_states
                slowest = max(slowest, (states, f"{vector['id']} ({name})"))
    print(f"{'  the slowest 13-card hand of the vectors':<58} {slowest[0]:>10} states, {slowest[1]}")


def tongits_figures(tonk_rate: float, tonk_worst: float) -> None:
    print(f"\nTong-its: {len(TONGITS_VECTORS)} shared vectors")
    rate = per_second("all Tong-its vectors, check + score (per vector set)", lambda: score_all_of("tongits", TONGITS_VECTORS), 40)
    rate *= len(TONGITS_VECTORS)
    print(f"{'  = hands per second':<58} {rate:>10,.0f} /s")
    print(f"{'  ratio Tong-its / Tonk hands per second':<58} {rate / tonk_rate:>10.2f} ×")

    def cold() -> None:
        _deadwood.cache_clear()
        points(TONGITS_WORST)

    worst = per_second("worst 13-card meld choice, cold (AD 2C-2S 3D-3S 4D-4S 5H 5S)", cold, 500)
    _deadwood.cache_clear()
    states = (points(TONGITS_WORST), _deadwood.cache_info().misses)
    print(f"{'  its points and search states':<58} {states[0]:>10} pts, {states[1]} states")
    per_second("same hand, warm (the search's memory kept)", lambda: points(TONGITS_WORST), 5000)
    print(f"{'  ratio Tong-its worst / Tonk worst (calls per second)':<58} {worst / tonk_worst:>10.1f} ×")


def tonk_figures() -> float:
    """Tonk's worst-case figures; returns the calls per second of its worst known hand."""

    hand = {"cards": ["JK", "JK", "4H", "5H", "6H", "7H", "8C", "8D", "8S", "9H"]}
    ten_card = {
        "players": ["A", "B"], "stake": 25, "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": hand, "B": {"cards": ["2C"]}},
    }
    excluded = RuleSet.from_spec({"preset": "wikipedia", "toggles": {
        "hand_size": 9, "drop_timing": "any", "held_spreads_count": False}})
    record = parse_entry(ten_card)
    base = per_second("10-card knock with jokers, held spreads counted", lambda: score_hand(
        RuleSet.from_spec({"preset": "wikipedia", "toggles": {"hand_size": 9, "drop_timing": "any"}}), record), 200)
    worst = per_second("same hand, held spreads excluded (best disjoint set)", lambda: score_hand(excluded, record), 50)
    print(f"{'  ratio counted / excluded':<58} {base / worst:>10.1f} ×")
    must_lay = RuleSet.from_spec({"preset": "wikipedia", "toggles": {
        "hand_size": 9, "drop_timing": "any", "must_lay_spreads": True}})

    def mandatory() -> None:
        try:
            score_hand(must_lay, record)
        except HandError:
            pass

    per_second("same hand, mandatory spreads (held_spread refusal)", mandatory, 200)

    # the worst hand we know for the held-spreads search: every card of one suit, and two jokers
    hearts = parse_entry({
        "players": ["A", "B"], "stake": 25, "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": {"cards": ["JK", "JK", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]},
                  "B": {"cards": ["2C"]}},
    })
    tonk_worst = per_second("JK JK 2H-9H knock, held spreads excluded (worst known)",
                            lambda: score_hand(excluded, hearts), 50)

    # mandatory spreads and no spread held: every subset of both hands is judged
    no_spread = parse_entry({
        "players": ["A", "B"], "stake": 25, "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": {"cards": ["2S", "4S", "6S", "8S", "10S", "QS", "3H", "5H", "7H", "9H"]},
                  "B": {"cards": ["2C", "4D", "6C", "8D", "10C", "QD", "3D", "5C", "7D"]}},
    })
    classic_must_lay = RuleSet.from_spec({"preset": "classic", "toggles": {
        "hand_size": 9, "drop_timing": "any", "must_lay_spreads": True}})
    per_second("10 + 9 cards holding no spread, mandatory spreads", lambda: score_hand(classic_must_lay, no_spread), 50)
    return tonk_worst


if __name__ == "__main__":
    main()
