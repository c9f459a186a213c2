"""The web layer's own sentences go through the catalogues, and a phone's language is chosen
as the issue says.

In the pseudo language (``en-XA``: every catalogue sentence in accented look-alike letters,
allowed by ``I18N_PSEUDO``) the flash after recording a hand, a form error beside its field, the
live news line another phone gets, the House rules labels, hints and choices, the log's event
descriptions and the seating changes' descriptions hold no plain English word
(:func:`i18n_text.english_left`); in English the same outputs read exactly as before. Players
and the night have Greek, Lao and Cyrillic names, so names never count as English.

Only what the web layer writes is checked here: the words of the templates and the engine's
own sentences (a hand's description, a refusal) are other parts' tests. The pseudo catalogue is
built from ``ledger/translations/messages.pot``, which holds these sentences once the
catalogues are extracted (``make translations``).
"""
from __future__ import annotations

import html
import re
from typing import Any

import pytest

from i18n_text import english_left
from ledger.money import format_minor
from test_web_pages import csrf_of, error_for, flashes, table_token
from test_web_rules import Phone

PLAYERS = ["Ζωή", "ສົມ", "Дея"]
NIGHT = "Νύχτα"
LATE = "Ἀθηνᾶ"
BAD_TOTAL = "ΔΔ"  # not a whole number, and not English either
STAKE = 25
NEW_STAKE = "0.50"


@pytest.fixture
def app(pseudo_app: Any) -> Any:
    return pseudo_app


def usd(amount_minor: int) -> str:
    return format_minor(amount_minor, "USD")


def phone_in(app: Any, lang: str) -> Any:
    """A new phone (its own cookies) switched to ``lang`` with the language switch."""
    phone = app.test_client()
    switched = phone.get(f"/language/{lang}?next=/")
    assert switched.status_code == 303 and switched.headers["Location"] == "/"
    return phone


def texts(page: str, pattern: str) -> list[str]:
    return [html.unescape(m).strip() for m in re.findall(pattern, page, flags=re.S)]


def pseudo_only(found: list[str]) -> list[str]:
    """The pieces of ``found`` still holding English words (none, in the pseudo language)."""
    return [text for text in found if english_left(html.escape(text))]


def night_scenario(app: Any, lang: str) -> dict[str, Any]:
    """A night played from phones set to ``lang``: the host records a caught knock (after a
    refused total), raises the stake and seats a late player; another phone follows. Returns
    what the web layer wrote along the way."""
    host = phone_in(app, lang)
    created = host.post("/api/v1/sessions", json={
        "name": NIGHT, "currency": "USD", "stake": STAKE, "ruleset": {"preset": "classic", "toggles": {}},
        "players": PLAYERS, "first_dealer": PLAYERS[2],
    })
    assert created.status_code == 201, created.get_json()
    sid, token = created.get_json()["id"], created.get_json()["token"]
    assert host.get(f"/join/{sid}/{token}").status_code == 302

    watcher = phone_in(app, lang)
    assert watcher.get(f"/join/{sid}/{table_token(host, sid)}").status_code == 302
    since = watcher.get(f"/s/{sid}/state?view=table").get_json()["version"]

    # RULES.md §10 example 2 under classic, S = 25: Ζωή knocks with 17 and is caught;
    # ສົມ (5) +75, Дея (15) +25. First with a total that is not a number.
    phone = Phone(host, sid).open().outcome("knock").next(who="0")
    phone.next(**{"cards-0": ["9S", "8H"], "cards-1": ["2C", "3H"], "total-2": BAD_TOTAL})
    assert phone.status == 422
    form_error = error_for(phone.page, "total-2")
    phone.next(**{"total-2": "15"})
    phone.press(("go", "save"))
    assert phone.status == 302, phone.page
    recorded = flashes(host.get(f"/s/{sid}").get_data(as_text=True))

    seats = host.get(f"/s/{sid}/seats").get_data(as_text=True)
    raised = host.post(f"/s/{sid}/seats/stake", data={"csrf_token": csrf_of(seats), "stake": NEW_STAKE})
    assert raised.status_code == 302
    seats = host.get(f"/s/{sid}/seats").get_data(as_text=True)
    seat_flashes = flashes(seats)
    sat = host.post(f"/s/{sid}/seats/sit-in", data={"csrf_token": csrf_of(seats), "name": LATE, "after": ""})
    assert sat.status_code == 302
    seat_flashes += flashes(host.get(f"/s/{sid}/seats").get_data(as_text=True))

    state = watcher.get(f"/s/{sid}/state?view=table&since={since}")
    assert state.status_code == 200
    log = watcher.get(f"/s/{sid}/log").get_data(as_text=True)
    return {
        "flash": recorded,
        "form_error": form_error,
        "news": state.get_json()["news"],
        "seat_flashes": seat_flashes,
        "log_titles": texts(log, r'<strong class="event-title">(.*?)</strong>'),
        "log_labels": texts(log, r'<span class="change-label">(.*?):?</span>'),
    }


def house_rules(app: Any, lang: str) -> dict[str, Any]:
    """The start page's House rules section and the live summary's answer, on a phone in ``lang``."""
    phone = phone_in(app, lang)
    page = phone.get("/").get_data(as_text=True)
    section = re.search(r'<details class="house-rules".*?</details>', page, flags=re.S)
    assert section
    block = section.group(0)
    summary = phone.get("/rules/summary", query_string={
        "preset": "classic", "rule-jokers": "2", "rule-spade_side_pot": "true", "rule-min_players": BAD_TOTAL,
    })
    assert summary.status_code == 422
    changed = phone.get("/rules/summary", query_string={"preset": "classic", "rule-jokers": "2",
                                                        "rule-spade_side_pot": "true"}).get_json()
    return {
        "groups": texts(block, r"<legend>([^<]*)</legend>"),
        "labels": texts(block, r'class="hr-label"[^>]*>([^<]*)<'),
        "hints": texts(block, r"<small[^>]*>([^<]*)</small>"),
        "choices": texts(block, r'<label class="(?:segment|radio-row)">.*?<span>([^<]*)</span>'),
        "changes": [(c["label"], c["value"]) for c in changed["changes"]],
        "error": summary.get_json()["errors"]["rule-min_players"],
    }


def test_the_web_layers_sentences_are_all_in_the_pseudo_language(app: Any) -> None:
    night = night_scenario(app, "en-XA")
    assert len(night["flash"]) == 1 and not pseudo_only(night["flash"]), night["flash"]
    assert night["form_error"].startswith("⟦") and not pseudo_only([night["form_error"]]), night["form_error"]
    assert len(night["seat_flashes"]) == 2 and not pseudo_only(night["seat_flashes"]), night["seat_flashes"]
    # the news: what the host did, newest last; a recorded hand's own description is the engine's
    hand_line, *seat_lines = night["news"]
    assert len(seat_lines) == 2 and not pseudo_only(seat_lines), night["news"]
    event_words = hand_line.split(": ", 1)[0]  # "Hand 1 recorded", then the engine's description
    assert event_words.startswith("⟦") and not pseudo_only([event_words]), hand_line
    # the log: every event's title (seat events included) and every change's label
    assert len(night["log_titles"]) == 4 and not pseudo_only(night["log_titles"]), night["log_titles"]
    assert night["log_labels"] and not pseudo_only(night["log_labels"]), night["log_labels"]

    rules = house_rules(app, "en-XA")
    for part in ("groups", "labels", "hints", "choices"):
        assert len(rules[part]) > 5 and not pseudo_only(rules[part]), (part, pseudo_only(rules[part]))
    assert len(rules["changes"]) == 2
    assert not pseudo_only([words for change in rules["changes"] for words in change]), rules["changes"]
    assert not pseudo_only([rules["error"]]), rules["error"]


def test_the_same_outputs_read_as_before_in_english(app: Any) -> None:
    night = night_scenario(app, "en")
    assert night["flash"] == [f"Hand 1 recorded: {PLAYERS[1]} won {usd(75)}"]  # the winner: the lowest count
    assert night["form_error"] == f"“{BAD_TOTAL}” is not a whole number; type digits only, like 12."
    assert night["seat_flashes"] == [f"The stake is {usd(50)} from hand 2.", f"{LATE} sits in from hand 2."]
    assert night["news"][0].startswith(f"Hand 1 recorded: {PLAYERS[0]} knocked with 17 and was caught")
    assert night["news"][1:] == [f"Stake {usd(50)} from hand 2 (was {usd(25)})", f"{LATE} sat in from hand 2"]
    assert night["log_titles"] == [f"{LATE} sat in from hand 2", f"Stake {usd(50)} from hand 2 (was {usd(25)})",
                                   "Hand 1 recorded", "Night started"]
    assert set(night["log_labels"]) >= {"Seats", "Dealer", "Players", "Stake", "Rules"}

    rules = house_rules(app, "en")
    assert "Knock (drop)" in rules["groups"] and "Spade side pot" in rules["groups"]
    assert "Fewest players" in rules["labels"] and "A caught knocker pays" in rules["labels"]
    assert "A night needs at least this many seats." in rules["hints"]
    assert "Pagat: 2× to all at or below, others pay the low" in rules["choices"]
    assert rules["changes"] == [("Spade side pot", "on"), ("Jokers in the deck", "Two wild jokers")]
    assert rules["error"] == f"“{BAD_TOTAL}” is not a whole number; type digits only."


# -- choosing the language ----------------------------------------------------------------------------
def page_lang(response: Any) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))
    assert found, "the page names no language"
    return found.group(1)


def test_the_switch_is_remembered_by_this_phone(client: Any) -> None:
    switched = client.get("/language/lo?next=/")
    assert switched.status_code == 303 and switched.headers["Location"] == "/"
    assert page_lang(client.get("/")) == "lo"
    assert page_lang(client.get("/join")) == "lo"  # every page, not only the one it went back to


def test_accept_language_chooses_when_the_phone_has_not(app: Any) -> None:
    phone = app.test_client()
    assert page_lang(phone.get("/", headers={"Accept-Language": "tr-TR,tr;q=0.9"})) == "tr"
    assert page_lang(phone.get("/")) == "en"  # nothing said: English


def test_lang_in_the_address_overrides_the_cookie_and_the_browser(client: Any) -> None:
    client.get("/language/lo?next=/")
    asked = client.get("/?lang=es", headers={"Accept-Language": "tr-TR,tr;q=0.9"})
    assert page_lang(asked) == "es"
    # issue 23 item 1: the language a link asked for stays for what the phone does next (the
    # cookie now says es), until another ?lang= or the switch
    assert page_lang(client.get("/", headers={"Accept-Language": "tr-TR,tr;q=0.9"})) == "es"
    assert page_lang(client.get("/?lang=lo")) == "lo"
    client.get("/language/et?next=/")
    assert page_lang(client.get("/", headers={"Accept-Language": "tr-TR,tr;q=0.9"})) == "et"


def test_a_download_or_an_api_answer_in_another_language_leaves_the_phone_alone(
    client: Any, open_night: dict[str, Any]
) -> None:
    """Only pages and redirects remember a ``?lang=``: a statement fetched for someone else in
    their language, or an API answer, does not change the phone's own (issue 23 item 1)."""
    client.get("/?lang=lo")
    night = f"/api/v1/sessions/{open_night['id']}"
    answer = client.get(f"{night}?lang=es", headers=open_night["headers"])
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    client.get(f"/join/{open_night['id']}/{open_night['token']}?lang=lo")
    text = client.get(f"{night}/settlement.txt?lang=tr", headers=open_night["headers"])
    assert text.mimetype == "text/plain" and "Set-Cookie" not in text.headers
    assert page_lang(client.get("/")) == "lo"
    kept = client.get(f"/s/{open_night['id']}?lang=tr", headers={"X-Offline-Copy": "1"})
    assert kept.status_code == 200 and "Set-Cookie" not in kept.headers  # a copy kept for offline
    assert page_lang(client.get("/")) == "lo"


@pytest.mark.parametrize("target", ["//evil.example", "https://evil.example/", "/\\evil.example", "evil.example"])
def test_the_switch_only_goes_back_to_this_site(client: Any, target: str) -> None:
    response = client.get("/language/et", query_string={"next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


@pytest.mark.parametrize("raw", [
    "/%0d%0aSet-Cookie:%20lang=xx", "/%0aSet-Cookie:%20a=b", "/s/x%0d/history", "/%09/evil.example",
    "/%5c/evil.example", "/%e2%80%a8x", "/%00", "javascript:alert(1)", "%20//evil.example", "HTTPS://evil.example",
])
def test_the_switch_sends_a_next_holding_cr_lf_or_another_site_home(client: Any, raw: str) -> None:
    """Issue 20: a ``next`` with CR/LF answered 500 (the header could not be written); any
    control character, backslash, ``//host`` or scheme goes home instead, with the cookie set."""
    response = client.get(f"/language/es?next={raw}")
    assert response.status_code == 303 and response.headers["Location"] == "/", raw
    assert "Set-Cookie: lang=xx" not in str(response.headers)
    assert page_lang(client.get("/")) == "es"


def test_the_switch_goes_back_to_a_page_of_this_site_with_its_query(client: Any) -> None:
    response = client.get("/language/tr", query_string={"next": "/s/abc/history?page=2"})
    assert response.status_code == 303 and response.headers["Location"] == "/s/abc/history?page=2"


def test_the_installed_app_and_every_answer_say_their_language(client: Any) -> None:
    """The manifest a phone installs describes the app in the phone's language; answers say which
    language they are in and that caches must keep one copy per language."""
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "ml"})
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    body = manifest.get_json()
    assert body["lang"] == "ml" and body["name"] == "Tonk Ledger"
    assert re.search("[\u0d00-\u0d7f]", body["description"]), body["description"]
    english = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"}).get_json()
    assert english["description"] == ("Records Tonk hands at the table, pays them exactly, settles the night "
                                      "in the fewest transfers.")
    page = client.get("/", headers={"Accept-Language": "et-EE,et;q=0.9"})
    assert page.headers["Content-Language"] == "et"
    assert {"Accept-Language", "Cookie"} <= set(page.vary)
    assert page_lang(page) == "et"


@pytest.mark.parametrize(("header", "lang"), [
    ("fil-PH, en;q=0.8", "fil"),  # a regional first choice beats a bare "en" further down
    ("ml-IN;q=1, en;q=0.9", "ml"),
    ("de-DE, tr;q=0.7, en;q=0.5", "tr"),  # the first language we speak
    ("xx, ;;;,", "en"),
])
def test_the_phones_first_language_we_speak_wins(client: Any, header: str, lang: str) -> None:
    assert page_lang(client.get("/", headers={"Accept-Language": header})) == lang
    api = client.post("/api/v1/sessions", json={}, headers={"Accept-Language": header})
    assert api.status_code == 422 and api.headers["Content-Language"] == lang


def test_an_address_no_route_knows_gets_the_phones_own_page(client: Any) -> None:
    """A share link cut short: the phone's 404 page in its language, not the server's bare one."""
    page = client.get("/join/abc", headers={"Accept-Language": "lo"})
    assert page.status_code == 404 and page_lang(page) == "lo" and 'name="viewport"' in page.get_data(as_text=True)
    assert re.search("[\u0e80-\u0eff]", page.get_data(as_text=True))
    api = client.get("/api/v1/no-such-thing", headers={"Accept-Language": "tr"})
    assert api.status_code == 404 and api.get_json()["error"] == "not_found"
    assert api.get_json()["message"] != client.get("/api/v1/no-such-thing").get_json()["message"]
