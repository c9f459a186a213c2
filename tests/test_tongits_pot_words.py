"""The pot of a Tong-its night in words on the phone (TONGITS.md §4.8, §4.9): the table screen says
what the pot holds and who is on a streak; closing the night says what happened to it (split among
the seated players, carried, or empty), each one whole translated sentence; the settle-up plan of a
night with money in the pot says who pays into it (no 500: the pot is a party of the balances)."""
from __future__ import annotations

import html
import re
from typing import Any

from tests.test_tongits_ledger import open_tongits, record, tongits_night
from tests.test_web_pages import csrf_of, flashes


def joined(client: Any, night: dict[str, Any]) -> None:
    token = night["headers"]["Authorization"].split()[1]
    assert client.get(f"/join/{night['id']}/{token}").status_code == 302


def pot_line(page: str) -> str:
    """The table screen's pot panel as read: its balance line, then the streak or, once the night
    is closed, what the close did with the pot."""
    found = re.search(r'<div class="pot-panel" id="pot"[^>]*>(.*?)</div>', page, flags=re.S)
    assert found, "the table screen shows no pot"
    lines = re.findall(r"<p[^>]*>(.*?)</p>", found.group(1), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in lines)


def close(client: Any, night: dict[str, Any]) -> str:
    page = client.get(f"/s/{night['id']}/settle").get_data(as_text=True)
    done = client.post(f"/s/{night['id']}/close", data={"csrf_token": csrf_of(page), "confirmed": "yes"},
                       follow_redirects=True)
    assert done.status_code == 200
    return done.get_data(as_text=True)


def test_the_table_screen_says_what_the_pot_holds_and_the_close_says_it_was_split(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client)
    joined(client, night)
    assert pot_line(client.get(f"/s/{night['id']}").get_data(as_text=True)) == "Pot: ₱0.00 Nobody holds a streak."
    record(client, night, data["hands"][0])
    page = client.get(f"/s/{night['id']}").get_data(as_text=True)
    assert pot_line(page) == "Pot: ₱30.00 Dodong holds the streak: 1 win in a row."
    settle = client.get(f"/s/{night['id']}/settle")
    assert settle.status_code == 200
    assert "Ligaya puts this into the pot" in html.unescape(re.sub(r"<[^>]+>", "", settle.get_data(as_text=True)))
    shown = flashes(close(client, night))
    assert "The pot of ₱30.00 was split among 3 players." in shown, shown
    assert pot_line(client.get(f"/s/{night['id']}").get_data(as_text=True)) == \
        "Pot: ₱0.00 The pot of ₱30.00 was split among 3 players."


def test_a_carried_pot_says_so_at_the_close(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"pot_at_end": "carry"}})
    joined(client, night)
    record(client, night, data["hands"][0])
    shown = flashes(close(client, night))
    assert "The pot of ₱30.00 is carried to the group's next night; the players' balances do not settle it." \
        in shown, shown


def test_an_empty_pot_says_so_at_the_close(client: Any) -> None:
    night = open_tongits(client)
    joined(client, night)
    assert "The pot was empty when the night closed." in flashes(close(client, night))


def test_the_pot_line_is_translated(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client)
    joined(client, night)
    record(client, night, data["hands"][0])
    page = client.get(f"/s/{night['id']}?lang=fil").get_data(as_text=True)
    line = pot_line(page)
    assert "Dodong" in line and "pot" in line.lower() and "holds the streak" not in line


def test_a_tonk_table_shows_no_pot(client: Any, night_data: dict[str, Any]) -> None:
    body = {k: night_data[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    created = client.post("/api/v1/sessions", json=body).get_json()
    joined(client, {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}})
    assert 'id="pot"' not in client.get(f"/s/{created['id']}").get_data(as_text=True)


def seats_post(client: Any, night: dict[str, Any], path: str, **fields: str) -> str:
    page = client.get(f"/s/{night['id']}/seats").get_data(as_text=True)
    done = client.post(f"/s/{night['id']}/seats/{path}", data={"csrf_token": csrf_of(page), **fields},
                       follow_redirects=True)
    assert done.status_code == 200
    return done.get_data(as_text=True)


def test_a_seat_change_from_the_phone_says_what_it_did_with_the_pot(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"four_players": True}})
    joined(client, night)
    record(client, night, data["hands"][0])  # pot ₱30.00
    shown = flashes(seats_post(client, night, "sit-in", name="Bong", after=""))
    assert "Before the seat change, the pot of ₱30.00 was split among 3 players." in shown, shown
    record(client, night, {"hand": 3, "outcome": {"kind": "tongits", "winner": "Bong"}, "hands": {}}, dealer=False)
    shown = flashes(seats_post(client, night, "leave", name="Bong", settle="at_end", confirmed="yes"))
    assert "Before the seat change, the pot of ₱40.00 was split among 4 players." in shown, shown


def test_a_kept_pot_says_it_stays_for_the_new_seating(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic",
                                          "toggles": {"four_players": True, "pot_on_seat_change": "keep"}})
    joined(client, night)
    record(client, night, data["hands"][0])
    shown = flashes(seats_post(client, night, "sit-in", name="Bong", after=""))
    assert "The pot of ₱30.00 stays for the new seating; the streak starts again." in shown, shown


def test_the_history_shows_a_seat_change_close_in_words_with_nothing_to_void(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"four_players": True}})
    joined(client, night)
    record(client, night, data["hands"][0])
    seats_post(client, night, "sit-in", name="Bong", after="")
    page = client.get(f"/s/{night['id']}/hands").get_data(as_text=True)
    row = re.search(r'(?s)<li class="hand[^"]*" id="hand-2">.*?</li>', page)
    assert row, "the history shows no entry 2"
    text = html.unescape(re.sub(r"<[^>]+>", " ", row.group(0)))
    assert "The pot was split among the players" in text
    assert "/hands/2/void" not in row.group(0) and "/amend" not in row.group(0)
    first = re.search(r'(?s)<li class="hand[^"]*" id="hand-1">.*?</li>', page)
    assert first and "Stock out: Dodong won" in html.unescape(first.group(0))  # Tong-its' own words
