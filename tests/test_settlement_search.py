"""The exact settlement search (pairs of opposites, then branch and bound over zero-sum groups)
against the old subset programme kept in ``settlement_reference``, and at the limit of 24."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.settlement.plan import EXACT_LIMIT, settle
from settlement_reference import minimum_transfers

COMPARE = settings(max_examples=400, database=None, deadline=None)


def balances_of(values: list[int]) -> dict[str, int]:
    values = values + [-sum(values)]
    return {f"P{i:02d}": v for i, v in enumerate(values, start=1)}


def clears(balances: dict[str, int], plan) -> bool:
    after = dict(balances)
    for t in plan.transfers:
        if not balances[t.payer] < 0 < balances[t.payee]:
            return False
        after[t.payer] += t.amount_minor
        after[t.payee] -= t.amount_minor
    return all(v == 0 for v in after.values())


@COMPARE
@given(st.lists(st.integers(-6, 6), max_size=11))
def test_small_amounts_match_the_old_programme(values: list[int]) -> None:
    """Small amounts: many equal balances and many exact opposites."""
    balances = balances_of(values)
    plan = settle(balances)
    assert plan.minimal is True
    assert plan.transfer_count == minimum_transfers(list(balances.values()))
    assert clears(balances, plan)


@COMPARE
@given(st.lists(st.integers(1, 40).flatmap(lambda v: st.sampled_from([v, -v])), max_size=12))
def test_distinct_looking_amounts_match_the_old_programme(values: list[int]) -> None:
    """Wider amounts: few equal balances, many three- and four-player groups."""
    balances = balances_of(values)
    plan = settle(balances)
    assert plan.transfer_count == minimum_transfers(list(balances.values()))
    assert clears(balances, plan)


@COMPARE
@given(st.lists(st.integers(-8, 8).map(lambda v: v * 25), min_size=8, max_size=12), st.randoms(use_true_random=False))
def test_seat_order_never_changes_the_count(values: list[int], rng: random.Random) -> None:
    balances = balances_of(values)
    names = list(balances)
    rng.shuffle(names)
    shuffled = {name: balances[name] for name in names}
    assert settle(shuffled).transfer_count == settle(balances).transfer_count
    assert settle(dict(balances)) == settle(balances)  # same order, same plan


def test_twenty_four_balances_are_proven_minimal() -> None:
    """Eight three-player groups at scales no other group can reach, seated shuffled: 16
    transfers, proven; one player more (25 non-zero) is beyond the limit and says so."""
    assert EXACT_LIMIT == 24
    rng = random.Random(11)
    balances: dict[str, int] = {}
    for g in range(8):
        a, b = rng.randint(1, 9) * 1000**g, rng.randint(1, 9) * 1000**g
        balances |= {f"G{g}a": a, f"G{g}b": b, f"G{g}c": -(a + b)}
    names = list(balances)
    rng.shuffle(names)
    seated = {name: balances[name] for name in names}
    plan = settle(seated)
    assert plan.minimal is True
    assert plan.transfer_count == 16
    assert clears(seated, plan)
    above = seated | {"Y": 7, "Z": -7}
    beyond = {**above, "W": 1, "X": -1}  # 28 non-zero
    assert settle(beyond).minimal is False
    assert clears(beyond, settle(beyond))


def test_twenty_four_stake_sized_balances_match_a_known_minimum() -> None:
    """Twelve players up 25 and twelve down 25 (a night of even swaps): twelve transfers."""
    balances = {f"U{i}": 25 for i in range(12)} | {f"D{i}": -25 for i in range(12)}
    plan = settle(balances)
    assert plan.minimal is True and plan.transfer_count == 12
    assert clears(balances, plan)
