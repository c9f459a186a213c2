"""The club side in every language (issue 10): every club page in the pseudo language with no
English of its own left, a member's statement language (API, members page, export and import,
the season statement itself), and the club's own 403 page.

The pseudo catalogue is built from the shipped ``messages.pot`` (``tests/test_catalogues.py``
fails when it lacks a sentence of the sources). Only the language switch's names (each language
by its own name) may stay as they are.
"""
from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from pypdf import PdfReader

from club_nights import NIGHT, PARTS, bearer
from conftest import PG_URL, _fresh_postgres_database
from i18n_text import english_left
from ledger import create_app
from ledger.i18n import LANGUAGES
from ledger.money import format_minor
from renamed import renamed as renamed_as

REPO = Path(__file__).resolve().parent.parent
# night-01's players, renamed into scripts that are not Latin: a name never counts as English
NAMES = {"Dee": "Ζωή", "Marcus": "ສົມ", "Rosa": "Αλέξης", "Tomás": "Σοφία"}


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture
def pseudo_app(database_url: str) -> Iterator[Any]:
    """The app with the pseudo language on."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "WTF_CSRF_ENABLED": False, "I18N_PSEUDO": True})
    try:
        yield app
    finally:
        app.extensions["ledger.engine"].dispose()


def renamed(value: Any) -> Any:
    return renamed_as(value, NAMES)


def make_club(client: Any, name: str = "Λέσχη", **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/clubs", json={"name": name, "currency": "USD", "timezone": "Asia/Vientiane",
                                                   "members": list(NAMES.values())} | extra)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play(client: Any, club: dict[str, Any], part: int, carry_over: bool | None) -> dict[str, Any]:
    """Night-01's hands ``PARTS[part]`` played by the renamed players; closed with or without
    carry-over, or left open (``None``)."""
    start, end = PARTS[part]
    hands = renamed(NIGHT["hands"][start:end])
    night = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
        "name": f"Παρασκευή {part + 1}", "stake": NIGHT["stake"], "ruleset": NIGHT["ruleset"],
        "players": list(NAMES.values()), "first_dealer": hands[0]["dealer"], "club": club["id"]}).get_json()
    for hand in hands:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={key: hand[key] for key in ("outcome", "hands", "dealer")})
        assert recorded.status_code == 201, recorded.get_json()
    if carry_over is not None:
        closed = client.post(f"/api/v1/sessions/{night['id']}/close", headers=bearer(night["token"]),
                             json={"carry_over": carry_over})
        assert closed.status_code == 200, closed.get_json()
    return night


def phone(app: Any, link: str | None = None) -> Any:
    """A phone reading the pseudo language (the switch's cookie), holding ``link`` if given."""
    client = app.test_client()
    assert client.get("/language/en-XA").status_code == 303
    if link:
        assert client.get(link).status_code == 302
    return client


def others_english() -> set[str]:
    """The language switch of base.html names each language by its own name ("English" too)."""
    return {lang.name for lang in LANGUAGES.values()}


def csrf(client: Any) -> str:
    """A CSRF token of ``client``'s own session (from a page every phone may open)."""
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/clubs/new").get_data(as_text=True)).group(1)


def own_english(name: str, response: Any, expected_status: int, foreign: set[str]) -> list[str]:
    """The English left in a club page that the club's own files should have wrapped; what
    other layers left is added to ``foreign``."""
    page = response.get_data(as_text=True)
    assert response.status_code == expected_status, (name, response.status_code, page[:500])
    assert 'lang="en"' in page  # the pseudo language is English underneath, for the browser
    left = english_left(page)
    foreign.update(text for text in left if text in others_english())
    return [text for text in left if text not in others_english()]


# -- every club page in the pseudo language -----------------------------------------------------------
def test_every_club_page_leaves_no_english_of_its_own(pseudo_app: Any) -> None:
    api = pseudo_app.test_client()
    club = make_club(api)
    cid = club["id"]
    play(api, club, 0, carry_over=True)
    play(api, club, 1, carry_over=False)
    play(api, club, 2, carry_over=None)  # an open night in the list
    owner = phone(pseudo_app, f"/c/join/{cid}/{club['token']}")
    found: dict[str, list[str]] = {}
    foreign: set[str] = set()

    def check(name: str, response: Any, status: int = 200) -> str:
        found[name] = own_english(name, response, status, foreign)
        return response.get_data(as_text=True)

    body = api.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()
    line = body["settlement"]["transfers"][0]
    zoe = body["members"][0]["id"]

    # payments: recorded, asked about (more than is owed), refused, voided
    paid = check("payment recorded", owner.post(f"/c/{cid}/payments", data={
        "from": line["from"], "to": line["to"], "amount": "0.25"}, follow_redirects=True))
    assert "⟦" in paid.split('class="flashes"')[1].split("</div>")[0]  # the flash went through the catalogue
    check("overpayment question", owner.post(f"/c/{cid}/payments", data={
        "from": line["from"], "to": line["to"], "amount": "99"}), 422)
    check("paying oneself", owner.post(f"/c/{cid}/payments", data={
        "from": line["from"], "to": line["from"], "amount": "1"}), 422)
    check("no amount", owner.post(f"/c/{cid}/payments", data={
        "from": line["from"], "to": line["to"], "amount": ""}), 422)
    check("half a payment", owner.post(f"/c/{cid}/payments", data={"from": line["from"]}), 422)
    payments = api.get(f"/api/v1/clubs/{cid}/payments", headers=bearer(club["token"])).get_json()["payments"]
    check("payment voided", owner.post(f"/c/{cid}/payments/{payments[0]['id']}/void", follow_redirects=True))

    # the club page with its share panel, plan, nights (open, carried, in cash) and a void badge
    home = check("club home, owner, share panel open", owner.get(f"/c/{cid}?share=1"))
    assert 'id="club-share" open' in home and 'class="badge badge-void"' in home
    assert home.count('class="night-link"') == 3

    # the members: added, refused, renamed, a language chosen and cleared, a refused language
    check("member added", owner.post(f"/c/{cid}/members", data={"name": "Ἀνδρέας"}, follow_redirects=True))
    check("member already there", owner.post(f"/c/{cid}/members", data={"name": "ζωή"}), 422)
    check("member renamed", owner.post(f"/c/{cid}/members/{zoe}/rename", data={"name": "Ζωούλα"},
                                       follow_redirects=True))
    check("same name kept", owner.post(f"/c/{cid}/members/{zoe}/rename", data={"name": "Ζωούλα"},
                                       follow_redirects=True))
    check("rename to another member's name", owner.post(f"/c/{cid}/members/{zoe}/rename", data={"name": "ສົມ"}), 422)
    chosen = check("language chosen", owner.post(f"/c/{cid}/members/{zoe}/language", data={"language": "lo"},
                                                 follow_redirects=True))
    assert re.search(rf'<option value="lo" lang="lo" translate="no" selected>{LANGUAGES["lo"].name}</option>', chosen)
    check("language cleared", owner.post(f"/c/{cid}/members/{zoe}/language", data={"language": ""},
                                         follow_redirects=True))
    check("language refused", owner.post(f"/c/{cid}/members/{zoe}/language", data={"language": "xx"}), 422)
    check("club night refused", owner.post(f"/c/{cid}/nights", data={"stake": "abc"}), 422)

    # the standings with each period, and each refused period
    for query in ("", "?period=all", "?period=dates&from=2020-01-01&to=2099-12-31", "?period=dates&to=2099-12-31",
                  "?period=last&last=2", "?last=1", "?period=dates&from=2099-01-01"):
        check(f"standings {query or 'default'}", owner.get(f"/c/{cid}/standings{query}"))
    for query in ("?period=dates&from=x", "?period=dates&from=2026-05-01&to=2026-04-01", "?period=last&last=0"):
        check(f"standings {query}", owner.get(f"/c/{cid}/standings{query}"), 422)

    # joining, starting a club, and the 403 pages
    stranger = phone(pseudo_app)
    check("join a club", stranger.get("/clubs/join"))
    check("join: unknown code", stranger.post("/clubs/join", data={"code": "ZZZZZZ"}), 422)
    check("join: no code", stranger.post("/clubs/join", data={"code": " "}), 422)
    check("start a club", stranger.get("/clubs/new"))
    check("start a club: refused", stranger.post("/clubs/new", data={
        "name": " ", "currency": "XXX", "timezone": "Mars/Olympus"}), 422)
    check("403 for a stranger", stranger.get(f"/c/{cid}"), 403)
    check("403 for a wrong club link", stranger.get(f"/c/join/{cid}/not-a-token"), 403)
    check("joined by code", stranger.post("/clubs/join", data={"code": club["table_code"]}, follow_redirects=True))
    check("403 for a member", stranger.post(f"/c/{cid}/members/{zoe}/rename", data={"name": "Ζ"}), 403)
    viewer = phone(pseudo_app, f"/c/join/{cid}/{club['viewer_token']}")
    check("club home, viewer", viewer.get(f"/c/{cid}"))
    check("403 for a viewer", viewer.post(f"/c/{cid}/payments", data={}), 403)
    check("club started", phone(pseudo_app).post("/clubs/new", data={
        "name": "Σύλλογος", "currency": "EUR", "timezone": "Europe/Athens"}, follow_redirects=True))

    print(f"English left on the club pages by other layers: {sorted(foreign)}")
    assert found == {name: [] for name in found}


def test_the_nights_share_panel_leaves_no_english(pseudo_app: Any) -> None:
    api = pseudo_app.test_client()
    night = api.post("/api/v1/sessions", json={"name": "Παρασκευή", "currency": "USD", "stake": 25,
                                               "ruleset": NIGHT["ruleset"], "players": list(NAMES.values()),
                                               "first_dealer": "Ζωή"}).get_json()
    host = phone(pseudo_app, f"/join/{night['id']}/{night['token']}")
    for state in ("open", "closed"):
        page = host.get(f"/s/{night['id']}/share").get_data(as_text=True)
        panel = page[page.index('<p class="hint share-hint">'):page.index("</section>", page.index("share-hint"))]
        assert 'id="table-link"' in panel and 'id="viewer-link"' in panel
        assert ('id="table-code"' in panel) == (state == "open")
        assert english_left(panel) == [], state
        api.post(f"/api/v1/sessions/{night['id']}/close", headers=bearer(night["token"]), json={})


# -- a member's language ----------------------------------------------------------------------------
def test_a_members_language_round_trips_through_the_api(client: Any) -> None:
    club = make_club(client)
    url = f"/api/v1/clubs/{club['id']}"
    added = client.post(f"{url}/members", headers=bearer(club["member_token"]), json={"name": "ນາງ", "language": "lo"})
    assert added.status_code == 201 and added.get_json()["language"] == "lo"
    zoe = client.get(url, headers=bearer(club["viewer_token"])).get_json()["members"][0]
    assert zoe == {"id": zoe["id"], "name": "Ζωή"}  # no language chosen: none shown, the reader's is used

    for token in (club["token"], club["member_token"]):  # the owner or a member sets it
        changed = client.patch(f"{url}/members/{zoe['id']}", headers=bearer(token), json={"language": "ml"})
        assert changed.status_code == 200 and changed.get_json() == {"id": zoe["id"], "name": "Ζωή", "language": "ml"}
    members = client.get(url, headers=bearer(club["viewer_token"])).get_json()["members"]
    assert {m["name"]: m.get("language") for m in members} == {
        "Ζωή": "ml", "ສົມ": None, "Αλέξης": None, "Σοφία": None, "ນາງ": "lo"}

    for body in ({"language": "xx"}, {"language": "LO"}, {"language": ""}, {"language": 7}):
        refused = client.patch(f"{url}/members/{zoe['id']}", headers=bearer(club["token"]), json=body)
        assert (refused.status_code, refused.get_json()["error"], refused.get_json()["field"]) == (
            422, "invalid_entry", "language"), body
    refused = client.post(f"{url}/members", headers=bearer(club["token"]), json={"name": "Νέα", "language": "xx"})
    assert (refused.status_code, refused.get_json()["field"]) == (422, "language")
    assert "Νέα" not in [m["name"] for m in client.get(url, headers=bearer(club["token"])).get_json()["members"]]
    assert client.patch(f"{url}/members/{zoe['id']}", headers=bearer(club["token"]), json={}).status_code == 422

    viewer = client.patch(f"{url}/members/{zoe['id']}", headers=bearer(club["viewer_token"]), json={"language": "tr"})
    assert (viewer.status_code, viewer.get_json()["error"]) == (403, "role_forbidden")
    renamed_by_member = client.patch(f"{url}/members/{zoe['id']}", headers=bearer(club["member_token"]),
                                     json={"name": "Ζωούλα"})
    assert (renamed_by_member.status_code, renamed_by_member.get_json()["error"]) == (403, "role_forbidden")
    missing = client.patch(f"{url}/members/9999", headers=bearer(club["token"]), json={"language": "tr"})
    assert (missing.status_code, missing.get_json()["error"]) == (404, "member_not_found")

    # the owner's rename may set it too; null goes back to the reader's language
    renamed = client.post(f"{url}/members/{zoe['id']}/rename", headers=bearer(club["token"]),
                          json={"name": "Ζωούλα", "language": "tr"})
    assert renamed.get_json() == {"id": zoe["id"], "name": "Ζωούλα", "language": "tr"}
    cleared = client.patch(f"{url}/members/{zoe['id']}", headers=bearer(club["token"]), json={"language": None})
    assert cleared.get_json() == {"id": zoe["id"], "name": "Ζωούλα"}
    history = client.get(f"{url}/export.json", headers=bearer(club["token"])).get_json()["history"]
    assert [(e["detail"]["before"]["language"], e["detail"]["after"]["language"])
            for e in history if e["action"] == "member_language_set"] == [(None, "ml"), ("ml", "tr"), ("tr", None)]


def test_the_openapi_document_names_the_members_language(client: Any) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    codes = list(LANGUAGES)
    assert schemas["Member"]["properties"]["language"]["enum"] == [*codes, None]
    assert schemas["MemberUpdate"]["properties"]["language"]["type"] == ["string", "null"]
    assert schemas["ClubMemberOut"]["properties"]["language"]["enum"] == codes
    assert "language" not in schemas["ClubMemberOut"]["required"]
    assert "patch" in document["paths"]["/api/v1/clubs/{club_id}/members/{member_id}"]


def test_the_members_page_chooses_a_language(app: Any, client: Any) -> None:
    club = make_club(client)
    cid = club["id"]
    zoe = client.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()["members"][0]["id"]
    member = app.test_client()
    member.get(f"/c/join/{cid}/{club['member_token']}")
    page = member.get(f"/c/{cid}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    options = re.findall(rf'<select id="language-{zoe}" name="language">(.*?)</select>', page, re.S)[0]
    assert re.findall(r'<option value="([^"]*)"', options) == ["", *LANGUAGES]
    assert [html.unescape(n) for n in re.findall(r'translate="no"[^>]*>([^<]+)</option>', options)] == [
        lang.name for lang in LANGUAGES.values()]  # each language by its own name

    chosen = member.post(f"/c/{cid}/members/{zoe}/language", data={"language": "lo", "csrf_token": token})
    assert chosen.status_code == 302 and chosen.headers["Location"].endswith("#club-members")
    page = member.get(f"/c/{cid}").get_data(as_text=True)
    assert "The season statements of Ζωή are now written in ລາວ." in page
    assert '<span class="member-language" lang="lo" translate="no">ລາວ</span>' in page
    assert client.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()["members"][0]["language"] == "lo"

    refused = member.post(f"/c/{cid}/members/{zoe}/language", data={"language": "xx", "csrf_token": token})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert re.search(rf'<p class="error" id="err-language-{zoe}" role="alert">Choose a language from the list.</p>', page)
    assert '<details class="member-language-choice" open>' in page
    assert client.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()["members"][0]["language"] == "lo"

    cleared = member.post(f"/c/{cid}/members/{zoe}/language", data={"language": "", "csrf_token": token})
    assert cleared.status_code == 302
    assert "language" not in client.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()["members"][0]
    assert member.post(f"/c/{cid}/members/9999/language", data={"language": "lo", "csrf_token": token}).status_code == 404

    viewer = app.test_client()
    viewer.get(f"/c/join/{cid}/{club['viewer_token']}")
    assert 'name="language"' not in viewer.get(f"/c/{cid}").get_data(as_text=True)
    assert viewer.post(f"/c/{cid}/members/{zoe}/language",
                       data={"language": "lo", "csrf_token": csrf(viewer)}).status_code == 403


@pytest.fixture
def fresh_client(tmp_path: Path) -> Iterator[Any]:
    """A second app on its own empty database."""
    urls = _fresh_postgres_database(PG_URL) if PG_URL else iter([f"sqlite:///{tmp_path / 'fresh.sqlite3'}"])
    app = create_app({"TESTING": True, "DATABASE_URL": next(urls), "SECRET_KEY": "other-secret"})
    try:
        yield app.test_client()
    finally:
        app.extensions["ledger.engine"].dispose()
        for _unused in urls:  # drops the PostgreSQL database
            pass


def test_the_club_export_keeps_each_members_language(client: Any, fresh_client: Any) -> None:
    club = make_club(client)
    url = f"/api/v1/clubs/{club['id']}"
    members = {m["name"]: m["id"] for m in client.get(url, headers=bearer(club["token"])).get_json()["members"]}
    for name, code in (("Ζωή", "lo"), ("Αλέξης", "ml")):
        client.patch(f"{url}/members/{members[name]}", headers=bearer(club["token"]), json={"language": code})
    play(client, club, 0, carry_over=True)
    document = client.get(f"{url}/export.json", headers=bearer(club["token"])).get_json()
    assert {m["name"]: m["language"] for m in document["members"]} == {
        "Ζωή": "lo", "ສົມ": None, "Αλέξης": "ml", "Σοφία": None}

    copy = fresh_client.post("/api/v1/clubs/import", json=document).get_json()
    again = fresh_client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    assert {m["name"]: m.get("language") for m in again["members"]} == {
        "Ζωή": "lo", "ສົມ": None, "Αλέξης": "ml", "Σοφία": None}

    # an export from before languages (no field), and a language this server does not have
    older = document | {"members": [{k: v for k, v in m.items() if k != "language"} for m in document["members"]]}
    older["members"][1]["language"] = "xh"
    imported = fresh_client.post("/api/v1/clubs/import", json=older)
    assert imported.status_code == 201, imported.get_json()
    body = imported.get_json()
    assert [m.get("language") for m in body["members"]] == [None, None, None, None]
    assert body["balances"] == again["balances"]


def pdf_text(data: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.replace("\xa0", " ").split())


def test_a_members_season_statement_is_written_in_their_language(app: Any, client: Any) -> None:
    """Money in the statement is written the member's way (Spanish: ``12,50 US$``) whoever
    reads it; a member without a language gets the reader's."""
    club = make_club(client)
    cid = club["id"]
    play(client, club, 0, carry_over=True)
    body = client.get(f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()
    ids = {m["name"]: m["id"] for m in body["members"]}
    balance = abs(body["balances"]["Ζωή"])
    assert balance and abs(body["balances"]["ສົມ"])
    spanish, english = (" ".join(format_minor(balance, "USD", locale).replace("\xa0", " ").split())
                        for locale in ("es_ES", "en_US"))
    client.patch(f"/api/v1/clubs/{cid}/members/{ids['Ζωή']}", headers=bearer(club["token"]), json={"language": "es"})

    phone_ = app.test_client()
    phone_.get(f"/c/join/{cid}/{club['viewer_token']}")
    for response in (phone_.get(f"/c/{cid}/statements/{ids['Ζωή']}.pdf", headers={"Accept-Language": "en"}),
                     client.get(f"/api/v1/clubs/{cid}/statements/{ids['Ζωή']}.pdf",
                                headers=bearer(club["token"]) | {"Accept-Language": "en"})):
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        text = pdf_text(response.data)
        assert spanish in text and english not in text

    other = abs(body["balances"]["ສົມ"])
    for lang, locale in (("en", "en_US"), ("es", "es_ES")):  # ສົມ has no language: the reader's
        text = pdf_text(phone_.get(f"/c/{cid}/statements/{ids['ສົມ']}.pdf?lang={lang}").data)
        assert " ".join(format_minor(other, "USD", locale).replace("\xa0", " ").split()) in text, lang


# -- the club's 403 page ------------------------------------------------------------------------------
def test_the_club_403_page_names_the_club_only_to_a_phone_that_holds_its_key(app: Any, client: Any) -> None:
    club = make_club(client, name="Ο Σύλλογος της Πέμπτης")
    cid = club["id"]
    shown = html.escape(club["name"])
    stranger = app.test_client()
    for response in (stranger.get(f"/c/{cid}"), stranger.get(f"/c/{cid}/standings"),
                     stranger.get(f"/c/join/{cid}/{club['token']}x")):
        page = response.get_data(as_text=True)
        assert response.status_code == 403 and response.headers["Cache-Control"] == "no-store"
        assert shown not in page and club["name"] not in page
        assert "This phone does not have the key to this club." in page
        assert 'href="/clubs/join"' in page and 'href="/"' in page  # join with a code, or go home

    member = app.test_client()
    member.get(f"/c/join/{cid}/{club['member_token']}")
    refused = member.post(f"/c/{cid}/payments/1/void", data={"csrf_token": csrf(member)})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 403
    assert f'This phone is a member of <strong translate="no">{shown}</strong>;' in page
    assert f'href="/c/{cid}"' in page

    viewer = app.test_client()
    viewer.get(f"/c/join/{cid}/{club['viewer_token']}")
    refused = viewer.post(f"/c/{cid}/members", data={"name": "Νέος", "csrf_token": csrf(viewer)})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 403
    assert f'This phone opens <strong translate="no">{shown}</strong> with the watch-only link' in page
    assert "Νέος" not in [m["name"] for m in client.get(
        f"/api/v1/clubs/{cid}", headers=bearer(club["token"])).get_json()["members"]]


# -- the migration -------------------------------------------------------------------------------------
def test_migration_0006_keeps_every_member_and_gives_none_a_language(database_url: str) -> None:
    from datetime import datetime

    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.storage.club_models import ClubMember
    from ledger.storage.db import make_engine, migrations_config, upgrade

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005_clubs")
        connection.execute(text("INSERT INTO club (id, name, currency, timezone, created_at) "
                                "VALUES ('c1', 'Λέσχη', 'USD', 'UTC', :at)"), {"at": datetime(2026, 1, 3)})
        connection.execute(text("INSERT INTO club_member (club_id, name, name_key, created_at) "
                                "VALUES ('c1', 'Ζωή', 'ζωή', :at)"), {"at": datetime(2026, 1, 3)})
    upgrade(engine)
    with Session(engine) as db:
        member = db.get(ClubMember, 1)
        assert member is not None and (member.name, member.language) == ("Ζωή", None)
        member.language = "fil"
        db.add(member)
        db.commit()
    with Session(engine) as db:
        assert db.get(ClubMember, 1).language == "fil"
    engine.dispose()
