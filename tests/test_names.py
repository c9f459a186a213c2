"""Names (issue 7, finding 7): every name is cleaned the same way wherever it is given (NFC, so
an accent typed two ways is one name); legitimate names with joiners inside grapheme clusters
are accepted; controls, bidi overrides and invisible-only names stay refused."""
from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from club_nights import make_club
from conftest import session_body

SEATS = ["Amélie", "Zoë", "Tomás"]  # NFC, as typed on most phones
DECOMPOSED = {name: unicodedata.normalize("NFD", name) for name in SEATS}
A, Z, T = (DECOMPOSED[name] for name in SEATS)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def open_table(client: Any, night_data: dict[str, Any], players: list[str], **change: Any) -> dict[str, Any]:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {
        "players": players, "first_dealer": None} | change)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return {"id": body["id"], "headers": bearer(body["token"]), "body": body}


def call(client: Any, table: dict[str, Any], path: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/sessions/{table['id']}{path}", json=body, headers=table["headers"])


def test_finding_7_a_name_written_in_decomposed_form_is_the_seated_player_everywhere(
    client: Any, night_data: dict[str, Any]
) -> None:
    assert all(DECOMPOSED[n] != n for n in SEATS)
    table = open_table(client, night_data, SEATS, first_dealer=T,
                       ruleset={"preset": "classic", "toggles": {"spade_side_pot": True}})
    assert table["body"]["players"] == SEATS and table["body"]["first_dealer"] == "Tomás"

    knock = {"outcome": {"kind": "knock", "knocker": A},
             "hands": {A: {"total": 17}, Z: {"total": 5}, T: {"total": 15}}, "dealer": Z,
             "side_bets": {"spade": {"side_stake": 25, "highest_spade": {A: "QS", Z: "2S", T: None}}}}
    preview = call(client, table, "/preview", knock)
    assert preview.status_code == 200, preview.get_json()
    recorded = call(client, table, "/hands", knock)
    assert recorded.status_code == 201, recorded.get_json()
    hand = recorded.get_json()
    assert hand["dealer"] == "Zoë" and hand["outcome"]["knocker"] == "Amélie"
    assert sorted(hand["hands"]) == sorted(SEATS)
    assert sorted(hand["side_bets"]["spade"]["highest_spade"]) == sorted(SEATS)

    won = call(client, table, "/hands", {"outcome": {"kind": "discard_out", "winner": Z}})
    assert won.status_code == 201, won.get_json()
    assert won.get_json()["winners"] == ["Zoë"]
    amended = call(client, table, "/hands/2/amend", {"version": 1, "outcome": {"kind": "tonk_out", "winner": T},
                                                    "dealer": A})
    assert amended.status_code == 201, amended.get_json()
    assert (amended.get_json()["winners"], amended.get_json()["dealer"]) == (["Tomás"], "Amélie")

    session = client.get(f"/api/v1/sessions/{table['id']}", headers=table["headers"]).get_json()
    assert sorted(session["net"]) == sorted(SEATS)
    debtor = min(session["outstanding"], key=lambda p: session["outstanding"][p])
    creditor = max(session["outstanding"], key=lambda p: session["outstanding"][p])
    paid = call(client, table, "/payments", {"from": DECOMPOSED[debtor], "to": DECOMPOSED[creditor], "amount": 1})
    assert paid.status_code == 201, paid.get_json()
    assert (paid.get_json()["from"], paid.get_json()["to"]) == (debtor, creditor)
    assert sorted(paid.get_json()["outstanding"]) == sorted(SEATS)


@pytest.mark.parametrize("players", [
    ["علی‌رضا", "👩‍💻 Dana", "🏳️‍🌈 Sam"],
    ["മോഹന\u0d4d\u200d", "Mañana 👍🏽", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Iain"],
])
def test_finding_7_names_with_joiners_inside_grapheme_clusters_are_accepted(
    client: Any, night_data: dict[str, Any], players: list[str]
) -> None:
    table = open_table(client, night_data, players)
    assert table["body"]["players"] == players
    won = call(client, table, "/hands", {"outcome": {"kind": "discard_out", "winner": players[1]}})
    assert won.status_code == 201 and won.get_json()["winners"] == [players[1]]


@pytest.mark.parametrize("bad", [
    "\u202eevil",  # right-to-left override
    "Dana\u2066x\u2069",  # isolates
    "Sam\u200b",  # zero-width space
    "\u200dDana",  # a joiner with nothing before it
    "Ann\u200d",  # a joiner after a letter that joins nothing (issue 20 item 7)
    "\u200c\u200d",  # only invisible characters
    "\ufe0f",  # a variation selector alone
    "\u0301",  # a lone combining mark
    "A\u0000B",
    "Bo\ufeffb",
    "Ann\U000e0041",  # a tag character outside a flag
])
def test_finding_7_controls_bidi_overrides_and_invisible_only_names_stay_refused(
    client: Any, night_data: dict[str, Any], bad: str
) -> None:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {
        "players": ["Rosa", bad, "Dee"], "first_dealer": None})
    assert response.status_code == 422, bad
    assert (response.get_json()["error"], response.get_json()["field"]) == ("invalid_entry", "players[1]")


@pytest.mark.parametrize(("seats", "reason"), [
    (["Ali", "ALİ"], "differ only in capitals"),     # Turkish capitals: İ is the capital of i
    (["Alı", "ALI"], "differ only in capitals"),     # and I of ı
    (["Ali", "ALI"], "differ only in capitals"),     # English capitals
    (["Ali", "Alı"], "differ only in a dotted or dotless i"),
])
def test_names_differing_in_a_dotted_or_dotless_i_are_one_name(
    client: Any, night_data: dict[str, Any], seats: list[str], reason: str
) -> None:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {
        "players": ["Dee", *seats], "first_dealer": None})
    body = response.get_json()
    assert (response.status_code, body["error"], body["field"]) == (422, "duplicate_player", "players[2]")
    assert body["message"] == f"{seats[1]} and {seats[0]} {reason}; give players names that are easy to tell apart."


def test_a_late_arrival_spelt_with_a_dotless_i_is_refused_beside_the_seated_player(
    client: Any, night_data: dict[str, Any]
) -> None:
    table = open_table(client, night_data, ["Dee", "Işıl", "Rosa"])
    answer = call(client, table, "/players", {"name": "IŞIL"})
    assert (answer.status_code, answer.get_json()["error"]) == (422, "duplicate_player")
    assert call(client, table, "/players", {"name": "Isis"}).status_code == 201


def test_a_club_knows_a_member_however_a_phone_writes_the_i(client: Any, night_data: dict[str, Any]) -> None:
    club = make_club(client, members=["Ali", "Rosa"])
    same = client.post(f"/api/v1/clubs/{club['id']}/members", headers=bearer(club["member_token"]),
                       json={"name": "ALİ"})
    assert same.status_code == 200 and same.get_json()["name"] == "Ali"
    body = session_body(night_data) | {"club": club["id"], "players": ["ALI", "Rosa", "Dee"], "first_dealer": None}
    body.pop("currency")
    night = client.post("/api/v1/sessions", headers=bearer(club["member_token"]), json=body)
    assert night.status_code == 201, night.get_json()
    assert night.get_json()["players"] == ["Ali", "Rosa", "Dee"]
