"""Settlement: fewest transfers, exact within EXACT_LIMIT, heuristic beyond, deterministic."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.settlement.plan import EXACT_LIMIT, SettlementPlan, UnbalancedError, settle
from ledger.transfers import Transfer

VECTORS = Path(__file__).parent / "vectors" / "settlement.json"
SHARED_VECTORS = Path(__file__).parents[2] / "shared" / "vectors" / "settlement.json"
CASES = json.loads(VECTORS.read_text(encoding="utf-8"))

PROPERTY = settings(max_examples=300, database=None)


def apply_plan(balances: dict[str, int], plan: SettlementPlan) -> dict[str, int]:
    """Balances after every transfer is paid: the payer's debt shrinks, the payee's credit too."""
    after = dict(balances)
    for t in plan.transfers:
        assert type(t.amount_minor) is int and t.amount_minor > 0
        after[t.payer] += t.amount_minor
        after[t.payee] -= t.amount_minor
    return after


def assert_clears(balances: dict[str, int], plan: SettlementPlan) -> None:
    assert apply_plan(balances, plan) == {name: 0 for name in balances}
    for t in plan.transfers:  # only debtors pay, only creditors receive
        assert balances[t.payer] < 0 < balances[t.payee]


def brute_force_minimum(amounts: list[int]) -> int:
    """Fewest transfers clearing ``amounts`` by exhaustive search, independent of settle():
    the first unsettled balance is moved onto some later balance of opposite sign."""
    debts = [a for a in amounts if a != 0]

    def search(start: int) -> int:
        while start < len(debts) and debts[start] == 0:
            start += 1
        if start == len(debts):
            return 0
        best = len(debts)
        for i in range(start + 1, len(debts)):
            if debts[i] * debts[start] < 0:
                debts[i] += debts[start]
                best = min(best, 1 + search(start + 1))
                debts[i] -= debts[start]
        return best

    return search(0)


def zero_sum_balances(max_players: int, amounts=st.integers(-8, 8)):
    """Strategy: up to ``max_players`` named balances (zeros allowed) that sum to zero."""

    def build(values: list[int]) -> dict[str, int]:
        values = values + [-sum(values)]
        return {f"P{i:02d}": v for i, v in enumerate(values, start=1)}

    return st.lists(amounts, max_size=max_players - 1).map(build)


def nonzero(balances: dict[str, int]) -> int:
    return sum(1 for v in balances.values() if v != 0)


# --- shared vectors -----------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(case):
    plan = settle(case["balances"])
    assert plan.transfer_count == case["expected_transfer_count"]
    assert plan.minimal is True
    assert_clears(case["balances"], plan)


def test_vector_copy_matches_shared():
    if not SHARED_VECTORS.exists():
        pytest.skip(f"shared vectors not present at {SHARED_VECTORS}")
    assert VECTORS.read_bytes() == SHARED_VECTORS.read_bytes(), (
        f"{VECTORS} has drifted from {SHARED_VECTORS}; copy it again byte for byte"
    )


# --- concrete plans -----------------------------------------------------------------------


def test_textbook_case_beats_greedy_with_exact_plan():
    balances = {"D1": -10, "D2": -3, "D3": -3, "C1": 6, "C2": 5, "C3": 5}
    plan = settle(balances)
    assert plan == SettlementPlan(
        transfers=(
            Transfer("D1", "C2", 5),
            Transfer("D1", "C3", 5),
            Transfer("D2", "C1", 3),
            Transfer("D3", "C1", 3),
        ),
        minimal=True,
    )
    assert plan.to_json() == {
        "transfers": [
            {"from": "D1", "to": "C2", "amount": 5},
            {"from": "D1", "to": "C3", "amount": 5},
            {"from": "D2", "to": "C1", "amount": 3},
            {"from": "D3", "to": "C1", "amount": 3},
        ],
        "transfer_count": 4,
        "minimal": True,
    }


def test_same_case_beyond_limit_uses_heuristic():
    balances = {"D1": -10, "D2": -3, "D3": -3, "C1": 6, "C2": 5, "C3": 5}
    plan = settle(balances, exact_limit=5)
    assert plan.minimal is False
    assert plan.transfers == (
        Transfer("D1", "C1", 6),
        Transfer("D1", "C2", 4),
        Transfer("D2", "C3", 3),
        Transfer("D3", "C2", 1),
        Transfer("D3", "C3", 2),
    )


def test_heuristic_cancels_exact_opposites_first():
    balances = {"A": 100, "B": -100, "C": 75, "D": -75, "E": 25, "F": -25}
    plan = settle(balances, exact_limit=0)
    assert plan.minimal is False
    assert plan.transfers == (
        Transfer("B", "A", 100),
        Transfer("D", "C", 75),
        Transfer("F", "E", 25),
    )


def test_heuristic_pairs_equal_opposites_in_seat_order():
    plan = settle({"A": 5, "B": 5, "C": -5, "D": -5}, exact_limit=0)
    assert plan.transfers == (Transfer("C", "A", 5), Transfer("D", "B", 5))


def test_empty_and_all_zero_need_nothing():
    for balances in ({}, {"A": 0, "B": 0}):
        plan = settle(balances)
        assert plan.transfers == ()
        assert plan.minimal is True
        assert plan.to_json() == {"transfers": [], "transfer_count": 0, "minimal": True}


def test_zero_balances_are_ignored():
    plan = settle({"A": 0, "B": -250, "C": 0, "D": 250})
    assert plan.transfers == (Transfer("B", "D", 250),)


def test_transfers_sorted_by_seat_order_of_payer_then_payee():
    balances = {"E": 7, "A": -4, "D": -3, "B": 2, "C": -2}
    plan = settle(balances)
    seat = {name: i for i, name in enumerate(balances)}
    keys = [(seat[t.payer], seat[t.payee]) for t in plan.transfers]
    assert keys == sorted(keys)
    assert plan.transfers == (
        Transfer("A", "E", 4),
        Transfer("D", "E", 3),
        Transfer("C", "B", 2),
    )


def limit_sized_case(size: int) -> tuple[dict[str, int], int]:
    """``size`` non-zero balances with a known minimum: copies of the textbook block
    (-10, -3, -3, 6, 5, 5: greedy needs 5, the minimum is 4) at scales 1000**b, so no zero-sum
    group can mix scales, plus, for the remainder, one chain group (distinct-scale debtors and a
    single creditor) that needs one transfer per debtor."""
    blocks, rest = divmod(size, 6)
    if rest == 1:
        blocks, rest = blocks - 1, 7
    balances: dict[str, int] = {}
    for b in range(blocks):
        scale = 1000**b
        for j, v in enumerate((-10, -3, -3, 6, 5, 5)):
            balances[f"B{b}_{j}"] = v * scale
    if rest:
        debts = [1000 ** (blocks + j) for j in range(rest - 1)]
        balances |= {f"R{j}": -d for j, d in enumerate(debts)} | {"R_owed": sum(debts)}
    return balances, 4 * blocks + max(rest - 1, 0)


def test_exact_limit_is_at_least_twelve_and_exact_at_the_limit():
    assert EXACT_LIMIT >= 12
    at_limit, minimum = limit_sized_case(EXACT_LIMIT)
    assert nonzero(at_limit) == EXACT_LIMIT
    plan = settle(at_limit)
    assert plan.minimal is True
    assert plan.transfer_count == minimum
    assert_clears(at_limit, plan)

    above = at_limit | {"Y": 1, "Z": -1}
    plan = settle(above)
    assert plan.minimal is False
    assert plan.transfer_count > minimum
    assert_clears(above, plan)


def test_limit_sized_case_minimum_agrees_with_brute_force():
    balances, minimum = limit_sized_case(7)
    assert minimum == brute_force_minimum(list(balances.values())) == 6
    balances, minimum = limit_sized_case(6)
    assert minimum == brute_force_minimum(list(balances.values())) == 4


def test_pairs_at_the_limit_settle_pairwise():
    half = EXACT_LIMIT // 2
    balances = {f"W{i}": 100 * i for i in range(1, half + 1)}
    balances |= {f"L{i}": -100 * i for i in range(1, half + 1)}
    plan = settle(balances)
    assert plan.minimal is True
    assert plan.transfer_count == half
    assert set(plan.transfers) == {Transfer(f"L{i}", f"W{i}", 100 * i) for i in range(1, half + 1)}


# --- errors -------------------------------------------------------------------------------


def test_unbalanced_raises_with_the_sum():
    with pytest.raises(UnbalancedError, match="sum to 5") as info:
        settle({"A": 10, "B": -5})
    assert isinstance(info.value, ValueError)
    assert info.value.total_minor == 5


@pytest.mark.parametrize("bad", [1.0, -2.5, True, None, "5"])
def test_non_int_amount_raises_value_error(bad):
    with pytest.raises(ValueError, match="must be an int"):
        settle({"A": bad, "B": -1})


@pytest.mark.parametrize("limit", [-1, 2.0, None])
def test_bad_exact_limit_raises(limit):
    with pytest.raises(ValueError, match="exact_limit"):
        settle({"A": 1, "B": -1}, exact_limit=limit)


def test_plan_is_frozen():
    plan = settle({"A": 1, "B": -1})
    with pytest.raises(AttributeError):
        plan.minimal = False  # type: ignore[misc]


# --- properties ---------------------------------------------------------------------------


@PROPERTY
@given(zero_sum_balances(10))
def test_plan_clears_and_uses_at_most_n_minus_one(balances):
    plan = settle(balances)
    assert plan.minimal is True
    assert_clears(balances, plan)
    assert plan.transfer_count <= max(nonzero(balances) - 1, 0)


@PROPERTY
@given(zero_sum_balances(7))
def test_plan_matches_brute_force_minimum(balances):
    plan = settle(balances)
    assert plan.transfer_count == brute_force_minimum(list(balances.values()))


@PROPERTY
@given(zero_sum_balances(7, amounts=st.integers(-10**6, 10**6).map(lambda v: v * 25)))
def test_plan_matches_brute_force_minimum_for_stake_sized_amounts(balances):
    plan = settle(balances)
    assert plan.transfer_count == brute_force_minimum(list(balances.values()))
    assert_clears(balances, plan)


@PROPERTY
@given(zero_sum_balances(10))
def test_same_input_gives_same_plan(balances):
    first = settle(balances)
    again = settle(dict(balances))
    assert first == again
    assert first.to_json() == again.to_json()
    seat = {name: i for i, name in enumerate(balances)}
    keys = [(seat[t.payer], seat[t.payee]) for t in first.transfers]
    assert keys == sorted(keys)


@PROPERTY
@given(zero_sum_balances(10), st.integers(0, 4))
def test_beyond_limit_is_heuristic_and_still_clears(balances, limit):
    plan = settle(balances, exact_limit=limit)
    n = nonzero(balances)
    if n <= limit:
        assert plan.minimal is True
    else:
        assert plan.minimal is False
        assert plan.transfer_count >= settle(balances).transfer_count
    assert_clears(balances, plan)
    assert plan.transfer_count <= max(n - 1, 0)


# -- stable plans while people pay -----------------------------------------------------------------
from ledger.settlement.plan import settle_after_payments  # noqa: E402

NIGHT = {"Dee": 300, "Marcus": -100, "Rosa": -150, "Tomás": -50}


def test_paying_one_line_keeps_the_others() -> None:
    before = settle(NIGHT)
    assert [t.to_json() for t in before.transfers] == [
        {"from": "Marcus", "to": "Dee", "amount": 100}, {"from": "Rosa", "to": "Dee", "amount": 150},
        {"from": "Tomás", "to": "Dee", "amount": 50},
    ]
    partial = settle_after_payments(NIGHT, [Transfer("Rosa", "Dee", 60)])
    assert [t.to_json() for t in partial.transfers] == [
        {"from": "Marcus", "to": "Dee", "amount": 100}, {"from": "Rosa", "to": "Dee", "amount": 90},
        {"from": "Tomás", "to": "Dee", "amount": 50},
    ]
    assert partial.minimal is True
    paid = settle_after_payments(NIGHT, [Transfer("Rosa", "Dee", 60), Transfer("Rosa", "Dee", 90),
                                         Transfer("Marcus", "Dee", 100)])
    assert [t.to_json() for t in paid.transfers] == [{"from": "Tomás", "to": "Dee", "amount": 50}]


def test_a_payment_off_the_plan_gets_a_fresh_minimal_plan() -> None:
    plan = settle_after_payments(NIGHT, [Transfer("Marcus", "Rosa", 100)])  # Marcus paid Rosa's debt
    assert [t.to_json() for t in plan.transfers] == [
        {"from": "Rosa", "to": "Dee", "amount": 250}, {"from": "Tomás", "to": "Dee", "amount": 50},
    ]
    assert plan.minimal is True


def test_stable_plan_never_needs_more_transfers_than_a_fresh_one() -> None:
    # textbook-greedy-fails: the minimal plan is 4; paying a line keeps it at most as long as fresh
    balances = {"D1": -10, "D2": -3, "D3": -3, "C1": 6, "C2": 5, "C3": 5}
    first = settle(balances).transfers[0]
    plan = settle_after_payments(balances, [first])
    fresh = settle({k: v + (first.amount_minor if k == first.payer else -first.amount_minor if k == first.payee else 0)
                    for k, v in balances.items()})
    assert plan.transfer_count <= fresh.transfer_count == 3
    assert first not in plan.transfers
