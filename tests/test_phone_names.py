"""Phones have names (issue 23 item 8): the phones lists (a night's and a club's, on the phone
pages and in the API) call a phone by the name it chose when it joined ("Bo's phone"), cleaned
like a player's name and at most 40 characters, else by its system and browser ("Android ·
Chrome", read by ua-parser), never by a raw user agent; a bad name is refused naming the field."""
from __future__ import annotations

import html
import re
from typing import Any

import pytest

from club_nights import bearer, make_club
from conftest import session_body
from ledger.access.devices import MAX_PHONE_NAME, describe, phone_name, shown
from ledger.games.errors import HandError
from test_web_pages import Table, csrf_of, hand_form

ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0.0.0 Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.5 Mobile/15E148 Safari/604.1")
SAMSUNG = ("Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
           "SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36")
WINDOWS_EDGE = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                "Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0")
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:126.0) Gecko/126.0 Firefox/126.0"


@pytest.mark.parametrize(("agent", "name"), [
    (ANDROID, "Android · Chrome"), (IPHONE, "iPhone · Safari"), (SAMSUNG, "Android · Samsung Internet"),
    (WINDOWS_EDGE, "Windows · Edge"), (FIREFOX_ANDROID, "Android · Firefox"), ("", ""), ("no agent at all", ""),
])
def test_a_user_agent_is_told_as_system_and_browser(agent: str, name: str) -> None:
    assert describe(agent) == name
    assert shown(agent) == (name or agent)


def test_a_chosen_name_is_cleaned_like_a_players_and_limited() -> None:
    assert phone_name("  Bo’s   phone ", ANDROID) == "Bo’s phone"
    assert phone_name("Cafe\u0301", ANDROID) == "Café"  # normalised as names are
    assert phone_name("", ANDROID) == phone_name(None, ANDROID) == "Android · Chrome"
    assert phone_name(None, "Rosa's tablet") == "Rosa's tablet"  # an API client's X-Device, as it is
    assert phone_name(None, "") == "phone"
    assert phone_name("x" * MAX_PHONE_NAME, ANDROID) == "x" * MAX_PHONE_NAME
    for bad in ("x" * (MAX_PHONE_NAME + 1), "Bo\u0007", "Bo\u200b phone"):
        with pytest.raises(HandError) as refused:
            phone_name(bad, ANDROID)
        assert refused.value.code == "invalid_entry" and refused.value.field == "name"


def phone_page_names(page: str) -> list[str]:
    return [html.unescape(n) for n in re.findall(r'<span class="phone-name">([^<]*)</span>', page)]


def test_the_phones_page_names_each_phone_and_the_history_says_who(app: Any, client: Any,
                                                                   night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    host = app.test_client()
    host.environ_base["HTTP_USER_AGENT"] = IPHONE
    assert host.get(f"/join/{body['id']}/{body['token']}").status_code == 302
    # one phone opens the player link (no name: its system and browser)
    linked = app.test_client()
    linked.environ_base["HTTP_USER_AGENT"] = ANDROID
    assert linked.get(re.sub(r"^https?://[^/]+", "", body["links"]["player"])).status_code == 302
    # one types the code and names itself
    bo = app.test_client()
    bo.environ_base["HTTP_USER_AGENT"] = SAMSUNG
    form = bo.get("/join").get_data(as_text=True)
    assert "Name this phone" in form and 'placeholder="Bo’s phone"' in form
    joined = bo.post("/join", data={"csrf_token": csrf_of(form), "code": body["table_code"], "name": " Bo’s  phone "})
    assert joined.status_code == 302
    # and one types the code without a name
    plain = app.test_client()
    plain.environ_base["HTTP_USER_AGENT"] = WINDOWS_EDGE
    form = plain.get("/join").get_data(as_text=True)
    assert plain.post("/join", data={"csrf_token": csrf_of(form), "code": body["table_code"]}).status_code == 302

    page = host.get(f"/s/{body['id']}/phones").get_data(as_text=True)
    names = phone_page_names(page)
    assert names[1:] == ["Android · Chrome", "Bo’s phone", "Windows · Edge"]
    assert "Mozilla/" not in page
    listed = client.get(f"/api/v1/sessions/{body['id']}/phones", headers=bearer(body["token"])).get_json()
    assert [p["name"] for p in listed][1:] == names[1:]

    # what Bo's phone records is told as Bo's phone in the history, the host's as its browser
    Table(bo, body["id"]).save(hand_form(night_data["hands"][0], night_data["players"]))
    Table(host, body["id"]).save(hand_form(night_data["hands"][1], night_data["players"]))
    history = html.unescape(host.get(f"/s/{body['id']}/hands").get_data(as_text=True))
    first, second = history.split('id="hand-1"')[1], history.split('id="hand-2"')[1].split('id="hand-1"')[0]
    assert re.search(r"Recorded by .*player.*Bo’s phone", first, re.S)
    assert re.search(r"Recorded by .*host.*iPhone · Safari", second, re.S)
    assert "Mozilla/" not in history


def test_a_bad_phone_name_is_refused_beside_its_field(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    phone = app.test_client()
    for bad in ("B" * (MAX_PHONE_NAME + 1), "Bo\u0007"):
        form = phone.get("/join").get_data(as_text=True)
        refused = phone.post("/join", data={"csrf_token": csrf_of(form), "code": body["table_code"], "name": bad})
        assert refused.status_code == 422
        page = refused.get_data(as_text=True)
        error = re.search(r'<p class="error" id="err-name" role="alert">([^<]+)</p>', page)
        assert error, page
        assert 'aria-invalid="true"' in page.split('id="name"')[1].split(">")[0]
        assert 'id="err-code"' not in page
    listed = client.get(f"/api/v1/sessions/{body['id']}/phones", headers=bearer(body["token"])).get_json()
    assert len(listed) == 1  # only the host link: nobody joined


def test_the_api_join_takes_a_name_and_answers_the_phone(client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    named = client.post("/api/v1/join", json={"code": body["table_code"], "name": "Bo’s phone"},
                        headers={"User-Agent": ANDROID})
    assert named.status_code == 201
    answer = named.get_json()
    assert answer["role"] == "player" and answer["phone"]["name"] == "Bo’s phone"
    browser = client.post("/api/v1/join", json={"code": body["table_code"]}, headers={"User-Agent": ANDROID})
    assert browser.status_code == 201 and browser.get_json()["phone"]["name"] == "Android · Chrome"
    device = client.post("/api/v1/join", json={"code": body["table_code"], "name": None},
                         headers={"X-Device": "Rosa's tablet"})
    assert device.status_code == 201 and device.get_json()["phone"]["name"] == "Rosa's tablet"
    phones = client.get(f"/api/v1/sessions/{body['id']}/phones", headers=bearer(body["token"])).get_json()
    assert [(p["id"], p["name"]) for p in phones[1:]] == [
        (answer["phone"]["id"], "Bo’s phone"), (browser.get_json()["phone"]["id"], "Android · Chrome"),
        (device.get_json()["phone"]["id"], "Rosa's tablet")]
    for bad in ("B" * (MAX_PHONE_NAME + 1), "Bo\u0000", 42, ["Bo"]):
        refused = client.post("/api/v1/join", json={"code": body["table_code"], "name": bad})
        assert refused.status_code == 422, bad
        error = refused.get_json()
        assert error["error"] == "invalid_entry" and error["field"] == "name" and error["message"]
    too_long = client.post("/api/v1/join", json={"code": body["table_code"], "name": "B" * 41}).get_json()
    assert too_long["message"] == "A phone’s name can be at most 40 characters."
    assert len(client.get(f"/api/v1/sessions/{body['id']}/phones",
                          headers=bearer(body["token"])).get_json()) == 4


def test_a_club_device_names_itself_when_it_joins(app: Any, client: Any) -> None:
    club = make_club(client)
    joined = client.post("/api/v1/clubs/join", json={"code": club["table_code"], "name": "Bo’s phone"})
    assert joined.status_code == 201
    refused = client.post("/api/v1/clubs/join", json={"code": club["table_code"], "name": "B" * 41})
    assert refused.status_code == 422 and refused.get_json()["field"] == "name"
    phone = app.test_client()
    phone.environ_base["HTTP_USER_AGENT"] = IPHONE
    page = phone.get("/clubs/join").get_data(as_text=True)
    assert "Name this phone" in page
    token = csrf_of(page)
    bad = phone.post("/clubs/join", data={"csrf_token": token, "code": club["table_code"], "name": "Dee\u0007"})
    assert bad.status_code == 422 and 'id="err-name"' in bad.get_data(as_text=True)
    assert phone.post("/clubs/join", data={"csrf_token": token, "code": club["table_code"], "name": ""}).status_code == 302
    other = app.test_client()
    token = csrf_of(other.get("/clubs/join").get_data(as_text=True))
    assert other.post("/clubs/join", data={"csrf_token": token, "code": club["table_code"],
                                           "name": "Dee’s tablet"}).status_code == 302
    listed = client.get(f"/api/v1/clubs/{club['id']}/devices", headers=bearer(club["token"])).get_json()
    assert [d["name"] for d in listed][1:] == ["Bo’s phone", "iPhone · Safari", "Dee’s tablet"]
