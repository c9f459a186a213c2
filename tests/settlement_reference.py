"""The exact settlement as it was up to 18 balances (a dynamic programme over every subset,
``O(2**n * n)``), kept as an independent reference for the faster search in
:mod:`ledger.settlement.plan`: the largest number of disjoint zero-sum groups."""
from __future__ import annotations

from typing import Sequence


def max_zero_sum_groups(amounts: Sequence[int]) -> int:
    """How many disjoint zero-sum groups the non-zero ``amounts`` (summing to zero) split into
    at most: ``best[mask]`` is the best over removing any one member, plus one if ``mask`` sums
    to zero."""
    amounts = [a for a in amounts if a != 0]
    size = 1 << len(amounts)
    sums = [0] * size
    for i, amount in enumerate(amounts):
        bit = 1 << i
        sums[bit: bit << 1] = [s + amount for s in sums[:bit]]
    best = [0] * size
    for mask in range(1, size):
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            top = max(top, best[mask ^ bit])
            rest ^= bit
        best[mask] = top + (sums[mask] == 0)
    return best[size - 1]


def minimum_transfers(amounts: Sequence[int]) -> int:
    """Fewest transfers that clear ``amounts``: non-zero balances less zero-sum groups."""
    nonzero = [a for a in amounts if a != 0]
    return len(nonzero) - max_zero_sum_groups(nonzero) if nonzero else 0
