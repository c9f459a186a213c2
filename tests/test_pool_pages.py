"""Issue 25, item 2 at the table: a pool night on the phone. The start form offers the pool presets
(the stake is the entry fee); the table shows each player's score against the limit, who is out
and the pot; the record page deals the players still in and offers the ones out a rejoin; the host
ends the pool from the table and the pot is paid; the history and the PDFs read the end."""
from __future__ import annotations

import html
import re
from typing import Any

from tests.test_pool_nights import FEE, PLAYERS, open_pool, post, show
from tests.test_rummy13_night_reads import form_of
from tests.test_tongits_statements import flat, pdftotext
from tests.test_web_pages import csrf_of


def host(client: Any, night: dict[str, Any]) -> None:
    token = night["auth"]["Authorization"].split()[1]
    assert client.get(f"/join/{night['id']}/{token}").status_code == 302


def test_the_start_form_offers_the_pool_presets(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'value="pool_101"' in page and 'value="pool_201"' in page and "The stake is the entry fee" in page
    data = {"csrf_token": csrf_of(page), "name": "Onam pool", "game": "rummy13", "rummy_preset": "pool_101",
            "stake": "100", "currency": "INR", "player-0": "Anoop", "player-1": "Bindu", "go": "start"}
    started = client.post("/", data=data)
    assert started.status_code == 302, started.get_data(as_text=True)[:300]
    table = client.get(started.headers["Location"]).get_data(as_text=True)
    assert "Pool to 101 · pot <strong>₹200.00</strong>" in table


def test_the_table_the_record_page_and_the_end_of_the_pool(app: Any, client: Any) -> None:
    night = open_pool(client)
    post(client, night, "/hands", show("Anoop", {"Bindu": 80, "Chacko": "first", "Devi": 30}))
    post(client, night, "/hands", show("Chacko", {"Anoop": 10, "Bindu": "middle", "Devi": 40}))
    phone = app.test_client()
    host(phone, night)
    table = html.unescape(phone.get(f"/s/{night['id']}").get_data(as_text=True))
    scores = re.findall(r'<span class="balance-name">([^<]+)</span>\s*<span class="pool-points">([^<]+)</span>', table)
    assert scores == [("Anoop", "10 of 101"), ("Bindu", "120 · out"), ("Chacko", "20 of 101"), ("Devi", "70 of 101")]
    assert "End the pool now: the players still in split the pot" in table
    # the record page: Bindu may buy in again; ticked, she is dealt in at 71
    page = phone.get(f"/s/{night['id']}/record?kind=show").get_data(as_text=True)
    assert 'name="rejoin-1"' in page and "Out of the pool (120): buys in again with this hand" in page
    assert 'name="rejoin-0"' not in page
    fields = form_of(page) | {"kind": "show", "winner": "Anoop", "wild_rank": "5", "rejoin-1": "1",
                              "result-1": "lost", "points-1": "5", "result-2": "lost", "points-2": "2",
                              "result-3": "first_drop"}
    saved = phone.post(f"/s/{night['id']}/record", data=fields)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:400]
    body = client.get(f"/api/v1/sessions/{night['id']}", headers=night["auth"]).get_json()
    assert body["pool"]["scores"] == {"Anoop": 10, "Bindu": 76, "Chacko": 22, "Devi": 90}
    assert body["pool"]["buy_ins"]["Bindu"] == 2
    # everyone but Anoop goes out; the host ends the pool from the table
    post(client, night, "/hands", show("Anoop", {"Bindu": 30, "Chacko": 80, "Devi": "middle"}))
    table = html.unescape(phone.get(f"/s/{night['id']}").get_data(as_text=True))
    assert "Anoop</strong> is the last one in: the pot is theirs." in table
    csrf = csrf_of(table)
    ended = phone.post(f"/s/{night['id']}/pool/end", data={"csrf_token": csrf, "split": ""})
    assert ended.status_code == 302
    table = html.unescape(phone.get(f"/s/{night['id']}").get_data(as_text=True))
    assert "The pool ended: the pot of ₹500.00 is paid." in table and "The pool is over and its pot was paid." in table
    assert "The pool ended: Anoop takes the pot" in table  # the entry in the latest hands
    body = client.get(f"/api/v1/sessions/{night['id']}", headers=night["auth"]).get_json()
    assert body["net"] == {"Anoop": 4 * FEE, "Bindu": -2 * FEE, "Chacko": -FEE, "Devi": -FEE}
    history = phone.get(f"/s/{night['id']}/hands").get_data(as_text=True)
    assert "The pool ended: Anoop takes the pot" in html.unescape(history)
    summary = flat(pdftotext(phone.get(f"/s/{night['id']}/summary.pdf").data))
    assert "The pool ended: Anoop takes the pot" in summary and "4 hands" in summary
    for player in PLAYERS:
        statement = flat(pdftotext(phone.get(f"/s/{night['id']}/statements/{PLAYERS.index(player) + 1}.pdf").data))
        assert "The pool ended: Anoop takes the pot" in statement
    exported = phone.get(f"/s/{night['id']}/export.json").get_json()
    ends = [h for h in exported["hands"] if h.get("kind") == "pool_end"]
    assert len(ends) == 1 and ends[0]["net"] == {"Anoop": 4 * FEE, "Bindu": -2 * FEE, "Chacko": -FEE, "Devi": -FEE}
    csv = phone.get(f"/s/{night['id']}/export/hands.csv").get_data(as_text=True)
    assert "The pool ended: Anoop takes the pot" in csv
