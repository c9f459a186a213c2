"""Rules engine speed, run by hand: ``.venv/bin/python bench/bench_engine.py``.

Prints hands scored per second over the shared vectors, and the worst cases we know of for the
subset searches of RULES.md §3.4 (held spreads excluded, mandatory spreads) on 10-card hands
with jokers (JK JK 2H-9H is the worst known), and a 10-card hand holding no spread under
mandatory spreads (every subset is looked at). Each figure is the best of five rounds. No
assertions: figures and ratios to compare between builds.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from ledger.games.tonk import HandError, RuleSet, parse_entry, score_entry, score_hand

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "tests" / "vectors" / "hands.json").read_text())


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


def main() -> None:
    print(f"{len(VECTORS)} shared vectors")
    vectors_rate = per_second("all vectors, parse + check + score (per vector set)", score_all, 40) * len(VECTORS)
    print(f"{'  = hands per second':<58} {vectors_rate:>10,.0f} /s")

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
    per_second("JK JK 2H-9H knock, held spreads excluded (worst known)", lambda: score_hand(excluded, hearts), 50)

    # mandatory spreads and no spread held: every subset of both hands is judged
    no_spread = parse_entry({
        "players": ["A", "B"], "stake": 25, "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": {"cards": ["2S", "4S", "6S", "8S", "10S", "QS", "3H", "5H", "7H", "9H"]},
                  "B": {"cards": ["2C", "4D", "6C", "8D", "10C", "QD", "3D", "5C", "7D"]}},
    })
    classic_must_lay = RuleSet.from_spec({"preset": "classic", "toggles": {
        "hand_size": 9, "drop_timing": "any", "must_lay_spreads": True}})
    per_second("10 + 9 cards holding no spread, mandatory spreads", lambda: score_hand(classic_must_lay, no_spread), 50)


if __name__ == "__main__":
    main()
