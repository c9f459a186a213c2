"""Benchmark ledger.settlement.plan by hand: `.venv/bin/python bench/bench_settlement.py [--seed N]`.

For k = 4, 6, ... up to EXACT_LIMIT non-zero balances, and for three kinds of balances:

* ``stake``: multiples of a 25-cent stake, 1 to 8 stakes each (what a Tonk night produces);
* ``wide``: multiples of the stake up to 30 stakes (a long night at a big table);
* ``distinct``: all different amounts between 1 and 60 with no two opposite (the hardest we know
  for the search: many three- and four-player groups, few equal balances);

prints the exact plan's worst and median time and its transfers beside the plain greedy (the
largest debtor pays the largest creditor, ``exact_limit=0``): mean transfers of each, and in how
many cases greedy needs more. Nothing here is asserted; tests never time anything.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.settlement.plan import EXACT_LIMIT, settle  # noqa: E402

Kind = Callable[[random.Random, int], list[int]]


def stake(rng: random.Random, k: int, most: int = 8, stake_minor: int = 25) -> list[int]:
    """``k`` non-zero multiples of ``stake_minor`` summing to zero."""
    while True:
        values = [rng.choice((-1, 1)) * rng.randint(1, most) * stake_minor for _ in range(k - 1)]
        if sum(values) != 0:
            return [*values, -sum(values)]


def distinct(rng: random.Random, k: int, most: int = 60) -> list[int]:
    """``k`` amounts summing to zero, no two of the same size (so none opposite)."""
    while True:
        values = [rng.choice((-1, 1)) * rng.randint(1, most) for _ in range(k - 1)]
        values.append(-sum(values))
        if values[-1] != 0 and len({abs(v) for v in values}) == k:
            return values


KINDS: dict[str, Kind] = {
    "stake": stake,
    "wide": lambda rng, k: stake(rng, k, most=30),
    "distinct": distinct,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--cases", type=int, default=10, help="cases per size and kind")
    args = parser.parse_args()

    print(f"EXACT_LIMIT = {EXACT_LIMIT} non-zero balances; {args.cases} cases per row")
    print(f"{'kind':<9}{'k':>3} | {'exact worst':>11} {'median':>9} | {'greedy worst':>12} | "
          f"{'exact':>6} {'greedy':>6} transfers (mean) | greedy longer")
    for name, kind in KINDS.items():
        rng = random.Random(args.seed)
        for k in [*range(4, EXACT_LIMIT + 1, 2)]:
            exact_times, greedy_times, exact_counts, greedy_counts = [], [], [], []
            for _ in range(args.cases):
                balances = {f"P{i:02d}": v for i, v in enumerate(kind(rng, k), start=1)}
                began = time.perf_counter()
                plan = settle(balances)
                exact_times.append(time.perf_counter() - began)
                assert plan.minimal
                began = time.perf_counter()
                greedy = settle(balances, exact_limit=0)
                greedy_times.append(time.perf_counter() - began)
                exact_counts.append(plan.transfer_count)
                greedy_counts.append(greedy.transfer_count)
            longer = sum(1 for e, g in zip(exact_counts, greedy_counts) if g > e)
            print(f"{name:<9}{k:>3} | {max(exact_times) * 1000:9.1f}ms {statistics.median(exact_times) * 1000:7.1f}ms"
                  f" | {max(greedy_times) * 1000:10.2f}ms | {statistics.fmean(exact_counts):6.1f} "
                  f"{statistics.fmean(greedy_counts):6.1f}           | {longer}/{args.cases}")


if __name__ == "__main__":
    main()
