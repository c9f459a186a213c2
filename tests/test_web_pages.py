"""The phone pages through Flask's test client, on a real database (SQLite, or PostgreSQL when
``LEDGER_TEST_DATABASE_URL`` is set): start a night, record hands step by step, errors kept
beside their field, access by table link only, void, settle, close, escaping, CSRF."""
from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote

import pytest

from ledger.money import format_minor
from ledger.games.tonk import Card

HOSTILE = "<img src=x onerror=alert(1)>"
AMPERSAND = 'A<B & "C"'


# -- helpers -------------------------------------------------------------------------------------
def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match, "the page has no CSRF token"
    return match.group(1)


def field_value(page: str, name: str) -> str:
    """The value of the (first) input called ``name``."""
    for tag in re.findall(r"<input\b[^>]*>", page):
        if f'name="{name}"' in tag:
            value = re.search(r'value="([^"]*)"', tag)
            return html.unescape(value.group(1)) if value else ""
    raise AssertionError(f"no field {name!r} in the page")


def errors_in(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'<p class="error" id="err-[^"]*" role="alert">([^<]*)</p>', page)]


def error_for(page: str, key: str) -> str:
    match = re.search(rf'<p class="error" id="err-{re.escape(key)}" role="alert">([^<]*)</p>', page)
    assert match, f"no error shown beside {key!r}; errors: {errors_in(page)}"
    return html.unescape(match.group(1))


def flashes(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r'<p class="flash[^"]*" role="status">([^<]*)</p>', page)]


def balances_shown(page: str) -> dict[str, str]:
    rows = re.findall(
        r'<span class="balance-name">\s*(.*?)\s*(?:<span class="tag[^"]*">[^<]*</span>)?\s*</span>\s*'
        r'<span class="balance-amount">([^<]*)</span>',
        page, flags=re.S,
    )
    return {html.unescape(name.strip()): html.unescape(amount) for name, amount in rows}


def plan_lines(page: str) -> list[str]:
    """The settle-up plan as "Marcus pays Dee $5.25" lines."""
    rows = re.findall(
        r'<div class="plan-line"><span><strong>(.*?)</strong> pays <strong>(.*?)</strong></span>\s*'
        r'<span class="plan-amount">([^<]*)</span>', page)
    return [html.unescape(f"{a} pays {b} {amount}") for a, b, amount in rows]


def start_form(night: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    players = list(night["players"])
    data = {
        "name": night["name"],
        "stake": "0.25",
        "currency": night["currency"],
        "preset": "classic",
        "first_dealer": str(players.index(night["first_dealer"])),
    }
    for i in range(4):
        data[f"player-{i}"] = players[i] if i < len(players) else ""
    data.update(overrides)
    return data


def start_night(client: Any, night: dict[str, Any], **overrides: Any) -> str:
    """Start a night through the home page form; returns its id (the cookie holds the token)."""
    token = csrf_of(client.get("/").get_data(as_text=True))
    response = client.post("/", data=start_form(night, csrf_token=token, **overrides))
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    match = re.match(r"/s/([^/?]+)\?share=1$", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def table_token(client: Any, session_id: str) -> str:
    page = client.get(f"/s/{session_id}").get_data(as_text=True)
    found = re.search(r'id="table-link"[^>]*value="([^"]+)"', page)
    assert found, "the table page shows no table link"
    link = html.unescape(found.group(1))
    match = re.search(rf"/join/{re.escape(session_id)}/([^/\"]+)$", link)
    assert match, link
    return match.group(1)


def api_session(client: Any, session_id: str) -> dict[str, Any]:
    token = table_token(client, session_id)
    response = client.get(f"/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    return response.get_json()


def seat(players: list[str], name: str) -> str:
    return str(players.index(name))


def hand_form(hand: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A night file's hand as the record form's fields (cards as tapped chips, totals typed)."""
    outcome = hand["outcome"]
    kind = outcome["kind"]
    data: dict[str, Any] = {"kind": kind, "dealer": seat(players, hand["dealer"])}
    if kind == "deal_tonk":
        data["claimant"] = [seat(players, c) for c in outcome["claimants"]]
        needed = outcome["claimants"]
    elif kind in ("tonk_out", "discard_out"):
        data["who"] = seat(players, outcome["winner"])
        needed = []
    elif kind == "knock":
        data["who"] = seat(players, outcome["knocker"])
        needed = players
    else:
        needed = players
    for name in needed:
        entry = hand["hands"][name]
        i = seat(players, name)
        if "cards" in entry:
            data[f"cards-{i}"] = [str(Card.parse(c)) for c in entry["cards"]]
        if "total" in entry:
            data[f"total-{i}"] = str(entry["total"])
    return data


class Table:
    """One phone at one table: walks the record flow like the pages do."""

    def __init__(self, client: Any, session_id: str) -> None:
        self.client = client
        self.id = session_id
        self.url = f"/s/{session_id}/record"

    def start(self) -> dict[str, str]:
        """Open the record page; returns its hidden fields (CSRF token, idempotency key,
        the pre-filled dealer), as a browser would send them back."""
        page = self.client.get(self.url).get_data(as_text=True)
        hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
        hidden.pop("step", None)
        assert hidden["csrf_token"] and hidden["key"]
        return {k: html.unescape(v) for k, v in hidden.items()}

    def post(self, data: dict[str, Any]) -> Any:
        return self.client.post(self.url, data=data)

    def save(self, fields: dict[str, Any]) -> Any:
        """Check payouts then save, as the preview page's "Save hand" does."""
        base = self.start()
        last_step = "who" if fields["kind"] in ("tonk_out", "discard_out") else "hands"
        preview = self.post(base | fields | {"step": last_step, "go": "next"})
        assert preview.status_code == 200, errors_in(preview.get_data(as_text=True))
        assert "Save hand" in preview.get_data(as_text=True)
        return self.post(base | fields | {"step": "preview", "go": "save"})


@pytest.fixture
def night_id(client: Any, night_data: dict[str, Any]) -> str:
    return start_night(client, night_data)


# -- start a night ---------------------------------------------------------------------------------
def test_home_page_offers_the_start_form(client: Any) -> None:
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert csrf_of(page)
    assert [f'name="player-{i}"' in page for i in range(4)] == [True] * 4
    assert 'name="player-4"' not in page
    for code in ("USD", "EUR", "GBP", "CAD", "AUD", "PHP", "TRY", "INR", "LAK", "JPY"):
        assert f'<option value="{code}"' in page
    assert '<option value="USD" selected>' in page
    assert 'name="preset" value="classic" checked' in page
    assert "caught knocker pays 2× to everyone at or below them" in page  # the preset's description
    assert "http://" not in page.replace("http://localhost", "")  # no external CDN


def test_start_night_opens_the_table_with_its_link(client: Any, night_data: dict[str, Any]) -> None:
    session_id = start_night(client, night_data)
    response = client.get(f"/s/{session_id}?share=1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Night started" in " ".join(flashes(page))
    assert balances_shown(page) == {p: "$0.00" for p in night_data["players"]}
    assert "Stake <strong>$0.25</strong>" in page and "Classic rules" in page
    assert re.search(r"Tomás\s*<span class=\"tag tag-dealer\">deals next</span>", page)
    token = table_token(client, session_id)
    body = api_session(client, session_id)
    assert body["stake"] == 25 and body["currency"] == "USD"
    assert body["players"] == night_data["players"] and body["first_dealer"] == "Tomás"
    assert body["ruleset"]["preset"] == "classic"

    other_phone = client.application.test_client()
    assert other_phone.get(f"/s/{session_id}").status_code == 403
    joined = other_phone.get(f"/join/{session_id}/{token}")
    assert joined.status_code == 302 and joined.headers["Location"] == f"/s/{session_id}"
    assert other_phone.get(f"/s/{session_id}").status_code == 200


def test_start_night_blank_seats_ignored_and_currency_digits_respected(client: Any) -> None:
    night = {"name": "Yen night", "players": ["Aki", "Ben"], "first_dealer": "Ben", "currency": "JPY"}
    session_id = start_night(client, night, stake="50", **{"player-2": "", "player-3": "  "})
    body = api_session(client, session_id)
    assert body["players"] == ["Aki", "Ben"]
    assert body["stake"] == 50 and body["currency"] == "JPY" and body["first_dealer"] == "Ben"
    assert "Stake <strong>¥50</strong>" in client.get(f"/s/{session_id}").get_data(as_text=True)


@pytest.mark.parametrize(
    ("overrides", "key", "message"),
    [
        ({"stake": "0.255"}, "stake", "'0.255' has more decimals than USD allows (2)."),
        ({"stake": "abc"}, "stake", "Not an amount: 'abc'"),
        ({"stake": ""}, "stake", "Type the stake, e.g. 0.25."),
        ({"stake": "0"}, "stake", "The stake must be more than zero and at most $10,000,000.00."),
        ({"stake": "99999999999999999999"}, "stake", "The stake must be more than zero and at most $10,000,000.00."),
        ({"player-2": "Dee"}, "player-2", "Dee is seated twice."),
        ({"player-1": "", "player-2": "", "player-3": "", "first_dealer": "0"}, "players",
         "Type at least two player names, in seat order."),
        ({"player-0": "", "player-1": "", "player-2": "", "player-3": ""}, "players",
         "Type at least two player names, in seat order."),
        ({"player-3": "", "first_dealer": "3"}, "first_dealer", "The first dealer must be one of the players"),
    ],
)
def test_start_night_refusals_keep_what_was_typed(
    client: Any, night_data: dict[str, Any], overrides: dict[str, str], key: str, message: str
) -> None:
    token = csrf_of(client.get("/").get_data(as_text=True))
    data = start_form(night_data, csrf_token=token, **overrides)
    response = client.post("/", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, key).startswith(message)
    for i in range(4):
        assert field_value(page, f"player-{i}") == data[f"player-{i}"]
    assert field_value(page, "stake") == data["stake"]
    assert f'name="first_dealer" value="{data["first_dealer"]}" checked' in page


# -- recording ---------------------------------------------------------------------------------------
def test_record_a_knock_step_by_step(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    """Night-01 hand 11 (Dee knocks, dealt by Marcus), one page at a time."""
    players = night_data["players"]
    hand = night_data["hands"][10]
    assert hand["outcome"] == {"kind": "knock", "knocker": "Dee"}
    table = Table(client, night_id)
    base = table.start()

    outcome = table.post(base | {"step": "outcome", "kind": "knock"})
    page = outcome.get_data(as_text=True)
    assert outcome.status_code == 200 and "Who knocked?" in page
    assert 'name="dealer"' in page and '<option value="3" selected>Tomás</option>' in page  # next dealer

    fields = hand_form(hand, players)
    who = table.post(base | {"step": "who", "kind": "knock", "who": fields["who"], "dealer": fields["dealer"]})
    page = who.get_data(as_text=True)
    assert who.status_code == 200
    assert 'name="cards-0" value="QD"' in page and 'name="total-3"' in page  # every player's grid
    assert field_value(page, "key") == base["key"]

    preview = table.post(base | fields | {"step": "hands", "go": "next"})
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200
    expected = hand["expected"]
    for t in expected["transfers"]:
        assert re.search(
            rf"<strong>{t['from']}</strong> pays <strong>{t['to']}</strong></span>\s*"
            rf"<span class=\"pay-amount\">{re.escape(format_minor(t['amount'], 'USD'))}</span>",
            page,
        )
    assert balances_shown(page) == {
        p: ("+" if v > 0 else "") + format_minor(v, "USD") for p, v in expected["net"].items()
    }
    assert api_session(client, night_id)["hand_count"] == 0  # nothing stored by the preview

    saved = table.post(base | fields | {"step": "preview", "go": "save"})
    assert saved.status_code == 302 and saved.headers["Location"] == f"/s/{night_id}"
    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    winner = max(expected["net"], key=lambda p: expected["net"][p])
    assert f"Hand 1 recorded: {winner} won {format_minor(expected['net'][winner], 'USD')}" in flashes(page)
    body = api_session(client, night_id)
    assert body["net"] == expected["net"]
    assert body["next_dealer"] == players[(players.index(hand["dealer"]) + 1) % 4]
    stored = client.get(f"/api/v1/sessions/{night_id}/hands/1",
                        headers={"Authorization": f"Bearer {table_token(client, night_id)}"}).get_json()
    assert stored["dealer"] == "Marcus" and stored["outcome"] == {"kind": "knock", "knocker": "Dee"}
    assert stored["transfers"] == expected["transfers"]


def test_record_a_tonk_out_needs_no_hands(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    """Night-01 hand 1: Tomás tonks out; the page goes from the winner straight to the payouts."""
    hand = night_data["hands"][0]
    table = Table(client, night_id)
    base = table.start()
    fields = hand_form(hand, night_data["players"])
    preview = table.post(base | fields | {"step": "who", "go": "next"})
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200
    assert "Tomás tonked out (2×)" in page and "cards-0" not in page
    assert balances_shown(page)["Tomás"] == "+$1.50"
    saved = table.post(base | fields | {"step": "preview", "go": "save"})
    assert saved.status_code == 302
    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert "Hand 1 recorded: Tomás won $1.50" in flashes(page)
    assert balances_shown(page) == {"Dee": "-$0.50", "Marcus": "-$0.50", "Rosa": "-$0.50", "Tomás": "+$1.50"}
    assert api_session(client, night_id)["net"] == hand["expected"]["net"]


def test_whole_night_01_through_the_form(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    """All 30 hands of night-01 entered as a phone would: the balances end where the file says."""
    players = night_data["players"]
    table = Table(client, night_id)
    running = {p: 0 for p in players}
    for number, hand in enumerate(night_data["hands"], start=1):
        response = table.save(hand_form(hand, players))
        assert response.status_code == 302, (number, errors_in(response.get_data(as_text=True)))
        for p, v in hand["expected"]["net"].items():
            running[p] += v
    body = api_session(client, night_id)
    assert running == night_data["expected"]["net"]
    assert body["net"] == night_data["expected"]["net"]
    assert body["hand_count"] == night_data["expected"]["hands_recorded"]
    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert balances_shown(page) == {"Dee": "+$5.25", "Marcus": "-$5.25", "Rosa": "-$4.00", "Tomás": "+$4.00"}
    settle = client.get(f"/s/{night_id}/settle").get_data(as_text=True)
    assert plan_lines(settle) == ["Marcus pays Dee $5.25", "Rosa pays Tomás $4.00"]
    assert re.search(r"2 transfers,\s*minimal", settle)


def test_double_tap_on_save_records_once(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    table = Table(client, night_id)
    base = table.start()
    fields = hand_form(night_data["hands"][0], night_data["players"]) | base | {"step": "preview", "go": "save"}
    assert table.post(fields).status_code == 302
    assert table.post(fields).status_code == 302
    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert "Hand 1 was already recorded (saved once, not twice)." in flashes(page)
    assert api_session(client, night_id)["hand_count"] == 1


def test_edit_from_the_preview_keeps_every_value(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    fields = hand_form(night_data["hands"][1], night_data["players"])  # dry stock, Tomás by total
    table = Table(client, night_id)
    base = table.start()
    edit = table.post(base | fields | {"step": "preview", "go": "edit"})
    page = edit.get_data(as_text=True)
    assert edit.status_code == 200 and "Dry stock: the hands" in page
    assert field_value(page, "total-3") == "4"
    for i in range(3):
        for card in fields[f"cards-{i}"]:
            assert re.search(rf'name="cards-{i}" value="{card}"[^>]*checked', page, flags=re.S), card
    assert '<option value="0" selected>Dee</option>' in page  # the dealer, on this step for a dry stock
    assert field_value(page, "key") == base["key"]


def test_deal_tonk_by_two_claimants_is_a_redeal(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    base = table.start()
    fields = {
        "kind": "deal_tonk", "dealer": "3", "claimant": ["0", "2"],
        "cards-0": ["10S", "JS", "QS", "KS", "10H"], "cards-2": ["JH", "QH", "KH", "10D", "JD"],
    }
    page = table.post(base | fields | {"step": "hands", "go": "next"}).get_data(as_text=True)
    assert "Nobody pays: the hand is redealt." in page
    assert "Deal tonks by Dee and Rosa: redeal, nobody pays" in page
    table.post(base | fields | {"step": "preview", "go": "save"})
    body = api_session(client, night_id)
    assert body["net"] == {"Dee": 0, "Marcus": 0, "Rosa": 0, "Tomás": 0}
    assert body["hand_count"] == 1 and body["next_dealer"] == "Dee"


# -- refusals beside the field ----------------------------------------------------------------------
KNOCK = {"kind": "knock", "who": "0", "dealer": "3", "step": "hands", "go": "next",
         "cards-0": ["AS", "2D"], "cards-1": ["KH", "QH"], "total-2": "12", "cards-3": ["9C", "7S"]}


def test_invalid_typed_card_is_refused_beside_it(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    response = table.post(table.start() | KNOCK | {"typed-1": "1H"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, "typed-1") == "Marcus's hand lists '1H', which is not a card (write it like 10H, QD, A♠)."
    assert field_value(page, "typed-1") == "1H"
    assert field_value(page, "total-2") == "12"
    assert re.search(r'name="cards-1" value="KH"[^>]*checked', page, flags=re.S)
    assert api_session(client, night_id)["hand_count"] == 0


def test_duplicate_card_is_refused_and_the_taps_are_kept(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    response = table.post(table.start() | KNOCK | {"cards-3": ["9C", "KH"]})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, "cards-3") == "The K♥ appears in Marcus's hand and in Tomás's hand; a deck has only one."
    assert re.search(r'name="cards-3" value="KH"[^>]*checked', page, flags=re.S)
    assert re.search(r'name="cards-1" value="KH"[^>]*checked', page, flags=re.S)
    assert re.search(r'for="c-3-KH" class="chip red bad taken"', page)  # the offending chip is marked


def test_missing_knocker_is_refused_on_the_who_step(client: Any, night_id: str) -> None:
    table = Table(client, night_id)  # a knock asks who knocked on its hands page
    response = table.post(table.start() | {"kind": "knock", "dealer": "1", "step": "hands", "go": "next"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, "who") == "Say who knocked."
    assert "Who knocked?" in page and '<option value="1" selected>Marcus</option>' in page


def test_total_that_does_not_match_the_cards(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    response = table.post(table.start() | KNOCK | {"total-0": "5"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, "total-0") == "Dee's cards (A♠ 2♦) count 3, not 5."
    assert field_value(page, "total-0") == "5"


def test_a_total_that_is_not_a_number(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    response = table.post(table.start() | KNOCK | {"total-2": "twelve"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "is not a whole number" in error_for(page, "total-2")
    assert field_value(page, "total-2") == "twelve"


def test_missing_hand_for_a_knock(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    fields = dict(KNOCK)
    del fields["total-2"]
    page = table.post(table.start() | fields).get_data(as_text=True)
    assert error_for(page, "hand-2") == "A knock is paid on every count: enter Rosa's cards or total."


def test_no_outcome_chosen(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    response = table.post(table.start() | {"step": "outcome"})
    assert response.status_code == 422
    assert error_for(response.get_data(as_text=True), "kind") == "Choose how the hand ended."


# -- access -----------------------------------------------------------------------------------------
def test_pages_need_the_table_link(client: Any, night_id: str) -> None:
    stranger = client.application.test_client()
    for path in ("", "/record", "/hands", "/settle", "/summary.pdf"):
        response = stranger.get(f"/s/{night_id}{path}")
        assert response.status_code == 403, path
    page = stranger.get(f"/s/{night_id}").get_data(as_text=True)
    assert "Open the table link" in page and "table link" in page
    token = csrf_of(stranger.get("/").get_data(as_text=True))
    assert stranger.post(f"/s/{night_id}/hands/1/void", data={"csrf_token": token}).status_code == 403
    assert stranger.post(f"/s/{night_id}/close", data={"csrf_token": token, "confirmed": "yes"}).status_code == 403
    assert stranger.get(f"/join/{night_id}/not-the-token").status_code == 403
    assert stranger.get(f"/s/{night_id}").status_code == 403  # a wrong link is not remembered


def test_unknown_table_is_404(client: Any) -> None:
    for path in ("/s/nope", "/s/nope/record", "/s/nope/hands", "/join/nope/token"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "Not found" in response.get_data(as_text=True)


def test_api_errors_stay_json(client: Any) -> None:
    response = client.get("/api/v1/sessions/nope", headers={"Authorization": "Bearer x"})
    assert response.status_code == 404 and response.get_json()["error"] == "session_not_found"


def test_posts_without_csrf_token_are_refused(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    assert client.post("/", data=start_form(night_data)).status_code == 400
    fields = hand_form(night_data["hands"][0], night_data["players"]) | {"step": "preview", "go": "save"}
    response = client.post(f"/s/{night_id}/record", data=fields)
    assert response.status_code == 400 and "Form expired" in response.get_data(as_text=True)
    assert client.post(f"/s/{night_id}/close", data={"confirmed": "yes"}).status_code == 400
    assert client.post(f"/s/{night_id}/hands/1/void", data={"confirmed": "yes"}).status_code == 400
    body = api_session(client, night_id)
    assert body["hand_count"] == 0 and body["status"] == "open"


# -- history, void, settle, close, PDF ----------------------------------------------------------------
def test_void_through_the_history(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    table = Table(client, night_id)
    for hand in night_data["hands"][:2]:
        table.save(hand_form(hand, night_data["players"]))
    history = client.get(f"/s/{night_id}/hands").get_data(as_text=True)
    token = csrf_of(history)
    assert history.count('class="void-form"') == 2

    confirm = client.post(f"/s/{night_id}/hands/1/void", data={"csrf_token": token})
    assert confirm.status_code == 200 and "Void hand 1?" in confirm.get_data(as_text=True)
    assert api_session(client, night_id)["hand_count"] == 2  # nothing changed yet

    done = client.post(f"/s/{night_id}/hands/1/void", data={"csrf_token": token, "confirmed": "yes"})
    assert done.status_code == 302
    history = client.get(f"/s/{night_id}/hands").get_data(as_text=True)
    assert "Hand 1 voided; it no longer counts." in flashes(history)
    assert re.search(r'<li class="hand is-void" id="hand-1">.*?<span class="badge badge-void">void</span>', history, re.S)
    assert history.count('class="void-form"') == 1
    assert api_session(client, night_id)["net"] == night_data["hands"][1]["expected"]["net"]
    assert client.post(f"/s/{night_id}/hands/9/void", data={"csrf_token": token}).status_code == 404
    assert client.post(f"/s/{night_id}/hands/{2**70}/void", data={"csrf_token": token}).status_code == 404


def test_settle_and_close(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    table = Table(client, night_id)
    table.save(hand_form(night_data["hands"][0], night_data["players"]))
    settle = client.get(f"/s/{night_id}/settle").get_data(as_text=True)
    token = csrf_of(settle)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Marcus pays Tomás $0.50", "Rosa pays Tomás $0.50"]
    assert re.search(r"3 transfers,\s*minimal", settle)
    confirm = client.post(f"/s/{night_id}/close", data={"csrf_token": token})
    assert confirm.status_code == 200 and "Close the night?" in confirm.get_data(as_text=True)
    assert client.post(f"/s/{night_id}/close", data={"csrf_token": token, "confirmed": "yes"}).status_code == 302

    page = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert 'badge-closed">closed' in page and 'id="record-hand"' not in page
    assert api_session(client, night_id)["status"] == "closed"
    record = client.get(f"/s/{night_id}/record")
    assert record.status_code == 302
    assert "This night is closed" in " ".join(flashes(client.get(f"/s/{night_id}").get_data(as_text=True)))
    assert "Void hand" not in client.get(f"/s/{night_id}/hands").get_data(as_text=True)
    assert "Close the night" not in client.get(f"/s/{night_id}/settle").get_data(as_text=True)


def test_pdf_summary_download(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    Table(client, night_id).save(hand_form(night_data["hands"][0], night_data["players"]))
    response = client.get(f"/s/{night_id}/summary.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    # <night name>-<date>.pdf, RFC 6266 filename* with an ASCII fallback
    disposition = response.headers["Content-Disposition"]
    name = quote(night_data["name"], safe="")
    assert re.search(rf"filename\*=UTF-8''{re.escape(name)}-\d{{4}}-\d{{2}}-\d{{2}}\.pdf$", disposition), disposition
    # the pack is named apart, so that a phone keeps both files
    pack = client.get(f"/s/{night_id}/statements.pdf").headers["Content-Disposition"]
    assert pack == disposition.replace(".pdf", "-pack.pdf"), pack


# -- escaping ------------------------------------------------------------------------------------------
def test_hostile_names_are_escaped_everywhere(client: Any) -> None:
    night = {"name": f"Night {HOSTILE}", "players": [HOSTILE, AMPERSAND, "Cleo"], "first_dealer": HOSTILE,
             "currency": "USD"}
    session_id = start_night(client, night)
    table = Table(client, session_id)
    base = table.start()
    pages = [client.get(f"/s/{session_id}").get_data(as_text=True)]
    pages.append(table.post(base | {"step": "outcome", "kind": "knock"}).get_data(as_text=True))
    knock = {"kind": "knock", "who": "0", "dealer": "0", "cards-0": ["AS"], "total-1": "9", "total-2": "20"}
    pages.append(table.post(base | knock | {"step": "who"}).get_data(as_text=True))
    pages.append(table.post(base | knock | {"step": "hands", "typed-0": "AS"}).get_data(as_text=True))  # error
    pages.append(table.post(base | knock | {"step": "hands"}).get_data(as_text=True))  # preview
    assert table.post(base | knock | {"step": "preview", "go": "save"}).status_code == 302
    for path in ("", "/hands", "/settle"):
        pages.append(client.get(f"/s/{session_id}{path}").get_data(as_text=True))
    pages.append(client.post(f"/s/{session_id}/hands/1/void", data={"csrf_token": base["csrf_token"]}).get_data(as_text=True))
    pages.append(client.get("/").get_data(as_text=True))
    for page in pages:
        assert HOSTILE not in page and AMPERSAND not in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert any("A&lt;B &amp; &#34;C&#34;" in page for page in pages)
    assert "&lt;img src=x onerror=alert(1)&gt; won $0.50" in pages[5]  # the flash after saving
    assert "lists the A♠ twice" in pages[3]
    assert client.get(f"/s/{session_id}/summary.pdf").status_code == 200
    body = api_session(client, session_id)
    assert body["players"] == [HOSTILE, AMPERSAND, "Cleo"]
    assert body["net"] == {HOSTILE: 50, AMPERSAND: -25, "Cleo": -25}


def test_rules_page_prices_examples_with_the_engine(client: Any, night_data: dict[str, Any]) -> None:
    import re

    body = client.post("/api/v1/sessions", json={k: night_data[k] for k in (
        "name", "currency", "stake", "players", "first_dealer")} | {"ruleset": {"preset": "texas"}}).get_json()
    client.get(f"/join/{body['id']}/{body['token']}")
    page = client.get(f"/s/{body['id']}/rules").get_data(as_text=True)
    assert "Texas Tonk preset" in page
    assert "A caught knocker pays 2× to the lowest player only; nobody else pays." in page
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    # Texas, stake $0.25: Dee knocks with 17 and Marcus holds 5, so only Dee pays, 2 × $0.25
    caught = text[text.index("Knock, caught"):text.index("Catch tie")]
    assert "Dee pays Marcus $0.50" in caught and "Rosa pays" not in caught


def test_a_saved_form_changed_after_back_becomes_a_new_hand(client: Any, night_id: str, night_data: dict[str, Any]) -> None:
    """Back after saving brings the old form (and its key); changing and saving it again must
    neither drop the change nor record it silently: the phone is asked to confirm a new hand."""
    table = Table(client, night_id)
    base = table.start()
    first = hand_form(night_data["hands"][0], night_data["players"]) | base | {"step": "preview", "go": "save"}
    assert table.post(first).status_code == 302
    changed = hand_form(night_data["hands"][4], night_data["players"]) | base | {"step": "preview", "go": "save"}
    again = table.post(changed)
    page = again.get_data(as_text=True)
    assert again.status_code == 409
    assert "this one is different, so it will be a new hand 2" in page
    new_key = field_value(page, "key")
    assert new_key and new_key != base["key"]
    assert api_session(client, night_id)["hand_count"] == 1
    assert table.post(changed | {"key": new_key, "number": "2"}).status_code == 302
    state = api_session(client, night_id)
    assert state["hand_count"] == 2
    expected = {p: night_data["hands"][0]["expected"]["net"][p] + night_data["hands"][4]["expected"]["net"][p]
                for p in night_data["players"]}
    assert state["net"] == expected
