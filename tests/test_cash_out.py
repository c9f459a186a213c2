"""A leaver's cash-out (ledger.settlement.plan.cash_out) and the seating helpers (ledger.night.timeline,
ledger.games.tonk.renaming): pure functions, checked by examples and properties."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.games.tonk.renaming import rename_entry, rename_result
from ledger.settlement.plan import CashOut, UnbalancedError, cash_out, settle, settle_after_payments
from ledger.night.timeline import rotate, seat_for_newcomer
from ledger.transfers import Transfer

PROPERTY = settings(max_examples=300, database=None, deadline=None)  # no timing in tests; a loaded machine is slow


def test_rosa_leaves_up_and_the_one_who_owes_her_exactly_pays() -> None:
    # Dee owes more, but Marcus owes exactly Rosa's 4.25: paying him clears two people at once
    outstanding = {"Dee": -1000, "Marcus": -425, "Rosa": 425, "Tomás": 1000}
    assert cash_out(outstanding, "Rosa") == CashOut("Rosa", (Transfer("Marcus", "Rosa", 425),))


def test_a_leaver_who_owes_pays_the_fewest_creditors() -> None:
    outstanding = {"Dee": 300, "Marcus": 200, "Rosa": -450, "Tomás": -50}
    plan = cash_out(outstanding, "Rosa")
    assert plan.transfers == (Transfer("Rosa", "Dee", 300), Transfer("Rosa", "Marcus", 150))
    assert plan.remaining_minor == 0


def test_only_seated_players_settle_with_the_leaver() -> None:
    # Ed left earlier and still owes 500 (pay at the end): the seated can cover only 100 of Rosa's 600
    outstanding = {"Dee": -100, "Rosa": 600, "Ed": -500}
    plan = cash_out(outstanding, "Rosa", ["Dee"])
    assert plan.transfers == (Transfer("Dee", "Rosa", 100),) and plan.remaining_minor == 500
    assert plan.to_json() == {"transfers": [{"from": "Dee", "to": "Rosa", "amount": 100}], "remaining": 500}


def test_an_even_leaver_needs_nothing_and_bad_balances_are_refused() -> None:
    assert cash_out({"A": 0, "B": 5, "C": -5}, "A") == CashOut("A", ())
    with pytest.raises(UnbalancedError):
        cash_out({"A": 1, "B": 0}, "A")
    with pytest.raises(ValueError):
        cash_out({"A": 0}, "Z")
    with pytest.raises(ValueError):
        cash_out({"A": 1.0, "B": -1}, "A")  # type: ignore[dict-item]


@st.composite
def night_balances(draw: st.DrawFn) -> tuple[dict[str, int], str]:
    names = [f"P{i}" for i in range(draw(st.integers(2, 8)))]
    amounts = [draw(st.integers(-500, 500)) for _ in names[1:]]
    balances = dict(zip(names, [-sum(amounts)] + amounts))
    return balances, draw(st.sampled_from(names))


@PROPERTY
@given(night_balances())
def test_a_cash_out_clears_the_leaver_in_fewest_transfers_without_flipping_anyone(case: tuple[dict[str, int], str]) -> None:
    balances, leaver = case
    plan = cash_out(balances, leaver)
    assert plan.remaining_minor == 0
    after = dict(balances)
    for t in plan.transfers:
        assert type(t.amount_minor) is int and t.amount_minor > 0 and leaver in (t.payer, t.payee)
        after[t.payer] += t.amount_minor
        after[t.payee] -= t.amount_minor
    assert after[leaver] == 0
    for name, amount in after.items():  # nobody ends up on the other side of zero
        assert amount * balances[name] >= 0 and abs(amount) <= abs(balances[name])
    other = [abs(v) for p, v in balances.items() if p != leaver and v * balances[leaver] < 0]
    fewest = next((k for k in range(len(other) + 1)
                   if any(sum(g) >= abs(balances[leaver]) for g in combinations(other, k))), 0)
    assert len(plan.transfers) == fewest
    # the final plan, with the cash-out recorded as payments, clears everyone else, in no more
    # transfers than a fresh plan for what is left
    left = dict(after)
    final = settle_after_payments(balances, list(plan.transfers))
    assert final.transfer_count <= settle(left).transfer_count
    for t in final.transfers:
        assert leaver not in (t.payer, t.payee)
        after[t.payer] += t.amount_minor
        after[t.payee] -= t.amount_minor
    assert after == {name: 0 for name in balances}


def test_the_deal_follows_each_hands_seating() -> None:
    # Ed sat in at Dee's right after Tomás dealt: Dee deals next, Ed last in the round
    assert rotate(["Dee", "Marcus", "Rosa", "Tomás", "Ed"], ["Dee", "Marcus", "Rosa", "Tomás"], "Tomás", "Dee") == "Dee"
    assert rotate(["Dee", "Marcus", "Rosa", "Tomás", "Ed"], ["Dee", "Marcus", "Rosa", "Tomás", "Ed"], "Tomás", "Dee") == "Ed"
    # the dealer left: the deal passes to the next player still seated
    assert rotate(["Dee", "Tomás"], ["Dee", "Marcus", "Rosa", "Tomás"], "Marcus", "Dee") == "Tomás"
    # before any hand, a first dealer who left hands the first deal on
    assert rotate(["Marcus", "Rosa"], None, None, "Dee", ["Dee", "Marcus", "Rosa"]) == "Marcus"
    assert rotate([], None, None, "Dee") == ""


def test_a_newcomer_sits_at_the_next_dealers_right_unless_told() -> None:
    assert seat_for_newcomer(["A", "B", "C"], "B") == 1
    assert seat_for_newcomer(["A", "B", "C"], "A") == 3
    assert seat_for_newcomer(["A", "B", "C"], "A", after="B") == 2


def test_renaming_touches_names_only() -> None:
    entry = {"outcome": {"kind": "knock", "knocker": "tonk", "claimed_result": "knocker_wins"},
             "hands": {"tonk": {"cards": ["KS"]}, "Dee": {"total": 4}},
             "side_bets": {"spade": {"side_stake": 5, "highest_spade": {"tonk": "KS", "Dee": None}}}}
    swapped = rename_entry(entry, {"tonk": "Dee", "Dee": "tonk"})
    assert swapped["outcome"] == {"kind": "knock", "knocker": "Dee", "claimed_result": "knocker_wins"}
    assert swapped["hands"] == {"Dee": {"cards": ["KS"]}, "tonk": {"total": 4}}
    assert swapped["side_bets"]["spade"]["highest_spade"] == {"Dee": "KS", "tonk": None}
    result = {"transfers": [{"from": "Dee", "to": "tonk", "amount": 25}], "net": {"tonk": 25, "Dee": -25},
              "winners": ["tonk"], "counts": {"tonk": 10}, "detail": {"result": "knocker_wins"}, "redeal": False}
    moved = rename_result(result, {"tonk": "Tom"})
    assert moved == {"transfers": [{"from": "Dee", "to": "Tom", "amount": 25}], "net": {"Tom": 25, "Dee": -25},
                     "winners": ["Tom"], "counts": {"Tom": 10}, "detail": {"result": "knocker_wins"}, "redeal": False}
    assert entry["outcome"]["knocker"] == "tonk"  # the original is left as it was
