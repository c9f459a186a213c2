"""Issue 20, "Done when": for any club built through the API (nights with hands, corrections,
voids, stake changes, players sitting in, leaving and renamed, payments; nights carried, settled
in cash or left open; club payments and a renamed member), export → import into an empty
server → export gives the same document, ids and tokens aside (the import adds one
``club_imported`` event to the club's history, naming the club it came from), and so does that
export imported into another empty server; and any single
number of the export changed is either refused (422, nothing kept) or changes no money: the
imported club's balances, plan, standings, and each night's nets, what is still owed, plan and
hand results are those of the export as it was."""
from __future__ import annotations

import copy
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club_nights import bearer, club_plan_by_place, make_club, plan_by_place
from conftest import PG_URL, _fresh_postgres_database
from ledger import create_app
from test_club_import_replay import rows
from test_ledger_state_machine import entries

POOL = ("Ann", "Ben", "Cy", "Dee", "Eve")
STAKES = (10, 25, 50)


@pytest.fixture
def empty_servers(tmp_path: Path) -> Iterator[Any]:
    """A maker of apps, each on its own empty database (disposed, and dropped on PostgreSQL, at
    the end of the test)."""
    made: list[tuple[Any, Iterator[str]]] = []

    def make() -> Any:
        urls = (_fresh_postgres_database(PG_URL) if PG_URL
                else iter([f"sqlite:///{tmp_path / f'{uuid.uuid4().hex}.sqlite3'}"]))
        app = create_app({"TESTING": True, "DATABASE_URL": next(urls), "SECRET_KEY": "empty-secret"})
        made.append((app, urls))
        return app.test_client()

    yield make
    for app, urls in made:
        app.extensions["ledger.engine"].dispose()
        for _unused in urls:  # drops the PostgreSQL database
            pass


def ok(response: Any, *statuses: int) -> Any:
    assert response.status_code in (statuses or (200, 201)), (response.status_code, response.get_json())
    return response.get_json()


class Night:
    """A club night played through the API, with what the test needs to draw valid changes."""

    def __init__(self, client: Any, club: dict[str, Any], players: list[str], stake: int) -> None:
        self.client = client
        body = ok(client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
            "name": "Night", "stake": stake, "ruleset": {"preset": "classic"}, "players": players,
            "club": club["id"]}))
        self.url, self.host = f"/api/v1/sessions/{body['id']}", bearer(body["token"])
        self.seated, self.everyone = list(body["players"]), list(body["players"])
        self.hands: dict[int, dict[str, Any]] = {}  # number → {"players", "version", "status"}
        self.renamed: set[str] = set()  # names renamed away (the member keeps the seat under the new one)

    def act(self, data: Any, taken: set[str]) -> None:
        choices = ["hand", "hand", "stake", "pay"]
        counted = [n for n, h in self.hands.items() if h["status"] == "counted"]
        if counted:
            choices += ["amend", "void"]
        if len(self.seated) < 4:
            choices.append("sit_in")
        if len(self.seated) >= 3:
            choices.append("leave")
        choices.append("rename")
        action = data.draw(st.sampled_from(choices))
        client, url, host = self.client, self.url, self.host
        if action == "hand":
            entry = data.draw(entries(self.seated))
            number = ok(client.post(f"{url}/hands", headers=host, json=entry), 201)["number"]
            self.hands[number] = {"players": list(self.seated), "version": 1, "status": "counted"}
        elif action == "amend":
            number = data.draw(st.sampled_from(counted))
            hand = self.hands[number]
            entry = data.draw(entries(hand["players"]))
            ok(client.post(f"{url}/hands/{number}/amend", headers=host, json=entry | {"version": hand["version"]}),
               201)
            hand["version"] += 1
        elif action == "void":
            number = data.draw(st.sampled_from(counted))
            ok(client.post(f"{url}/hands/{number}/void", headers=host), 200)
            self.hands[number]["status"] = "voided"
        elif action == "stake":
            ok(client.post(f"{url}/stake", headers=host, json={"stake": data.draw(st.sampled_from(STAKES))}), 200)
        elif action == "pay":
            payer, payee = data.draw(st.lists(st.sampled_from(self.everyone), min_size=2, max_size=2, unique=True))
            ok(client.post(f"{url}/payments", headers=host, json={
                "from": payer, "to": payee, "amount": data.draw(st.integers(1, 200)), "confirm": True}), 201)
        elif action == "sit_in":  # a newcomer, a club member, or one who left coming back
            name = data.draw(st.sampled_from([p for p in POOL if p not in self.seated and p not in self.renamed]))
            ok(client.post(f"{url}/players", headers=host, json={"name": name}), 201)
            self.seated.append(name)
            self.everyone += [] if name in self.everyone else [name]
            taken.add(name)
        elif action == "leave":
            name = data.draw(st.sampled_from(self.seated))
            ok(client.post(f"{url}/players/leave", headers=host,
                           json={"name": name, "settle": data.draw(st.sampled_from(["now", "at_end"]))}), 200)
            self.seated.remove(name)
        elif action == "rename":
            old = data.draw(st.sampled_from(self.everyone))
            new = old + "y"
            if new not in taken and len(new) <= 20:
                ok(client.post(f"{url}/players/rename", headers=host, json={"from": old, "to": new}), 200)
                self.seated = [new if p == old else p for p in self.seated]
                self.everyone = [new if p == old else p for p in self.everyone]
                for hand in self.hands.values():
                    hand["players"] = [new if p == old else p for p in hand["players"]]
                taken.add(new)
                self.renamed.add(old)

    def close(self, how: str) -> None:
        if how != "open":
            ok(self.client.post(f"{self.url}/close", headers=self.host, json={"carry_over": how == "carry"}), 200)


def build_club(client: Any, data: Any) -> dict[str, Any]:
    club = make_club(client)
    taken: set[str] = set()
    for _ in range(data.draw(st.integers(1, 3), label="nights")):
        players = data.draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=4, unique=True))
        night = Night(client, club, players, data.draw(st.sampled_from(STAKES)))
        taken |= set(night.everyone)
        for _ in range(data.draw(st.integers(0, 8), label="changes")):
            night.act(data, taken)
        night.close(data.draw(st.sampled_from(["carry", "cash", "open"])))
    url = f"/api/v1/clubs/{club['id']}"
    members = ok(client.get(url, headers=bearer(club["token"])))["members"]
    for _ in range(data.draw(st.integers(0, 2), label="club payments")):
        payer, payee = data.draw(st.lists(st.sampled_from(members), min_size=2, max_size=2,
                                          unique_by=lambda m: m["id"]))
        paid = ok(client.post(f"{url}/payments", headers=bearer(club["token"]), json={
            "from": payer["name"], "to": payee["name"], "amount": data.draw(st.integers(1, 300)), "confirm": True}))
        if data.draw(st.booleans(), label="void it"):
            ok(client.post(f"{url}/payments/{paid['id']}/void", headers=bearer(club["token"])))
    if data.draw(st.booleans(), label="rename a member"):
        member = data.draw(st.sampled_from(members))
        ok(client.post(f"{url}/members/{member['id']}/rename", headers=bearer(club["token"]),
                       json={"name": member["name"] + "-z"}))
    return club


def export(client: Any, club_id: str, token: str) -> dict[str, Any]:
    return ok(client.get(f"/api/v1/clubs/{club_id}/export.json", headers=bearer(token)))  # type: ignore[no-any-return]


def without_ids(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the club's and nights' ids left out and members' ids as their places."""
    doc = copy.deepcopy(doc)
    place = {member["id"]: index for index, member in enumerate(doc["members"])}
    del doc["club"]["id"]
    for member in doc["members"]:
        member["id"] = place[member["id"]]
    night_ids = [night["session"]["id"] for night in doc["nights"]]
    for night in doc["nights"]:
        del night["session"]["id"]
        for row in night["seats"] + night["carries"]:
            row["member_id"] = place[row["member_id"]]
    for payment in doc["payments"]:
        payment["from_id"], payment["to_id"] = place[payment["from_id"]], place[payment["to_id"]]
    # the club's history names members, nights and payments by the ids of the server it is on
    nights = {night_id: index for index, night_id in enumerate(night_ids)}
    recorded = [e["detail"]["after"]["id"] for e in doc["history"] if e["action"] == "payment_recorded"]
    places = {"member": place, "night": nights, "payment": {pid: index for index, pid in enumerate(recorded)}}
    for event in doc["history"]:
        kind = "night" if event["action"].startswith("night_") else event["action"].split("_")[0]
        for side in ("before", "after"):
            part = event["detail"].get(side)
            if isinstance(part, dict) and kind in places:
                for field, known in (("id", places[kind]), ("from_id", place), ("to_id", place)):
                    if field in part:
                        part[field] = ("id", known[part[field]])
    return doc


def money(client: Any, club_id: str, token: str) -> dict[str, Any]:
    """Every money figure of a club, ids aside."""
    url = f"/api/v1/clubs/{club_id}"
    club = ok(client.get(url, headers=bearer(token)))
    standings = ok(client.get(f"{url}/standings", headers=bearer(token)))
    nights = []
    for night in club["nights"]:
        host = bearer(ok(client.post(f"{url}/nights/{night['id']}/token", headers=bearer(token)), 201)["token"])
        session = ok(client.get(f"/api/v1/sessions/{night['id']}", headers=host))
        paid = ok(client.get(f"/api/v1/sessions/{night['id']}/payments", headers=host))["payments"]
        plan = plan_by_place(ok(client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=host)),
                             [], [p["id"] for p in paid])
        plan["carried_into"] = plan.get("carried_into") == club_id  # the club's id: whether it went there
        hands = ok(client.get(f"/api/v1/sessions/{night['id']}/hands", headers=host))["hands"]
        nights.append({"net": session["net"], "outstanding": session["outstanding"], "plan": plan,
                       "carried": night["carried"], "hands": [(h["number"], h["version"], h["status"], h["net"])
                                                              for h in hands]})
    return {"members": [m["name"] for m in club["members"]], "balances": club["balances"],
            "settlement": club_plan_by_place(client, club_id, token), "nights": nights,
            "standings": [{k: v for k, v in line.items() if k != "member_id"} for line in standings["members"]]}


def numbers(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every number (not a boolean) in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from numbers(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from numbers(value, path + (index,))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield path


def changed(doc: dict[str, Any], path: tuple[Any, ...], value: int) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    node: Any = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return out


MUTATIONS = 6  # numbers changed (one at a time) per club built
PROPERTY = settings(max_examples=int(__import__('os').environ.get('WTB_EXAMPLES', '25')), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


@pytest.mark.slow
@PROPERTY
@given(data=st.data())
def test_export_import_export_is_the_same_and_a_changed_number_is_refused_or_changes_no_money(
        client: Any, empty_servers: Any, data: Any) -> None:
    club = build_club(client, data)
    first = export(client, club["id"], club["token"])

    server = empty_servers()
    imported = ok(server.post("/api/v1/clubs/import", json=first), 201)
    second = export(server, imported["id"], imported["token"])
    assert second["history"][-1] == {"action": "club_imported", "actor_role": "owner",
                                     "detail": {"from": first["club"]["id"]}, "at": second["history"][-1]["at"]}
    assert without_ids(second | {"history": second["history"][:-1]}) == without_ids(first)
    # and an imported club's own export imports again the same way (its history names this server's ids)
    elsewhere = empty_servers()
    copied = ok(elsewhere.post("/api/v1/clubs/import", json=second), 201)
    third = export(elsewhere, copied["id"], copied["token"])
    assert third["history"][-1]["detail"] == {"from": second["club"]["id"]}
    assert without_ids(third | {"history": third["history"][:-1]}) == without_ids(second)
    figures = money(server, imported["id"], imported["token"])
    assert figures == money(client, club["id"], club["token"])

    paths = list(numbers(first))
    for _ in range(MUTATIONS):
        path = data.draw(st.sampled_from(paths), label="number changed")
        old = _at(first, path)
        new = data.draw(st.sampled_from(sorted({old + 1, old - 1, 0, -old, 2 * old + 7, 10**15 + 1, 2**31} - {old})),
                        label="to")
        before = rows(server)
        answer = server.post("/api/v1/clubs/import", json=changed(first, path, new))
        assert answer.status_code in (201, 422), (path, new, answer.status_code, answer.get_json())
        if answer.status_code == 422:
            body = answer.get_json()
            assert body["field"] and body["message"], body
            assert rows(server) == before  # nothing of it kept
        else:
            again = answer.get_json()
            assert money(server, again["id"], again["token"]) == figures, (path, old, new)


def _at(doc: Any, path: tuple[Any, ...]) -> int:
    for part in path:
        doc = doc[part]
    return doc  # type: ignore[no-any-return]
