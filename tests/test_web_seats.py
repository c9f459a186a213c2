"""The Seats and stake page without JavaScript: the host seats a late arrival, cashes out a
leaver (shown first, paid now or at the end), changes the stake, fixes swapped seats and
renames; refused forms come back with what was typed and the reason; only the host sees the
controls; a hand played before a change is corrected as it was played; the log and exports
name every change."""
from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

from small_nights import ann_bob_cat
from test_web_amend import correct_url, record_caught_knock
from test_web_pages import api_session, csrf_of, flashes, table_token
from test_web_rules import ABC, Phone, payments_shown, start, text_of


def seats_page(client: Any, session_id: str) -> str:
    response = client.get(f"/s/{session_id}/seats")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def post(client: Any, session_id: str, path: str, **fields: str) -> Any:
    token = csrf_of(seats_page(client, session_id))
    return client.post(f"/s/{session_id}/seats/{path}", data={"csrf_token": token, **fields})


def seated(page: str) -> list[str]:
    block = re.search(r'<ol class="balances seats" id="seated">(.*?)</ol>', page, flags=re.S)
    assert block
    return [html.unescape(n) for n in re.findall(r'data-name="([^"]*)"', block.group(1))]


def alert(page: str) -> str:
    found = re.search(r'role="alert">([^<]*)<', page)
    return html.unescape(found.group(1)) if found else ""


def test_the_host_changes_the_table_from_the_phone(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)  # A −$1.00, B +$0.75, C +$0.25
    assert seated(seats_page(client, session_id)) == ["A", "B", "C"]

    refused = post(client, session_id, "sit-in", name="  ", after="B")
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert alert(page) == "Type the name of the player sitting in."
    assert re.search(r'<option value="B" selected>After B</option>', page)  # the place chosen is kept

    added = post(client, session_id, "sit-in", name="Dee", after="B")
    assert added.status_code == 302
    page = seats_page(client, session_id)
    assert flashes(page) == ["Dee sits in from hand 2."]
    assert seated(page) == ["A", "B", "Dee", "C"]

    bad_stake = post(client, session_id, "stake", stake="0.5x")
    assert bad_stake.status_code == 422 and 'value="0.5x"' in bad_stake.get_data(as_text=True)
    for typed in ("0", "99999999999999"):  # refused in dollars, as typed, never in cents
        out_of_range = post(client, session_id, "stake", stake=typed)
        page = out_of_range.get_data(as_text=True)
        assert out_of_range.status_code == 422 and f'value="{typed}"' in page
        assert alert(page) == "The stake must be more than zero and at most $10,000,000.00."
    assert post(client, session_id, "stake", stake="0.50").status_code == 302
    page = seats_page(client, session_id)
    assert flashes(page) == ["The stake is $0.50 from hand 2."]
    assert "$0.50 from hand 2" in text_of(page)

    # B leaves: first the cash-out is shown, nothing recorded
    shown = post(client, session_id, "leave", name="B")
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    line = "B leaves +$0.75: A pays B $0.75"
    assert text_of(re.search(r'id="cash-out-line">(.*?)</p>', page, flags=re.S).group(1)).strip() == line
    assert api_session(client, session_id)["players"] == ["A", "B", "Dee", "C"]
    quote = re.search(r'name="quote" value="([^"]+)"', page).group(1)
    # another phone pays something meanwhile: the confirmation shows the new cash-out again
    token = table_token(client, session_id)
    client.post(f"/api/v1/sessions/{session_id}/payments", json={"from": "A", "to": "B", "amount": 25},
                headers={"Authorization": f"Bearer {token}"})
    moved = post(client, session_id, "leave", name="B", settle="now", confirmed="yes", quote=quote)
    assert moved.status_code == 409
    page = moved.get_data(as_text=True)
    assert "The balances changed since you looked" in page and "B leaves +$0.50: A pays B $0.50" in text_of(page)
    quote = re.search(r'name="quote" value="([^"]+)"', page).group(1)
    left = post(client, session_id, "leave", name="B", settle="at_end", confirmed="yes", quote=quote)
    assert left.status_code == 302
    page = seats_page(client, session_id)
    assert flashes(page) == ["B leaves +$0.50: A pays B $0.50. To be paid at the end of the night."]
    again = post(client, session_id, "leave", name="B", settle="at_end", confirmed="yes", quote=quote)  # a double tap
    assert again.status_code == 302
    assert flashes(seats_page(client, session_id)) == ["B already left this table."]
    assert seated(page) == ["A", "Dee", "C"] and "as of hand 1" in text_of(page)
    body = api_session(client, session_id)
    assert body["outstanding"]["B"] == 50  # paid at the end: still in the plan

    refused_swap = post(client, session_id, "swap", a="A", b="Dee", from_hand="1")
    assert refused_swap.status_code == 422
    assert alert(refused_swap.get_data(as_text=True)).startswith("At hand 1 A was seated but Dee was not")
    assert 'value="1"' in refused_swap.get_data(as_text=True)
    assert post(client, session_id, "swap", a="A", b="C", from_hand="\u0661").status_code == 302  # Arabic-Indic 1
    assert flashes(seats_page(client, session_id)) == ["A and C swapped seats from hand 1: hands 1 re-entered."]
    assert api_session(client, session_id)["net"] == {"C": -100, "Dee": 0, "A": 25, "B": 75}

    assert post(client, session_id, "rename", **{"from": "Dee", "to": "Deedee"}).status_code == 302
    assert seated(seats_page(client, session_id)) == ["C", "Deedee", "A"]

    log = text_of(client.get(f"/s/{session_id}/log").get_data(as_text=True))
    for title in ("Dee sat in from hand 2", "Stake $0.50 from hand 2 (was $0.25)", "B leaves +$0.50: A pays B $0.50",
                  "A and C swapped seats from hand 1", "Dee is now Deedee"):
        assert title in log, title
    history = list(csv.DictReader(io.StringIO(client.get(f"/s/{session_id}/export/history.csv").get_data(as_text=True))))
    assert [r["action"] for r in history][-5:] == [
        "stake_changed", "payment_recorded", "player_left", "seats_swapped", "player_renamed"]
    exported = client.get(f"/s/{session_id}/export.json").get_json()
    assert [(h["number"], h["version"], h["players"], h["stake"]) for h in exported["hands"]] == [
        (1, 1, ["A", "B", "C"], 25), (1, 2, ["C", "B", "A"], 25)]
    assert exported["session"]["stakes"] == [{"from_hand": 1, "stake": 25}, {"from_hand": 2, "stake": 50}]


def test_only_the_host_sees_and_uses_the_controls(client: Any, app: Any) -> None:
    session_id = start(client, ABC, "0.25")
    assert 'id="sit-in-form"' in seats_page(client, session_id)
    other = app.test_client()  # a player's phone, by the table link the host shares
    assert other.get(f"/join/{session_id}/{table_token(client, session_id)}").status_code == 302
    page = seats_page(other, session_id)
    assert 'id="sit-in-form"' not in page and 'id="rename-form"' not in page
    assert seated(page) == ["A", "B", "C"]
    token = csrf_of(other.get(f"/s/{session_id}").get_data(as_text=True))
    refused = other.post(f"/s/{session_id}/seats/sit-in", data={"csrf_token": token, "name": "Dee"})
    assert refused.status_code == 403


def test_a_hand_played_before_the_stake_changed_is_corrected_at_its_own_stake(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)
    assert post(client, session_id, "stake", stake="1.00").status_code == 302
    assert post(client, session_id, "sit-in", name="Dee").status_code == 302
    phone = Phone(client, session_id).open(correct_url(session_id, 1, 1))
    phone.outcome("knock")
    assert "Dee" not in phone.page  # hand 1 was played by A, B and C
    phone.next()
    phone.next(**{"total-2": "4"})
    # classic at hand 1's stake, $0.25 (not today's $1.00): A pays 2S to B and C, B pays S to C
    assert payments_shown(phone.page) == [("A", "B", "$0.50"), ("A", "C", "$0.50"), ("B", "C", "$0.25")]
    phone.press(("go", "save"))
    assert phone.status == 302
    hand = api_session(client, session_id)
    assert hand["net"] == {"A": -100, "Dee": 0, "B": 25, "C": 75}


def test_the_log_shows_money_under_the_names_of_now_so_a_reused_name_never_takes_anothers(client: Any) -> None:
    """Bob wins hand 1 and is renamed Bobby; a new Bob sits in. Hand 1's line in the log says
    Bobby won it, in its description and in its amounts (the new Bob never played it); the
    rename itself still reads Bob → Bobby."""
    night = ann_bob_cat(client, "Bob")
    url, headers = night["url"], night["headers"]
    assert client.post(f"{url}/payments", json={"from": "Ann", "to": "Bob", "amount": 50},
                       headers=headers).status_code == 201
    assert client.post(f"{url}/players/rename", json={"from": "Bob", "to": "Bobby"}, headers=headers).status_code == 200
    assert client.post(f"{url}/players", json={"name": "Bob"}, headers=headers).status_code == 201
    client.get(f"/join/{night['id']}/{night['token']}")
    log = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/s/{night['id']}/log").get_data(as_text=True))).split())
    hand = log[log.index("Hand 1 recorded"):]
    assert "Bobby tonked out (2×) Ann: -$0.50 Bobby: +$1.00 Cat: -$0.50" in hand
    assert "Bob: +$1.00" not in log
    assert "Ann paid Bobby $0.50" in log
    assert "Bob is now Bobby" in log  # the rename itself names the names of then


def test_a_hand_re_entered_by_a_seat_fix_says_who_fixed_it(client: Any) -> None:
    night = ann_bob_cat(client, "Bob")
    url, headers = night["url"], night["headers"]
    assert client.post(f"{url}/seats/swap", json={"a": "Bob", "b": "Cat", "from_hand": 1},
                       headers=headers).status_code == 200
    client.get(f"/join/{night['id']}/{night['token']}")
    page = text_of(client.get(f"/s/{night['id']}/hands").get_data(as_text=True))
    assert "Corrected by unknown" not in page
    assert re.search(r"Corrected by host", page), page[:2000]
