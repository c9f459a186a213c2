"""Look-alike names (issue 20, item 7): a name whose UTS #39 confusable skeleton (ICU's spoof
checker) equals one already at the table (everyone who ever sat that night) or in the club is
refused with 422 naming the field and the name it looks like: at the start, sitting in,
renaming, club members (add, rename, a club's first members, a club night's seats) and the
import. A name holding an invisible (default-ignorable) character where no script or emoji
needs it is refused as not a name. Real distinct names in every script keep passing."""
from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from sqlmodel import select

from club_nights import bearer, make_club, three_nights, won_club_night
from ledger.storage.club_models import Club
from ledger import names
from ledger.names import normalise_name
from test_web_clubs import errors_of, owner_phone
from test_web_pages import csrf_of, flashes
from test_web_rules import ABC, start
from test_web_seats import alert, post, seats_page

CYRILLIC_DEE = "D\u0435\u0435"  # Cyrillic small ie twice
CYRILLIC_CAPITAL_DEE = "D\u0415\u0415"
FULLWIDTH_DEE = "\uff24\uff45\uff45"
LOOKS_LIKE = "{name} looks like {other}; give players names that are easy to tell apart."
LOOKS_LIKE_MEMBER = "{name} looks like {other}, a member of this club; give members names that are easy to tell apart."
NOT_A_NAME = "Names cannot hold control or invisible characters."

# real, distinct names: none is refused, no two look alike, any eight sit at one table
REAL_NAMES = [
    "Amélie", "Zoë", "Tomás", "Søren", "Łukasz", "Jürgen", "Ngọc Anh", "François", "Begoña",
    "Dee", "Dée", "Ann", "Ann 2", "Anna", "Jo", "Joe",  # an accent, a digit or a letter more is another name
    "Maria Clara dela Cruz", "Ma. Luisa", "Jun-Jun", "ᜊᜌᜈᜒ",  # Tagalog, in Latin and Baybayin
    "Tõnu", "Jüri", "Mari-Liis", "Õie", "Ülle",  # Estonian
    "ສົມສັກ", "ພອນສະຫວັນ", "ຄຳ", "ໜູແດງ",  # Lao
    "അനിൽ", "മോഹന\u0d4d\u200d", "ശ്രീക്കുട്ടൻ", "സ\u0d4d\u200cനേഹ",  # Malayalam: chillu, old chillu (ZWJ), ZWNJ
    "Işıl", "İlkay", "Çağrı", "Ömer", "Şükrü",  # Turkish
    "王小明", "李娜", "さくら", "佐藤", "김민준", "葛\U000e0100西",  # CJK, an ideographic variation sequence
    "محمد", "فاطمة", "علی\u200cرضا", "مهسا", "عائشہ",  # Arabic, Persian (ZWNJ), Urdu
    "דוד", "שָׂרָה",  # Hebrew
    "ශ\u0dca\u200dරී ලාල්", "র\u200d\u09cdযাচেল", "श्रेया", "கார்த்திக்",  # Sinhala, Bengali (ZWJ), Devanagari, Tamil
    "Σοφία", "Дмитрий", "ნინო", "Անի", "สมชาย", "አበበ",
    "👩\u200d💻 Dana", "🏳\ufe0f\u200d🌈 Sam", "❤\ufe0f\u200d🔥 Kim", "👨\u200d👩\u200d👧\u200d👦 Fam",  # emoji ZWJ sequences
    "🧑🏽\u200d🍳 Chef", "1\ufe0f\u20e3 Jo", "🇪🇪 Mari", "☺\ufe0e Ana", "Mañana 👍🏽",
]


def open_table(client: Any, players: list[str], **toggles: Any) -> Any:
    return client.post("/api/v1/sessions", json={
        "name": "Look-alikes", "currency": "USD", "stake": 25, "players": players,
        "ruleset": {"preset": "classic", "toggles": toggles}})


def refusal(response: Any) -> tuple[int, str, str | None, str]:
    body = response.get_json()
    return response.status_code, body["error"], body["field"], body["message"]


def test_real_names_in_every_script_are_names_and_none_looks_like_another() -> None:
    cleaned = [normalise_name(name) for name in REAL_NAMES]
    assert [name for name in cleaned if names.has_hidden_characters(name)] == []
    assert names.look_alike_pair(cleaned) is None


def test_real_names_in_every_script_sit_at_tables_of_eight(client: Any) -> None:
    for start_at in range(0, len(REAL_NAMES), 8):
        players = REAL_NAMES[start_at:start_at + 8]
        if len(players) < 2:
            players = [*players, "Ann"]
        opened = open_table(client, players, max_players=8)
        assert opened.status_code == 201, (players, opened.get_json())
        assert opened.get_json()["players"] == [normalise_name(p) for p in players]


@pytest.mark.parametrize(("seats", "code", "message"), [
    (["Rosa", "Ro\u200dsa"], "invalid_entry", NOT_A_NAME),  # a joiner inside a Latin word
    (["Dee", CYRILLIC_DEE], "duplicate_player", LOOKS_LIKE.format(name=CYRILLIC_DEE, other="Dee")),
    (["Dee", FULLWIDTH_DEE], "duplicate_player", LOOKS_LIKE.format(name=FULLWIDTH_DEE, other="Dee")),
    (["Dee", CYRILLIC_CAPITAL_DEE], "duplicate_player", LOOKS_LIKE.format(name=CYRILLIC_CAPITAL_DEE, other="Dee")),
    (["Ian", "lan"], "duplicate_player", LOOKS_LIKE.format(name="lan", other="Ian")),  # capital I and small L
    (["Ann 2", "Ann  2"], "duplicate_player", LOOKS_LIKE.format(name="Ann  2", other="Ann 2")),  # two spaces
    (["Ann", "Ann\ufe0f"], "invalid_entry", NOT_A_NAME),  # VS16 after a letter
    (["Ann", "Ann\u3164"], "invalid_entry", NOT_A_NAME),  # HANGUL FILLER
])
def test_a_look_alike_name_is_refused_at_the_start(client: Any, seats: list[str], code: str, message: str) -> None:
    assert refusal(open_table(client, ["Cy", *seats])) == (422, code, "players[2]", message)


@pytest.mark.parametrize("name", ["Ann\ufe0f", "Ann\u3164", "Ro\u200dsa", "Ro\u034fsa", "\u1160Ann", "Ann\u200d👍",
                                  "Dee\U000e0100", "Ann\ufe0e"])
def test_an_invisible_character_no_script_needs_is_not_a_name(client: Any, name: str) -> None:
    assert refusal(open_table(client, ["Cy", "Rosa", name])) == (422, "invalid_entry", "players[2]", NOT_A_NAME)


def test_a_look_alike_cannot_sit_in_beside_anyone_who_sat_that_night(client: Any) -> None:
    opened = open_table(client, ["Dee", "Rosa", "Cy"]).get_json()
    base, headers = f"/api/v1/sessions/{opened['id']}", bearer(opened["token"])
    sit = client.post(f"{base}/players", json={"name": CYRILLIC_DEE}, headers=headers)
    assert refusal(sit) == (422, "duplicate_player", "name", LOOKS_LIKE.format(name=CYRILLIC_DEE, other="Dee"))
    assert refusal(client.post(f"{base}/players", json={"name": "Ro\u200dsa"}, headers=headers)) == (
        422, "invalid_entry", "name", NOT_A_NAME)
    assert client.post(f"{base}/players/leave", json={"name": "Dee", "settle": "at_end"},
                       headers=headers).status_code == 200
    gone = client.post(f"{base}/players", json={"name": FULLWIDTH_DEE}, headers=headers)  # Dee left, but sat
    assert refusal(gone) == (422, "duplicate_player", "name", LOOKS_LIKE.format(name=FULLWIDTH_DEE, other="Dee"))
    back = client.post(f"{base}/players", json={"name": "Dee"}, headers=headers)  # Dee comes back as Dee
    assert back.status_code == 201 and "Dee" in back.get_json()["players"]
    assert client.post(f"{base}/players", json={"name": "Dee 2"}, headers=headers).status_code == 201


def test_a_rename_cannot_take_a_look_alike_of_someone_who_sat(client: Any) -> None:
    opened = open_table(client, ["Dee", "Rosa", "Cy"]).get_json()
    base, headers = f"/api/v1/sessions/{opened['id']}", bearer(opened["token"])
    renamed = client.post(f"{base}/players/rename", json={"from": "Cy", "to": CYRILLIC_DEE}, headers=headers)
    assert refusal(renamed) == (422, "duplicate_player", "to", LOOKS_LIKE.format(name=CYRILLIC_DEE, other="Dee"))
    hidden = client.post(f"{base}/players/rename", json={"from": "Cy", "to": "Cy\ufe0f"}, headers=headers)
    assert refusal(hidden) == (422, "invalid_entry", "to", NOT_A_NAME)
    ok = client.post(f"{base}/players/rename", json={"from": "Cy", "to": "Dée"}, headers=headers)  # an accent: a name
    assert ok.status_code == 200 and ok.get_json()["players"] == ["Dee", "Rosa", "Dée"]


def test_the_seats_page_refuses_a_look_alike_beside_the_field_keeping_what_was_typed(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    refused = post(client, session_id, "sit-in", name="\u0410", after="B")  # Cyrillic capital A beside A
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert alert(page) == LOOKS_LIKE.format(name="\u0410", other="A")
    assert 'value="\u0410"' in page
    assert post(client, session_id, "sit-in", name="Dee", after="B").status_code == 302
    assert flashes(seats_page(client, session_id)) == ["Dee sits in from hand 1."]


def test_a_club_refuses_a_member_that_looks_like_another(client: Any) -> None:
    refused = client.post("/api/v1/clubs", json={"name": "Look-alikes", "currency": "USD",
                                                 "members": ["Rosa", "Dee", FULLWIDTH_DEE]})
    assert refusal(refused) == (422, "duplicate_player", "members[2]",
                                LOOKS_LIKE_MEMBER.format(name=FULLWIDTH_DEE, other="Dee"))
    club = make_club(client, members=["Rosa", "Dee"])
    members = f"/api/v1/clubs/{club['id']}/members"
    added = client.post(members, json={"name": CYRILLIC_DEE}, headers=bearer(club["member_token"]))
    assert refusal(added) == (422, "duplicate_player", "name", LOOKS_LIKE_MEMBER.format(name=CYRILLIC_DEE, other="Dee"))
    hidden = client.post(members, json={"name": "Ro\u200dsa"}, headers=bearer(club["member_token"]))
    assert refusal(hidden) == (422, "invalid_entry", "name", NOT_A_NAME)
    ed = client.post(members, json={"name": "Ed"}, headers=bearer(club["member_token"]))
    assert ed.status_code == 201
    rename = f"{members}/{ed.get_json()['id']}/rename"
    renamed = client.post(rename, json={"name": CYRILLIC_CAPITAL_DEE}, headers=bearer(club["token"]))
    assert refusal(renamed) == (422, "duplicate_player", "name",
                                LOOKS_LIKE_MEMBER.format(name=CYRILLIC_CAPITAL_DEE, other="Dee"))
    assert client.post(rename, json={"name": "Dée"}, headers=bearer(club["token"])).status_code == 200
    roster = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    assert [m["name"] for m in roster] == ["Rosa", "Dee", "Dée"]


def test_the_club_page_refuses_a_look_alike_member_beside_the_field(app: Any, client: Any) -> None:
    club = make_club(client, members=["Rosa", "Dee"])
    phone = owner_phone(app, club)
    token = csrf_of(phone.get(f"/c/{club['id']}").get_data(as_text=True))
    refused = phone.post(f"/c/{club['id']}/members", data={"name": CYRILLIC_DEE, "csrf_token": token})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert errors_of(page) == {"new-member": LOOKS_LIKE_MEMBER.format(name=CYRILLIC_DEE, other="Dee")}
    assert re.search(f'id="new-member"[^>]*value="{CYRILLIC_DEE}"', page)


def test_a_club_night_refuses_a_new_name_that_looks_like_a_member(client: Any) -> None:
    club = make_club(client, members=["Rosa", "Dee", "Cy"])
    body = {"name": "Club night", "stake": 25, "ruleset": {"preset": "classic"}, "club": club["id"],
            "players": ["Rosa", "Ann", CYRILLIC_DEE]}
    started = client.post("/api/v1/sessions", json=body, headers=bearer(club["member_token"]))
    assert refusal(started) == (422, "duplicate_player", "players[2]",
                                LOOKS_LIKE_MEMBER.format(name=CYRILLIC_DEE, other="Dee"))
    night = won_club_night(client, club, ["Rosa", "Ann", "Cy"])  # Dee is not at the table
    base, headers = f"/api/v1/sessions/{night['id']}", bearer(night["token"])
    sit = client.post(f"{base}/players", json={"name": FULLWIDTH_DEE}, headers=headers)
    assert refusal(sit) == (422, "duplicate_player", "name", LOOKS_LIKE_MEMBER.format(name=FULLWIDTH_DEE, other="Dee"))
    renamed = client.post(f"{base}/players/rename", json={"from": "Ann", "to": CYRILLIC_DEE}, headers=headers)
    assert refusal(renamed) == (422, "duplicate_player", "to", LOOKS_LIKE_MEMBER.format(name=CYRILLIC_DEE, other="Dee"))
    assert client.post(f"{base}/players", json={"name": "Dee"}, headers=headers).status_code == 201  # Dee herself
    roster = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    assert sorted(m["name"] for m in roster) == ["Ann", "Cy", "Dee", "Rosa"]


def _clubs(client: Any) -> int:
    with client.application.app_context():
        from ledger.storage.db import get_session
        return len(list(get_session().exec(select(Club))))


def test_an_import_with_look_alike_names_is_refused_whole(client: Any) -> None:
    club = make_club(client)
    three_nights(client, club)
    document = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    members = [m["name"] for m in document["members"]]
    dee = members.index("Dee")
    before = _clubs(client)
    for field, change, message in [
        (f"members[{len(members)}].name", lambda doc: doc["members"].append(
            dict(doc["members"][dee], id=max(m["id"] for m in doc["members"]) + 1, name=CYRILLIC_DEE)),
         LOOKS_LIKE_MEMBER.format(name=CYRILLIC_DEE, other="Dee")),
        ("nights[0].session.roster[4]", lambda doc: doc["nights"][0]["session"]["roster"].append(FULLWIDTH_DEE),
         LOOKS_LIKE.format(name=FULLWIDTH_DEE, other="Dee")),
        ("members[0].name", lambda doc: doc["members"][0].update(name="Ro\u200dsa"), NOT_A_NAME),
    ]:
        broken = copy.deepcopy(document)
        change(broken)
        refused = client.post("/api/v1/clubs/import", json=broken)
        assert refusal(refused)[0] == 422 and refusal(refused)[2:] == (field, message), refused.get_json()
        assert _clubs(client) == before  # nothing kept
    assert client.post("/api/v1/clubs/import", json=document).status_code == 201
