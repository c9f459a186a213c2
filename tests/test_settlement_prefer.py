"""Issue 20 item 10: a partial payment does not reshuffle the plan. Among the plans with the
fewest transfers, ``settle(..., prefer=plan shown before)`` keeps the most lines of that plan,
and ``settle_after_payments`` follows the night's plan payment by payment, so paying one line
changes that line only whenever a plan with the fewest transfers allows it."""
from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.settlement.plan import SettlementPlan, settle, settle_after_payments
from ledger.transfers import Transfer
from test_settlement import assert_clears, brute_force_minimum, zero_sum_balances

PROPERTY = settings(max_examples=200, database=None, deadline=None)


def lines(plan: SettlementPlan) -> list[tuple[str, str, int]]:
    return [(t.payer, t.payee, t.amount_minor) for t in plan.transfers]


def owed_after(balances: dict[str, int], payments: list[Transfer]) -> dict[str, int]:
    left = dict(balances)
    for p in payments:
        left[p.payer] += p.amount_minor
        left[p.payee] -= p.amount_minor
    return left


# -- the night of the issue: Dee paid Ben off the plan, then Dee paid part of her line to Cy -----------
FIVE = {"Ana": -75, "Ben": 50, "Cy": 50, "Dee": -75, "Eve": 50}  # three discard-outs at 25: Eve, Ben, Cy


def test_paying_part_of_one_line_leaves_everyone_elses_lines_as_shown() -> None:
    off_plan = Transfer("Dee", "Ben", 25)
    shown = settle_after_payments(FIVE, [off_plan])
    assert lines(shown) == [("Ana", "Ben", 25), ("Ana", "Eve", 50), ("Dee", "Cy", 50)]
    after = settle_after_payments(FIVE, [off_plan, Transfer("Dee", "Cy", 25)])  # Dee paid Cy 25 of 50
    # before: Ana's lines changed to Ana → Cy 25, Ana → Eve 50 and a new Dee → Ben line, though Ana paid nothing
    assert lines(after) == [("Ana", "Ben", 25), ("Ana", "Eve", 50), ("Dee", "Cy", 25)]
    assert after.minimal is True and after.transfer_count == settle(owed_after(FIVE, [off_plan,
                                                                     Transfer("Dee", "Cy", 25)])).transfer_count


def test_a_preferred_plan_is_kept_when_it_has_the_fewest_transfers() -> None:
    fresh = settle(FIVE)
    assert lines(fresh) == [("Ana", "Ben", 50), ("Ana", "Eve", 25), ("Dee", "Cy", 50), ("Dee", "Eve", 25)]
    other = [Transfer("Ana", "Cy", 50), Transfer("Ana", "Eve", 25), Transfer("Dee", "Ben", 50), Transfer("Dee", "Eve", 25)]
    assert lines(settle(FIVE, prefer=other)) == [(t.payer, t.payee, t.amount_minor) for t in other]


def test_prefer_never_costs_a_transfer_and_keeps_what_it_can() -> None:
    # a three-line plan for balances that two transfers clear: one of its lines is kept, no more
    balances = {"A": -10, "B": 10, "C": -5, "D": 5}
    prefer = [Transfer("A", "D", 5), Transfer("A", "B", 5), Transfer("C", "B", 5)]
    plan = settle(balances, prefer=prefer)
    assert plan.transfer_count == 2 and plan.minimal is True
    assert lines(plan) == [("A", "B", 10), ("C", "D", 5)]  # none of the three fits a two-line plan
    prefer = [Transfer("C", "D", 5), Transfer("A", "D", 5)]
    assert lines(settle(balances, prefer=prefer)) == [("A", "B", 10), ("C", "D", 5)]


def test_lines_that_cannot_be_part_of_a_plan_are_not_kept() -> None:
    balances = {"A": -10, "B": 10}
    for prefer in ([Transfer("B", "A", 10)], [Transfer("A", "B", 11)], [Transfer("A", "Zed", 10)],
                   [Transfer("A", "B", 4), Transfer("A", "B", 6)]):
        assert lines(settle(balances, prefer=prefer)) == [("A", "B", 10)], prefer


@PROPERTY
@given(zero_sum_balances(9))
def test_the_plan_shown_is_the_answer_when_preferred(balances: dict[str, int]) -> None:
    plan = settle(balances)
    assert settle(balances, prefer=plan.transfers) == plan
    reordered = list(reversed(plan.transfers))
    assert settle(balances, prefer=reordered) == plan


def _any_minimal_plan(balances: dict[str, int], seed: int) -> tuple[Transfer, ...]:
    """Another plan with the fewest transfers: the same balances settled in another seat order."""
    names = list(balances)
    order = names[seed % len(names):] + names[: seed % len(names)] if names else names
    return settle({n: balances[n] for n in order}).transfers


@PROPERTY
@given(zero_sum_balances(9), st.integers(0, 8))
def test_any_plan_with_the_fewest_transfers_is_kept_whole(balances: dict[str, int], seed: int) -> None:
    other = _any_minimal_plan(balances, seed)
    plan = settle(balances, prefer=other)
    assert sorted(lines(plan)) == sorted((t.payer, t.payee, t.amount_minor) for t in other)
    assert plan.transfer_count == settle(balances).transfer_count


def _most_kept(balances: dict[str, int], prefer: list[Transfer]) -> int:
    """The most lines of ``prefer`` that a plan with the fewest transfers can hold, by trying
    every subset (independent of the search in ``settle``)."""
    fewest = brute_force_minimum(list(balances.values()))
    for size in range(len(prefer), 0, -1):
        for kept in combinations(prefer, size):
            rest = owed_after(balances, list(kept))
            signs_kept = all(rest[t.payer] <= 0 <= rest[t.payee] for t in kept) and all(
                balances[t.payer] < 0 < balances[t.payee] for t in kept)
            if signs_kept and size + brute_force_minimum(list(rest.values())) == fewest:
                return size
    return 0


@PROPERTY
@given(zero_sum_balances(7, st.integers(-6, 6)), st.integers(0, 6), st.data())
def test_prefer_keeps_as_many_lines_as_any_fewest_plan_can(balances: dict[str, int], seed: int,
                                                           data: st.DataObject) -> None:
    prefer = list(_any_minimal_plan(balances, seed))
    if prefer:  # the plan shown before, then one line paid in part or changed
        i = data.draw(st.integers(0, len(prefer) - 1))
        line = prefer[i]
        amount = data.draw(st.integers(1, line.amount_minor))
        prefer[i] = Transfer(line.payer, line.payee, amount)
    plan = settle(balances, prefer=prefer)
    assert_clears(balances, plan)
    assert plan.transfer_count == brute_force_minimum(list(balances.values()))
    assert sum(t in plan.transfers for t in prefer) == _most_kept(balances, prefer)


payment_steps = st.lists(st.tuples(st.integers(0, 20), st.integers(1, 100)), max_size=6)


@PROPERTY
@given(zero_sum_balances(8, st.integers(-12, 12)), payment_steps)
def test_paying_one_line_in_part_keeps_every_other_line_when_the_fewest_transfers_allow(
    balances: dict[str, int], steps: list[tuple[int, int]]
) -> None:
    payments: list[Transfer] = []
    for pick, share in steps:
        shown = settle_after_payments(balances, payments)
        if not shown.transfers:
            break
        line = shown.transfers[pick % shown.transfer_count]
        paid = Transfer(line.payer, line.payee, 1 + (share - 1) % line.amount_minor)
        payments.append(paid)
        after = settle_after_payments(balances, payments)
        owed = owed_after(balances, payments)
        assert_clears(owed, after)
        fewest = settle(owed)
        assert after.transfer_count == fewest.transfer_count and after.minimal == fewest.minimal
        paid_down = [t for t in shown.transfers if t != line]
        if paid.amount_minor < line.amount_minor:
            paid_down.append(Transfer(line.payer, line.payee, line.amount_minor - paid.amount_minor))
        if len(paid_down) == fewest.transfer_count:  # the plan before, the paid line taken down, is a fewest plan
            assert sorted(lines(after)) == sorted((t.payer, t.payee, t.amount_minor) for t in paid_down)
        else:  # a payment that opened a shorter plan: as many of those lines kept as such a plan can hold
            assert sum(t in after.transfers for t in paid_down) == _most_kept(owed, paid_down)


# -- through the API: the night's settlement, and POST /settle with prefer -----------------------------
def test_a_nights_plan_changes_only_the_line_paid_in_part(client: Any) -> None:
    created = client.post("/api/v1/sessions", json={
        "name": "Five", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic", "toggles": {"max_players": 5}},
        "players": list(FIVE)}).get_json()
    url, headers = f"/api/v1/sessions/{created['id']}", {"Authorization": f"Bearer {created['token']}"}
    for winner in ("Eve", "Ben", "Cy"):
        assert client.post(f"{url}/hands", json={"outcome": {"kind": "discard_out", "winner": winner}},
                           headers=headers).status_code == 201

    def plan() -> list[tuple[str, str, int]]:
        body = client.get(f"{url}/settlement", headers=headers).get_json()
        assert body["outstanding"] == owed_after(FIVE, paid) and body["minimal"] is True
        return [(t["from"], t["to"], t["amount"]) for t in body["transfers"]]

    paid: list[Transfer] = []
    for payer, payee, amount in (("Dee", "Ben", 25), ("Dee", "Cy", 25)):
        assert client.post(f"{url}/payments", json={"from": payer, "to": payee, "amount": amount},
                           headers=headers).status_code == 201
        paid.append(Transfer(payer, payee, amount))
        if len(paid) == 1:
            assert plan() == [("Ana", "Ben", 25), ("Ana", "Eve", 50), ("Dee", "Cy", 50)]
    assert plan() == [("Ana", "Ben", 25), ("Ana", "Eve", 50), ("Dee", "Cy", 25)]  # Ana's lines as they were


def test_settle_keeps_the_preferred_plan(client: Any) -> None:
    other = [{"from": "Ana", "to": "Cy", "amount": 50}, {"from": "Ana", "to": "Eve", "amount": 25},
             {"from": "Dee", "to": "Ben", "amount": 50}, {"from": "Dee", "to": "Eve", "amount": 25}]
    plain = client.post("/api/v1/settle", json={"balances": FIVE}).get_json()
    assert plain["transfers"] != other and plain["transfer_count"] == 4
    kept = client.post("/api/v1/settle", json={"balances": FIVE, "prefer": other})
    assert kept.status_code == 200
    assert kept.get_json() == {"transfers": other, "transfer_count": 4, "minimal": True}
    again = client.post("/api/v1/settle", json={"balances": FIVE, "prefer": plain["transfers"]}).get_json()
    assert again == plain  # the plan shown, preferred, is the answer
    # a line no fewest plan holds is not kept, and costs nothing
    odd = client.post("/api/v1/settle", json={"balances": FIVE, "prefer": [{"from": "Ana", "to": "Ben", "amount": 1}]})
    assert odd.status_code == 200 and odd.get_json() == plain


@pytest.mark.parametrize("prefer, field", [
    ([{"from": "Zed", "to": "Ben", "amount": 5}], "prefer.0.from"),
    ([{"from": "Ana", "to": "Ben", "amount": 5}, {"from": "Ana", "to": "Zed", "amount": 5}], "prefer.1.to"),
    ([{"from": "Ana", "to": "Ana", "amount": 5}], "prefer.0.to"),
    ([{"from": "Ana", "to": "Ben", "amount": 0}], "prefer.0.amount"),
    ([{"from": "Ana", "to": "Ben", "amount": "5"}], "prefer.0.amount"),
    ([{"from": "Ana", "to": "Ben", "amount": 10**16}], "prefer.0.amount"),
    ([{"from": "Ana", "to": "Ben"}], "prefer.0.amount"),
    ([{"from": "Ana", "to": "Ben", "amount": 5, "why": 1}], "prefer.0.why"),
    ([{"from": "", "to": "Ben", "amount": 5}], "prefer.0.from"),
    ({"from": "Ana"}, "prefer"),
    ([{"from": "Ana", "to": "Ben", "amount": 5}] * 65, "prefer"),
])
def test_a_prefer_that_is_no_plan_is_refused_naming_the_field(client: Any, prefer: Any, field: str) -> None:
    refused = client.post("/api/v1/settle", json={"balances": FIVE, "prefer": prefer})
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["error"] == "invalid_entry" and body["field"] == field and body["message"].startswith(f"{field}: ")


@PROPERTY
@given(zero_sum_balances(8, st.integers(-12, 12)), payment_steps)
def test_what_is_remembered_changes_no_answer(balances: dict[str, int], steps: list[tuple[int, int]]) -> None:
    from ledger.settlement import plan as settlement

    names = list(balances)
    payments = [Transfer(names[a % len(names)], names[(a + 1 + b) % len(names)], b) for a, b in steps
                if len(names) > 1 and names[a % len(names)] != names[(a + 1 + b) % len(names)]]
    step_by_step = [settle_after_payments(balances, payments[:k]) for k in range(len(payments) + 1)]
    settlement._FOLLOWED.clear()
    assert settle_after_payments(balances, payments) == step_by_step[-1]
    settlement._FOLLOWED.clear()
    assert [settle_after_payments(balances, payments[:k]) for k in range(len(payments), -1, -1)] == step_by_step[::-1]
