"""A club import (no login needed) stores a club only whole and readable: a document that
repeats a member, whose carries do not add up, or whose currency, time zone, names, seats,
status, stake or rules the app could not read back is refused with 422 naming the field, and
nothing of it is kept (never a 500, never an orphan club)."""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest
from sqlmodel import select

from club_nights import bearer, make_club, three_nights
from ledger.storage.club_models import Club


@pytest.fixture
def document(client: Any) -> dict[str, Any]:
    club = make_club(client)
    three_nights(client, club)
    return client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()


def _clubs(client: Any) -> int:
    with client.application.app_context():
        from ledger.storage.db import get_session
        return len(list(get_session().exec(select(Club))))


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] = value
    return change


def _unbalance(doc: dict[str, Any]) -> None:
    carried = next(n for n in doc["nights"] if n["carries"])
    carried["carries"][0]["amount"] += 100


CASES = [
    ("a member twice", lambda doc: doc["members"].append(dict(doc["members"][0])), "members[4].id"),
    ("carries that do not add up", _unbalance, "nights[0].carries[0].amount"),
    ("an unknown currency", _set("club.currency", "ZZZ"), "club.currency"),
    ("a currency in lower case", _set("club.currency", "usd"), "club.currency"),
    ("an unknown time zone", _set("club.timezone", "Mars/Base"), "club.timezone"),
    ("an empty club name", _set("club.name", ""), "club.name"),
    ("a member name that is not a name", _set("members.0.name", "\u202e\u0000"), "members[0].name"),
    ("seats as one text", _set("nights.0.session.players", "Dee"), "nights[0].session.players"),
    ("a night status that is not one", _set("nights.0.session.status", "weird"), "nights[0].session.status"),
    ("a stake that is not positive", _set("nights.0.session.stake", 0), "nights[0].session.stake"),
    ("rules of no preset", _set("nights.0.session.ruleset.preset", "bogus"), "nights[0].session.ruleset.preset"),
    ("rules under a preset's alias", _set("nights.0.session.ruleset.preset", "pagat"),
     "nights[0].session.ruleset.preset"),
]


@pytest.mark.parametrize("change, field", [(c, f) for _, c, f in CASES], ids=[name for name, _, _ in CASES])
def test_a_document_the_app_could_not_read_back_is_refused_whole(
    client: Any, document: dict[str, Any], change: Callable[[dict[str, Any]], None], field: str | None
) -> None:
    before = _clubs(client)
    broken = copy.deepcopy(document)
    change(broken)
    refused = client.post("/api/v1/clubs/import", json=broken)
    body = refused.get_json()
    assert refused.status_code == 422, body
    assert body["field"] == field and body["message"]
    assert _clubs(client) == before  # nothing kept
    assert client.post("/api/v1/clubs/import", json=document).status_code == 201  # the document as exported imports
