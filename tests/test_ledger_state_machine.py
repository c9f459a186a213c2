"""Item C: several phones record, void, amend, undo, pay and close in random order (a hypothesis
rule-based state machine over the JSON API, on the suite's database). After every step each hand
is zero-sum, the running net is the sum of the counted hands, what is outstanding is that net
less the payments, hand numbers run 1..n with no gap or repeat, and the history holds exactly
one audit event per change. The running figures the ledger keeps with each change
(:mod:`ledger.night.figures`: nets, payments, last hands, counted hands, stakes) equal a full
recomputation from the hands and payments after every step.

Entries are real ones the classic rules accept (discard-outs, tonk-outs, knocks and dry stocks
with totals), and their expected nets come from the rules engine itself (RULES.md §4, §8).
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from conftest import session_body
from kept_figures import checked_figures, checked_table
from ledger.storage.db import get_session
from ledger.games.tonk import HandError, score_entry

PHONES = ("host", "player", "viewer")
MAY = {"host": {"record", "pay", "void", "amend", "undo", "close", "void_payment"},
       "player": {"record", "pay"}, "viewer": set()}


def entries(players: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """§8.1 entries (without players and stake) for a classic table of ``players``."""
    player = st.sampled_from(players)
    totals = st.fixed_dictionaries({p: st.integers(min_value=1, max_value=50) for p in players})
    going_out = st.builds(lambda kind, w: {"outcome": {"kind": kind, "winner": w}, "hands": {}},
                          st.sampled_from(["discard_out", "tonk_out"]), player)
    knock = st.builds(lambda k, t: {"outcome": {"kind": "knock", "knocker": k},
                                    "hands": {p: {"total": n} for p, n in t.items()}}, player, totals)
    dry = st.builds(lambda t: {"outcome": {"kind": "dry_stock"},
                               "hands": {p: {"total": n} for p, n in t.items()}}, totals)
    return st.one_of(going_out, knock, dry)


def expected_net(night: dict[str, Any], entry: dict[str, Any]) -> dict[str, int]:
    full = {"ruleset": night["ruleset"], "players": night["players"], "stake": night["stake"]} | entry
    try:
        return dict(score_entry(full).net)
    except HandError as err:  # pragma: no cover - the generator makes only valid entries
        raise AssertionError(f"generated an entry the rules refuse: {err!r}") from None


def make_machine(client: Any, night_data: dict[str, Any]) -> type[RuleBasedStateMachine]:
    players: list[str] = list(night_data["players"])

    class Night(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            created = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
            self.id = created["id"]
            self.url = f"/api/v1/sessions/{created['id']}"
            self.night = {"ruleset": night_data["ruleset"], "players": players, "stake": created["stake"]}
            self.headers = {role: {"Authorization": f"Bearer {token}"} for role, token in (
                ("host", created["token"]), ("player", created["player_token"]), ("viewer", created["viewer_token"]))}
            self.hands: dict[int, dict[str, Any]] = {}  # number → {"status", "version", "net"}
            self.payments: dict[int, dict[str, Any]] = {}  # id → {"from", "to", "amount", "status"}
            self.closed = False
            self.changes = len(self.get("/history")["events"])

        def get(self, path: str) -> Any:
            response = client.get(self.url + path, headers=self.headers["viewer"])
            assert response.status_code == 200, response.get_json()
            return response.get_json()

        def post(self, phone: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
            response = client.post(self.url + path, json=body if body is not None else {},
                                   headers=self.headers[phone])
            return response.status_code, response.get_json()

        def refused_role(self, phone: str, action: str, status: int, body: Any) -> bool:
            if action in MAY[phone]:
                return False
            assert (status, body["error"]) == (403, "role_forbidden"), body
            return True

        # -- hands ------------------------------------------------------------------------------
        @rule(phone=st.sampled_from(PHONES), entry=entries(players))
        def record(self, phone: str, entry: dict[str, Any]) -> None:
            status, body = self.post(phone, "/hands", entry)
            if self.refused_role(phone, "record", status, body):
                return
            if self.closed:
                assert (status, body["error"]) == (409, "session_closed")
                return
            assert status == 201, body
            assert body["number"] == len(self.hands) + 1 and body["version"] == 1
            assert body["net"] == expected_net(self.night, entry)
            self.hands[body["number"]] = {"status": "counted", "version": 1, "net": body["net"]}
            self.changes += 1

        @precondition(lambda self: self.hands)
        @rule(phone=st.sampled_from(PHONES), data=st.data())
        def void(self, phone: str, data: st.DataObject) -> None:
            number = data.draw(st.sampled_from(sorted(self.hands)))
            status, body = self.post(phone, f"/hands/{number}/void")
            if self.refused_role(phone, "void", status, body):
                return
            if self.closed:
                assert (status, body["error"]) == (409, "session_closed")
                return
            assert status == 200 and body["status"] == "voided", body
            if self.hands[number]["status"] == "counted":
                self.hands[number]["status"] = "voided"
                self.changes += 1

        @precondition(lambda self: self.hands)
        @rule(phone=st.sampled_from(PHONES), data=st.data(), entry=entries(players), stale=st.booleans())
        def amend(self, phone: str, data: st.DataObject, entry: dict[str, Any], stale: bool) -> None:
            number = data.draw(st.sampled_from(sorted(self.hands)))
            hand = self.hands[number]
            version = hand["version"] - 1 if stale and hand["version"] > 1 else hand["version"]
            status, body = self.post(phone, f"/hands/{number}/amend", entry | {"version": version})
            if self.refused_role(phone, "amend", status, body):
                return
            if self.closed:
                assert (status, body["error"]) == (409, "session_closed")
            elif version != hand["version"]:
                assert (status, body["error"]) == (409, "stale_version")
                assert body["current"]["version"] == hand["version"]
            elif hand["status"] == "voided":
                assert (status, body["error"]) == (409, "hand_voided")
            else:
                assert status == 201, body
                assert (body["number"], body["version"]) == (number, version + 1)
                assert body["net"] == expected_net(self.night, entry)
                hand.update(version=version + 1, net=body["net"])
                self.changes += 1

        @rule(phone=st.sampled_from(PHONES))
        def undo(self, phone: str) -> None:
            status, body = self.post(phone, "/undo")
            if self.refused_role(phone, "undo", status, body):
                return
            counted = [n for n, h in self.hands.items() if h["status"] == "counted"]
            if not counted:
                assert (status, body["error"]) == (404, "nothing_to_undo")
            elif self.closed:
                assert (status, body["error"]) == (409, "session_closed")
            else:
                assert (status, body["number"], body["status"]) == (200, max(counted), "voided")
                self.hands[max(counted)]["status"] = "voided"
                self.changes += 1

        # -- payments and closing ---------------------------------------------------------------
        @rule(phone=st.sampled_from(PHONES), pair=st.permutations(players), amount=st.integers(1, 400))
        def pay(self, phone: str, pair: list[str], amount: int) -> None:
            payer, payee = pair[0], pair[1]
            status, body = self.post(phone, "/payments", {"from": payer, "to": payee, "amount": amount,
                                                          "confirm": True})
            if self.refused_role(phone, "pay", status, body):
                return
            assert status == 201, body
            assert (body["from"], body["to"], body["amount"], body["status"]) == (payer, payee, amount, "counted")
            self.payments[body["id"]] = {"from": payer, "to": payee, "amount": amount, "status": "counted"}
            self.changes += 1

        @precondition(lambda self: self.payments)
        @rule(phone=st.sampled_from(PHONES), data=st.data())
        def void_payment(self, phone: str, data: st.DataObject) -> None:
            payment_id = data.draw(st.sampled_from(sorted(self.payments)))
            status, body = self.post(phone, f"/payments/{payment_id}/void")
            if self.refused_role(phone, "void_payment", status, body):
                return
            assert (status, body["status"]) == (200, "voided"), body
            if self.payments[payment_id]["status"] == "counted":
                self.payments[payment_id]["status"] = "voided"
                self.changes += 1

        @rule(phone=st.sampled_from(PHONES))
        def close(self, phone: str) -> None:
            status, body = self.post(phone, "/close")
            if self.refused_role(phone, "close", status, body):
                return
            assert (status, body["status"]) == (200, "closed"), body
            if not self.closed:
                self.closed = True
                self.changes += 1

        # -- what must hold after every step ----------------------------------------------------
        @invariant()
        def ledger_adds_up(self) -> None:
            hands = self.get("/hands")["hands"]
            numbers = [h["number"] for h in hands]
            assert numbers == list(range(1, len(self.hands) + 1))
            for hand in hands:
                assert sum(hand["net"].values()) == 0, hand
                model = self.hands[hand["number"]]
                assert (hand["status"], hand["version"], hand["net"]) == (model["status"], model["version"], model["net"])
            counted = {p: sum(h["net"].get(p, 0) for h in hands if h["status"] == "counted") for p in players}
            session = self.get("")
            assert session["net"] == counted
            assert session["status"] == ("closed" if self.closed else "open")
            left = dict(counted)
            for payment in self.payments.values():
                if payment["status"] == "counted":
                    left[payment["from"]] += payment["amount"]
                    left[payment["to"]] -= payment["amount"]
            assert session["outstanding"] == left
            assert sum(left.values()) == 0
            listed = {p["id"]: p["status"] for p in self.get("/payments")["payments"]}
            assert listed == {i: p["status"] for i, p in self.payments.items()}
            assert len(self.get("/history")["events"]) == self.changes

        @invariant()
        def kept_figures_equal_a_recomputation(self) -> None:
            with client.application.app_context():
                checked_figures(get_session(), self.id)
            with client.application.test_request_context():
                checked_table(get_session(), self.id)

    return Night


@pytest.mark.slow
def test_phones_in_random_order_keep_the_ledger_exact(client: Any, night_data: dict[str, Any]) -> None:
    run_state_machine_as_test(
        make_machine(client, night_data),
        settings=settings(max_examples=25, stateful_step_count=20, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow]),
    )
