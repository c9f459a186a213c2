"""Issue 20 item 9: the settle-up "why" adds up. Each line of the plan is explained by an
allocation of its payer's losses, hand by hand, that sums exactly to the line, with no hand's
loss used more than once across the payer's lines; a hand used in part says so. The API
(``because``), the settle page and the PDFs show the same allocation (``ledger/settlement/allocation.py``)."""
from __future__ import annotations

import html
import re
import subprocess
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.settlement.allocation import Loss, explain
from ledger.settlement.plan import settle_after_payments
from ledger.transfers import Transfer

PROPERTY = settings(max_examples=300, database=None, deadline=None)


# -- the rule, checked against an independent reference ------------------------------------------------
def fifo_open_losses(events_oldest_first: list[tuple[str, Any, dict[str, int]]], player: str) -> list[tuple[Any, int]]:
    """What is left of ``player``'s losses when each gain pays off their oldest open loss first
    (first in, first out): ``[(source, amount left)]`` oldest first. The module's rule says the
    debt is explained by exactly these."""
    open_losses: list[list[Any]] = []
    credit = 0
    for kind, key, nets in events_oldest_first:
        amount = nets.get(player, 0)
        if amount < 0:
            loss = -amount
            used = min(credit, loss)
            credit -= used
            if loss - used:
                open_losses.append([(kind, key), loss - used])
        elif amount > 0:
            while amount and open_losses:
                paid = min(amount, open_losses[0][1])
                open_losses[0][1] -= paid
                amount -= paid
                if open_losses[0][1] == 0:
                    open_losses.pop(0)
            credit += amount
    return [(source, left) for source, left in open_losses]


def check_allocation(lines: tuple[Transfer, ...], because: tuple[tuple[Loss, ...], ...],
                     events_oldest_first: list[tuple[str, Any, dict[str, int]]]) -> None:
    assert len(because) == len(lines)
    used: dict[tuple[str, Any, Any], int] = {}
    for line, share in zip(lines, because):
        assert sum(loss.amount_minor for loss in share) == line.amount_minor, (line, share)
        for loss in share:
            assert loss.amount_minor > 0 and loss.amount_minor <= loss.whole_minor
            key = (line.payer, loss.kind, loss.key)
            used[key] = used.get(key, 0) + loss.amount_minor
    lost = {(payer, kind, key): -nets[payer] for kind, key, nets in events_oldest_first
            for payer in nets if nets[payer] < 0}
    for key, amount in used.items():  # never more than the payer lost in it
        assert key in lost and amount <= lost[key], (key, amount)
    for payer in {line.payer for line in lines}:  # exactly the losses FIFO netting leaves open
        mine = sorted((kind, k, amount) for (p, kind, k), amount in used.items() if p == payer)
        reference = sorted((kind, k, amount) for (kind, k), amount in fifo_open_losses(events_oldest_first, payer))
        assert mine == reference, payer


PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


@st.composite
def nights(draw: st.DrawFn) -> tuple[list[str], list[dict[str, int]], list[Transfer]]:
    """A random night: 2 to 6 players, up to 25 hands (each a winner paid 1 to 4 stakes by every
    other player, or a caught knocker paying two), then payments: parts of plan lines and, now and
    then, money handed to someone owed nothing (recorded with confirm)."""
    players = PLAYERS[: draw(st.integers(2, 6))]
    hands = []
    for _ in range(draw(st.integers(0, 25))):
        winner = draw(st.sampled_from(players))
        nets = dict.fromkeys(players, 0)
        for p in players:
            if p != winner:
                stakes = draw(st.integers(0, 4)) * 25
                nets[p] -= stakes
                nets[winner] += stakes
        hands.append(nets)
    balances = dict.fromkeys(players, 0)
    for nets in hands:
        for p, a in nets.items():
            balances[p] += a
    payments: list[Transfer] = []
    for _ in range(draw(st.integers(0, 4))):
        plan = settle_after_payments(balances, payments)
        if plan.transfers and draw(st.booleans()):
            line = draw(st.sampled_from(plan.transfers))
            payments.append(Transfer(line.payer, line.payee, draw(st.integers(1, line.amount_minor))))
        elif len(players) > 1:
            payer, payee = draw(st.permutations(players))[:2]
            payments.append(Transfer(payer, payee, draw(st.integers(1, 200))))
    return players, hands, payments


def night_events(hands: list[dict[str, int]], payments: list[Transfer]) -> list[tuple[str, Any, dict[str, int]]]:
    """Oldest first: the hands (numbered from 1), then the payments (numbered from 1)."""
    events: list[tuple[str, Any, dict[str, int]]] = [("hand", n, nets) for n, nets in enumerate(hands, start=1)]
    events += [("payment", i, {p.payer: p.amount_minor, p.payee: -p.amount_minor})
               for i, p in enumerate(payments, start=1)]
    return events


@PROPERTY
@given(nights())
def test_every_line_is_explained_by_exactly_its_amount(night: tuple[list[str], list[dict[str, int]], list[Transfer]]) -> None:
    players, hands, payments = night
    balances = dict.fromkeys(players, 0)
    for nets in hands:
        for p, a in nets.items():
            balances[p] += a
    plan = settle_after_payments(balances, payments)
    events = night_events(hands, payments)
    because = explain(plan.transfers, reversed(events))
    check_allocation(plan.transfers, because, events)


def test_a_payers_lines_share_their_losses_in_order_and_a_split_hand_says_which_part() -> None:
    hands = [{"Ann": -50, "Bob": 100, "Cat": -50}, {"Ann": -25, "Bob": -25, "Cat": 50},
             {"Ann": 50, "Bob": -25, "Cat": -25}, {"Ann": -75, "Bob": 25, "Cat": 50}]
    lines = (Transfer("Ann", "Bob", 75), Transfer("Ann", "Cat", 25))  # Ann owes 100, Bob is owed 75, Cat 25
    because = explain(lines, reversed(night_events(hands, [])))
    # Ann's most recent losses making up 100: hand 4 (75) and hand 2 (25); hand 3's win paid for hand 1.
    # Oldest first, Bob's line takes hand 2 and 50 of hand 4's 75, Cat's line the other 25
    assert because == (
        (Loss("hand", 2, 25, 25), Loss("hand", 4, 50, 75)),
        (Loss("hand", 4, 25, 75),),
    )


def test_losses_that_do_not_make_up_the_lines_are_refused() -> None:
    with pytest.raises(ValueError):
        explain((Transfer("Ann", "Bob", 60),), [("hand", 1, {"Ann": -50, "Bob": 50})])


# -- the night's API, settle page and PDFs --------------------------------------------------------------
def three_friends(client: Any, outcomes: list[tuple[str, str]]) -> dict[str, Any]:
    created = client.post("/api/v1/sessions", json={"name": "Why night", "currency": "USD", "stake": 25,
                                                     "ruleset": {"preset": "classic"}, "players": ["Ann", "Bob", "Cat"]})
    assert created.status_code == 201, created.get_json()
    night = created.get_json()
    url, headers = f"/api/v1/sessions/{night['id']}", {"Authorization": f"Bearer {night['token']}"}
    for kind, winner in outcomes:
        recorded = client.post(f"{url}/hands", json={"outcome": {"kind": kind, "winner": winner}}, headers=headers)
        assert recorded.status_code == 201, recorded.get_json()
    return {"id": night["id"], "url": url, "headers": headers, "table_url": night["table_url"]}


def pay(client: Any, night: dict[str, Any], payer: str, payee: str, amount: int, confirm: bool = False) -> int:
    paid = client.post(f"{night['url']}/payments", json={"from": payer, "to": payee, "amount": amount,
                                                         "confirm": confirm}, headers=night["headers"])
    assert paid.status_code == 201, paid.get_json()
    return int(paid.get_json()["id"])


def check_because(client: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    """The night's plan, each transfer's ``because`` checked against the hands and payments."""
    plan = client.get(f"{night['url']}/settlement", headers=night["headers"]).get_json()["transfers"]
    hands = client.get(f"{night['url']}/hands", headers=night["headers"]).get_json()["hands"]
    payments = client.get(f"{night['url']}/payments", headers=night["headers"]).get_json()["payments"]
    events = [("hand", h["number"], h["net"]) for h in hands if h["status"] == "counted"]
    events += [("payment", p["id"], {p["from"]: p["amount"], p["to"]: -p["amount"]})
               for p in payments if p["status"] == "counted"]
    lines = tuple(Transfer(t["from"], t["to"], t["amount"]) for t in plan)
    nets_of = {(kind, key): nets for kind, key, nets in events}
    because = []
    for t in plan:
        share = []
        for reason in t["because"]:
            kind = "hand" if "hand" in reason else "payment"
            assert set(reason) == {kind, "amount"}, reason
            share.append(Loss(kind, reason[kind], reason["amount"], -nets_of[(kind, reason[kind])].get(t["from"], 0)))
        because.append(tuple(share))
    check_allocation(lines, tuple(because), events)
    return plan


WHY_NIGHT = [("tonk_out", "Bob"), ("discard_out", "Ann"), ("tonk_out", "Cat"), ("discard_out", "Bob"),
             ("discard_out", "Cat")]  # Ann -100, Bob +50, Cat +50


def test_the_settlement_says_why_each_line_to_the_cent(client: Any) -> None:
    night = three_friends(client, WHY_NIGHT)
    before = check_because(client, night)
    assert before == [{"from": "Ann", "to": "Bob", "amount": 50, "because": [{"hand": 3, "amount": 50}]},
                      {"from": "Ann", "to": "Cat", "amount": 50, "because": [{"hand": 4, "amount": 25},
                                                                             {"hand": 5, "amount": 25}]}]
    mistake = pay(client, night, "Bob", "Ann", 30, confirm=True)  # Bob handed Ann 30 he did not owe
    plan = check_because(client, night)
    assert plan == [
        {"from": "Ann", "to": "Bob", "amount": 80,
         "because": [{"hand": 3, "amount": 50}, {"hand": 4, "amount": 25}, {"hand": 5, "amount": 5}]},
        {"from": "Ann", "to": "Cat", "amount": 50, "because": [{"hand": 5, "amount": 20}, {"payment": mistake, "amount": 30}]},
    ]


WHY_BOB = "Why: Ann lost hand 3 (-$0.50), hand 4 (-$0.25) and $0.05 of hand 5’s $0.25."
WHY_CAT = "Why: Ann lost $0.20 of hand 5’s $0.25. Ann was also paid $0.30 more than they were owed."


def test_the_settle_page_says_the_same_why(client: Any) -> None:
    night = three_friends(client, WHY_NIGHT)
    pay(client, night, "Bob", "Ann", 30, confirm=True)
    assert client.get(urlsplit(night["table_url"]).path).status_code == 302  # the host's link, on a phone
    host = client.get(f"/s/{night['id']}/settle")
    assert host.status_code == 200
    page = host.get_data(as_text=True)
    whys = [html.unescape(w) for w in re.findall(r'<p class="plan-why">([^<]*)</p>', page)]
    assert whys == [WHY_BOB, WHY_CAT]


pdf = pytest.mark.skipif(subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0,
                         reason="needs pdftotext")


def pdf_text(data: bytes) -> str:
    text = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()
    return " ".join(text.replace("\u00a0", " ").split())


@pdf
def test_the_summary_and_the_statements_say_the_same_why(client: Any) -> None:
    night = three_friends(client, WHY_NIGHT)
    pay(client, night, "Bob", "Ann", 30, confirm=True)
    summary = pdf_text(client.get(f"{night['url']}/summary.pdf", headers=night["headers"]).data)
    assert WHY_BOB in summary and WHY_CAT in summary
    ann = pdf_text(client.get(f"{night['url']}/statements/1.pdf", headers=night["headers"]).data)
    assert "Why: you lost hand 3 (-$0.50), hand 4 (-$0.25) and $0.05 of hand 5’s $0.25." in ann
    assert "Why: you lost $0.20 of hand 5’s $0.25. You were also paid $0.30 more than you were owed." in ann
    cat = pdf_text(client.get(f"{night['url']}/statements/3.pdf", headers=night["headers"]).data)
    assert "Ann pays you $0.50" in cat and WHY_CAT in cat


OUTCOMES = st.lists(st.tuples(st.sampled_from(["tonk_out", "discard_out"]), st.sampled_from(["Ann", "Bob", "Cat"])),
                    min_size=1, max_size=12)


@settings(max_examples=12, database=None, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(OUTCOMES, st.lists(st.tuples(st.integers(0, 5), st.integers(1, 200), st.booleans()), max_size=3))
def test_any_night_through_the_api_explains_every_line(client: Any, outcomes: list[tuple[str, str]],
                                                        payments: list[tuple[int, int, bool]]) -> None:
    night = three_friends(client, outcomes)
    plan = check_because(client, night)
    for pick, amount, along in payments:
        if along and plan:  # part of a line of the plan shown
            line = plan[pick % len(plan)]
            pay(client, night, line["from"], line["to"], 1 + (amount - 1) % line["amount"])
        else:  # anything else, recorded with confirm
            payer, payee = [("Ann", "Bob"), ("Bob", "Cat"), ("Cat", "Ann"), ("Bob", "Ann"), ("Cat", "Bob"),
                            ("Ann", "Cat")][pick]
            pay(client, night, payer, payee, amount, confirm=True)
        plan = check_because(client, night)


# -- a club's plan: its lines explained by the nights carried into the balances ------------------------
def test_a_clubs_lines_are_explained_by_the_nights_that_carried_the_debts(client: Any) -> None:
    from club_nights import bearer, close, make_club, part_finals, play_part

    club = make_club(client)
    nights = [play_part(client, club, part) for part in (0, 1)]
    for night in nights:
        close(client, night, carry_over=True)
    url = f"/api/v1/clubs/{club['id']}"
    body = client.get(url, headers=bearer(club["token"])).get_json()
    debtor = min(body["balances"], key=lambda name: body["balances"][name])
    line = next(t for t in body["settlement"]["transfers"] if t["from"] == debtor)
    assert client.post(f"{url}/payments", headers=bearer(club["token"]),
                       json={"from": debtor, "to": line["to"], "amount": 10}).status_code == 201
    creditor = max(body["balances"], key=lambda name: body["balances"][name])
    mistake = client.post(f"{url}/payments", headers=bearer(club["token"]),  # a creditor hands a debtor 15
                          json={"from": creditor, "to": debtor, "amount": 15, "confirm": True})
    assert mistake.status_code == 201
    body = client.get(url, headers=bearer(club["token"])).get_json()
    events: list[tuple[str, Any, dict[str, int]]] = [("night", n["id"], part_finals(part))
                                                      for part, n in enumerate(nights)]
    events += [("payment", p["id"], {p["from"]: p["amount"], p["to"]: -p["amount"]})
               for p in client.get(f"{url}/payments", headers=bearer(club["token"])).get_json()["payments"]]
    nets_of = {(kind, key): nets for kind, key, nets in events}
    lines, because = [], []
    for t in body["settlement"]["transfers"]:
        lines.append(Transfer(t["from"], t["to"], t["amount"]))
        share = []
        for reason in t["because"]:
            kind, key = ("night", reason["session_id"]) if "session_id" in reason else ("payment", reason["payment"])
            share.append(Loss(kind, key, reason["amount"], -nets_of[(kind, key)][t["from"]]))
        because.append(tuple(share))
    check_allocation(tuple(lines), tuple(because), events)
    mine = [r for t in body["settlement"]["transfers"] if t["from"] == debtor for r in t["because"]]
    assert {"payment": mistake.get_json()["id"], "amount": 15} in mine


def test_explaining_the_plan_reads_only_the_newest_hands_it_needs(app: Any, client: Any) -> None:
    """Cost must not grow with the night: 150 hands that leave everyone square, then one that
    leaves Ann and Cat owing Bob a stake each; the reasons come from the newest batch of hands."""
    from sqlalchemy import event

    from ledger.night import lifecycle as ledger_night
    from ledger.night import payments
    from ledger.storage.db import get_session

    night = three_friends(client, [])
    with app.app_context():
        db = get_session()
        stored = ledger_night.find_night(db, night["id"])
        for i in range(150):  # Ann, Bob and Cat tonk out in turn: square after every third hand
            winner = ("Ann", "Bob", "Cat")[i % 3]
            ledger_night.record_hand(db, stored, ledger_night.Submission({"kind": "tonk_out", "winner": winner}, None))
    assert client.post(f"{night['url']}/hands", json={"outcome": {"kind": "discard_out", "winner": "Bob"}},
                       headers=night["headers"]).status_code == 201
    batches = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "hand_transfer" in statement and "hand.number >" in statement.replace('"', ""):
            batches.append(statement)

    engine = app.extensions["ledger.engine"]
    event.listen(engine, "before_cursor_execute", count)
    try:
        plan = check_because(client, night)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert plan == [{"from": "Ann", "to": "Bob", "amount": 25, "because": [{"hand": 151, "amount": 25}]},
                    {"from": "Cat", "to": "Bob", "amount": 25, "because": [{"hand": 151, "amount": 25}]}]
    assert len(batches) == 1 and payments.REASON_BATCH < 151  # one batch of the newest hands, not all 151
