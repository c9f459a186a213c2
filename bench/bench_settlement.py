"""Benchmark ledger.settlement by hand: `.venv/bin/python bench/bench_settlement.py [--seed N]`.

Prints (1) the wall time of the exact search for k random non-zero zero-sum balances,
k = 8, 10, ... up to EXACT_LIMIT (plus one step beyond, to show why the limit is where it is),
and (2) how many transfers the heuristic uses compared with the exact minimum, for sizes at and
above the limit (the exact side is forced with ``exact_limit=k``, so that part is slow).
Nothing here is asserted; tests never time anything.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ledger.settlement import EXACT_LIMIT, settle  # noqa: E402


def random_balances(rng: random.Random, k: int, stake_minor: int = 25) -> dict[str, int]:
    """``k`` non-zero balances, multiples of ``stake_minor`` as a Tonk night produces, summing
    to zero."""
    while True:
        values = [rng.choice((-1, 1)) * rng.randint(1, 8) * stake_minor for _ in range(k - 1)]
        last = -sum(values)
        if last != 0:
            return {f"P{i:02d}": v for i, v in enumerate([*values, last], start=1)}


def time_exact(rng: random.Random, k: int, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        balances = random_balances(rng, k)
        start = time.perf_counter()
        plan = settle(balances, exact_limit=k)
        times.append(time.perf_counter() - start)
        assert plan.minimal
    return times


def compare(rng: random.Random, k: int, cases: int) -> tuple[float, int, int]:
    """Mean heuristic/exact transfer-count ratio, worst extra transfers, cases with any extra."""
    ratios, extras = [], []
    for _ in range(cases):
        balances = random_balances(rng, k)
        exact = settle(balances, exact_limit=k).transfer_count
        heuristic = settle(balances, exact_limit=0).transfer_count
        ratios.append(heuristic / exact)
        extras.append(heuristic - exact)
    return statistics.fmean(ratios), max(extras), sum(1 for e in extras if e > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per size")
    parser.add_argument("--cases", type=int, default=5, help="comparison cases per size")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"EXACT_LIMIT = {EXACT_LIMIT} non-zero balances")
    print("exact search time (best / worst of runs):")
    for k in sorted({*range(8, EXACT_LIMIT + 1, 2), EXACT_LIMIT, EXACT_LIMIT + 1}):
        times = time_exact(rng, k, args.repeats)
        note = "  (beyond the limit)" if k > EXACT_LIMIT else ""
        print(f"  k={k:2d}: {min(times):7.3f} s / {max(times):7.3f} s{note}")

    print("heuristic vs exact transfer counts (ratio mean, worst extra, cases worse):")
    for k in (EXACT_LIMIT - 6, EXACT_LIMIT, EXACT_LIMIT + 1, EXACT_LIMIT + 2):
        mean_ratio, worst, worse = compare(rng, k, args.cases)
        print(
            f"  k={k:2d}: ratio {mean_ratio:.3f}, worst +{worst}, "
            f"{worse}/{args.cases} cases worse"
        )


if __name__ == "__main__":
    main()
