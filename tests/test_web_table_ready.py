"""Table-ready phone pages: sharing (QR code, table code, watch-only link), roles enforced on
every page and form, undo, corrections with versions, part payments, the log with before →
after values, exports, the live state every phone polls, and forms kept through a lost cookie.
Through Flask's test client on a real database (SQLite, or PostgreSQL with
``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import csv
import html
import io
import json
import re
import time
from typing import Any

import pytest
import segno

from conftest import REPO

# the new page modules register their routes on import (also done by ledger.web.views)
from ledger.web import live, log_page, resubmit, settle_page, share  # noqa: F401
from test_web_pages import AMPERSAND, HOSTILE, Table, csrf_of, flashes, hand_form, plan_lines

DISCARD = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}  # Rosa +$0.75, the others -$0.25
TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}  # Dee +$1.50 (2×), the others -$0.50
MOBILE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"


# -- helpers ----------------------------------------------------------------------------------------
def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def text_of(page: str) -> str:
    """The page's visible text on one line (tags dropped, entities decoded)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def phone(app: Any, path: str | None = None) -> Any:
    """A new phone (its own cookie jar); ``path`` is a join link to open first."""
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = MOBILE
    if path is not None:
        assert client.get(re.sub(r"^https?://[^/]+", "", path)).status_code == 302
    return client


def token_of(client: Any) -> str:
    return csrf_of(client.get("/join").get_data(as_text=True))


@pytest.fixture
def night(app: Any, client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    """night-01's table opened through the API; ``host``, ``player`` and ``viewer`` are phones
    that opened their role's link (the host's phone holds the host token in its cookie)."""
    body = client.post("/api/v1/sessions", json={k: night_data[k] for k in (
        "name", "currency", "stake", "ruleset", "players", "first_dealer")}).get_json()
    sid = body["id"]
    return {
        "id": sid, "body": body, "code": body["table_code"],
        "api": {role: bearer(body[f"{role}_token"] if role != "host" else body["token"])
                for role in ("host", "player", "viewer")},
        "host": phone(app, f"/join/{sid}/{body['token']}"),
        "player": phone(app, body["links"]["player"]),
        "viewer": phone(app, body["links"]["viewer"]),
    }


def api_hand(client: Any, table: dict[str, Any], entry: dict[str, Any], role: str = "player") -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{table['id']}/hands", json=entry, headers=table["api"][role])
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def session(client: Any, table: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/v1/sessions/{table['id']}", headers=table["api"]["viewer"]).get_json()


def state(phone_client: Any, table: dict[str, Any], view: str = "table", since: int | None = None) -> Any:
    query = f"?view={view}" + (f"&rows=1&since={since}" if since is not None else "")
    return phone_client.get(f"/s/{table['id']}/state{query}")


# -- sharing ------------------------------------------------------------------------------------------
def test_share_panel_shows_the_player_link_qr_and_code_never_the_host_token(
    night: dict[str, Any]
) -> None:
    host_token, sid = night["body"]["token"], night["id"]
    for path in (f"/s/{sid}?share=1", f"/s/{sid}/share"):
        response = night["host"].get(path)
        page = response.get_data(as_text=True)
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
        assert host_token not in page
        player_link = html.unescape(re.search(r'id="table-link"[^>]*value="([^"]+)"', page).group(1))
        viewer_link = html.unescape(re.search(r'id="viewer-link"[^>]*value="([^"]+)"', page).group(1))
        assert player_link == f"http://localhost/join/{sid}/{night['body']['player_token']}"
        assert viewer_link == f"http://localhost/join/{sid}/{night['body']['viewer_token']}"
        code = night["code"]
        assert f'id="table-code" data-code="{code}">{code[:3]} {code[3:]}</strong>' in page
        assert "http://localhost/join" in page  # where to type it
        # the QR codes are exactly the two links, drawn by segno as inline SVG
        for link in (player_link, viewer_link):
            expected = segno.make(link, error="m").svg_inline(
                omitsize=True, border=4, dark="#000", light="#fff", svgclass="qr-svg", lineclass=None)
            assert expected in page
        assert page.count('<svg viewBox="') == 2
        assert 'data-copy="#table-link"' in page and f'data-copy-text="{code}"' in page


def test_only_the_host_sees_the_share_panel(night: dict[str, Any]) -> None:
    for role in ("player", "viewer"):
        client = night[role]
        table = client.get(f"/s/{night['id']}").get_data(as_text=True)
        assert 'id="table-link"' not in table and "<svg" not in table and night["code"] not in table
        assert f"This phone joined as a {role}." in table
        refused = client.get(f"/s/{night['id']}/share")
        assert refused.status_code == 403 and "see the table&#39;s links" in refused.get_data(as_text=True)


def test_join_by_code_with_a_name_labels_the_phone_in_the_log(app: Any, night: dict[str, Any]) -> None:
    rosa = phone(app)
    joined = rosa.post("/join", data={"csrf_token": token_of(rosa), "code": night["code"].lower(), "name": "  Rosa  "})
    assert joined.status_code == 302 and joined.headers["Location"] == f"/s/{night['id']}"
    assert Table(rosa, night["id"]).save({"kind": "discard_out", "who": "2", "dealer": "3"}).status_code == 302
    log = text_of(rosa.get(f"/s/{night['id']}/log").get_data(as_text=True))
    assert re.search(r"Hand 1 recorded \w{3} \d\d:\d\d UTC player Rosa Rosa went out by discard", log)
    # a pasted table link works in the code box too
    other = phone(app)
    pasted = other.post("/join", data={"csrf_token": token_of(other), "code": night["body"]["links"]["viewer"]})
    assert pasted.status_code == 302 and pasted.headers["Location"].endswith(night["body"]["viewer_token"])


def test_guessing_codes_on_the_join_page_is_rate_limited(app: Any, night: dict[str, Any]) -> None:
    guesser = phone(app)
    token = token_of(guesser)
    statuses = [guesser.post("/join", data={"csrf_token": token, "code": f"ZZZZZ{i}"}).status_code for i in range(10)]
    assert statuses == [422] * 10
    blocked = guesser.post("/join", data={"csrf_token": token, "code": night["code"], "name": "Eve"})
    page = blocked.get_data(as_text=True)
    assert blocked.status_code == 429 and "Too many tries" in page
    assert f'value="{night["code"]}"' in page and 'value="Eve"' in page  # what was typed is kept
    # the rejoin form of a kept page shares the same limit
    rejoin = guesser.post("/rejoin", data={"csrf_token": token, "rejoin_next": f"/s/{night['id']}/payments",
                                           "rejoin_code": night["code"], "amount": "1"})
    assert rejoin.status_code == 429 and 'value="1"' in rejoin.get_data(as_text=True)


# -- roles ----------------------------------------------------------------------------------------------
def test_a_viewer_has_no_buttons_and_every_post_is_403(night: dict[str, Any]) -> None:
    api_hand(night["host"], night, DISCARD)
    viewer, sid = night["viewer"], night["id"]
    pages = {path: viewer.get(f"/s/{sid}{path}").get_data(as_text=True) for path in ("", "/hands", "/settle", "/log")}
    for path, page in pages.items():
        assert 'method="post"' not in page, path  # no form that changes anything
        assert "Record hand" not in page and "Undo last hand" not in page and "Mark paid" not in page
    token = token_of(viewer)
    for path in ("/record", "/hands/1/void", "/undo", "/close", "/payments", "/payments/1/void"):
        response = viewer.post(f"/s/{sid}{path}", data={"csrf_token": token, "confirmed": "yes", "number": "1",
                                                        "from": "Dee", "to": "Rosa", "amount": "0.25"})
        assert response.status_code == 403, path
        assert "Ask the host" in response.get_data(as_text=True)
    assert session(viewer, night)["hand_count"] == 1 and session(viewer, night)["status"] == "open"


def test_a_player_cannot_void_undo_correct_or_close(app: Any, night: dict[str, Any]) -> None:
    player, sid = night["player"], night["id"]
    api_hand(player, night, DISCARD)
    token = token_of(player)
    for path, words in (("/hands/1/void", "a player cannot void hands"), ("/undo", "a player cannot undo the last hand"),
                        ("/close", "a player cannot close the night"),
                        ("/payments/1/void", "a player cannot void payments")):
        response = player.post(f"/s/{sid}{path}", data={"csrf_token": token, "confirmed": "yes", "number": "1"})
        assert response.status_code == 403, path
        assert words in response.get_data(as_text=True)
    if "web.amend" in app.view_functions:  # the correction form (house-rules UI)
        assert player.get(f"/s/{sid}/hands/1/v1/correct").status_code == 403
    amend = player.post(f"/api/v1/sessions/{sid}/hands/1/amend", json=TONK | {"version": 1},
                        headers=night["api"]["player"])
    assert amend.status_code == 403
    history = player.get(f"/s/{sid}/hands").get_data(as_text=True)
    assert "void-form" not in history and "Correct</a>" not in history
    assert "Undo last hand" not in player.get(f"/s/{sid}").get_data(as_text=True)
    body = session(player, night)
    assert body["hand_count"] == 1 and body["status"] == "open"


def test_another_nights_phone_sees_nothing_of_this_one(
    app: Any, client: Any, night: dict[str, Any], night_data: dict[str, Any]
) -> None:
    api_hand(night["host"], night, DISCARD)
    other = client.post("/api/v1/sessions", json={k: night_data[k] for k in (
        "name", "currency", "stake", "ruleset", "players", "first_dealer")} | {"name": "Other table"}).get_json()
    stranger = phone(app, f"/join/{other['id']}/{other['token']}")  # the host of another night
    sid = night["id"]
    for path in ("", "/hands", "/settle", "/log", "/share", "/record", "/summary.pdf", "/export/hands.csv",
                 "/export.json", "/state?view=table"):
        response = stranger.get(f"/s/{sid}{path}")
        assert response.status_code == 403, path
        body = response.get_data(as_text=True)
        assert "Rosa went out" not in body and night["code"] not in body
    assert state(stranger, night).get_json() == {"error": "forbidden"}
    token = token_of(stranger)
    for path in ("/hands/1/void", "/undo", "/close", "/payments"):
        assert stranger.post(f"/s/{sid}{path}", data={"csrf_token": token, "confirmed": "yes"}).status_code == 403
    # a token of the other night in this night's URL opens nothing either
    assert stranger.get(f"/join/{sid}/{other['token']}").status_code == 403
    assert session(night["host"], night)["hand_count"] == 1


# -- undo and corrections ------------------------------------------------------------------------------
def test_the_host_undoes_the_last_hand_after_a_confirm(night: dict[str, Any]) -> None:
    host, sid = night["host"], night["id"]
    api_hand(host, night, DISCARD)
    api_hand(host, night, TONK)
    table = host.get(f"/s/{sid}").get_data(as_text=True)
    assert "Undo last hand (#2)" in table
    token = csrf_of(table)

    confirm = host.post(f"/s/{sid}/undo", data={"csrf_token": token, "number": "2"})
    assert confirm.status_code == 200 and "Undo hand 2?" in confirm.get_data(as_text=True)
    assert session(host, night)["hand_count"] == 2  # nothing changed yet
    # the host saw hand 1 as the last one, but hand 2 came in since: ask again, naming hand 2
    moved = host.post(f"/s/{sid}/undo", data={"csrf_token": token, "number": "1", "confirmed": "yes"})
    assert moved.status_code == 409
    assert "the last hand is now hand 2" in moved.get_data(as_text=True)
    assert session(host, night)["hand_count"] == 2

    done = host.post(f"/s/{sid}/undo", data={"csrf_token": token, "number": "2", "confirmed": "yes"})
    assert done.status_code == 302
    page = host.get(f"/s/{sid}").get_data(as_text=True)
    assert "Hand 2 undone: it stays in the history, struck through, and no longer counts." in flashes(page)
    assert re.search(r'<li class="hand is-void" id="hand-2">.*?badge-void">void', page, re.S)
    assert "Undo last hand (#1)" in page
    assert session(host, night)["net"] == {"Dee": -25, "Marcus": -25, "Rosa": 75, "Tomás": -25}
    events = host.get(f"/api/v1/sessions/{sid}/history", headers=night["api"]["host"]).get_json()["events"]
    assert events[-1]["action"] == "hand_voided" and events[-1]["actor_role"] == "host"


def test_history_shows_versions_who_and_when_and_the_hosts_correct_link(app: Any, night: dict[str, Any]) -> None:
    host, sid = night["host"], night["id"]
    api_hand(night["player"], night, DISCARD)
    amended = host.post(f"/api/v1/sessions/{sid}/hands/1/amend", json=TONK | {"version": 1},
                        headers=night["api"]["host"] | {"X-Device": "Dee's tablet"})
    assert amended.status_code == 201
    page = host.get(f"/s/{sid}/hands").get_data(as_text=True)
    hand = page[page.index('id="hand-1"'):]
    assert 'class="badge badge-version"' in hand and ">v2<" in hand
    assert re.search(r"Corrected by .*host.*Dee&#39;s tablet", hand, re.S)
    assert '<details class="versions" id="versions-1">' in hand and "1 earlier version" in hand
    old = hand[hand.index('class="version-list"'):]
    assert "Rosa went out by discard" in old and "+$0.75" in old
    assert re.search(r"Recorded by .*player.*Android · Chrome", old, re.S)
    assert re.search(r"<time datetime=\"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\" data-local>", old)
    if "web.amend" in app.view_functions:
        assert f'href="/s/{sid}/hands/1/v2/correct">Correct</a>' in page
    assert "Correct</a>" not in night["player"].get(f"/s/{sid}/hands").get_data(as_text=True)


# -- payments --------------------------------------------------------------------------------------------
def test_a_part_payment_shrinks_the_plan_and_a_void_restores_it(night: dict[str, Any], night_data: dict[str, Any]) -> None:
    host, player, sid = night["host"], night["player"], night["id"]
    Table(player, sid).save(hand_form(night_data["hands"][0], night_data["players"]))  # Tomás +$1.50
    settle = player.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Marcus pays Tomás $0.50", "Rosa pays Tomás $0.50"]
    assert 'name="amount" type="text" inputmode="decimal"' in settle and 'value="0.50"' in settle
    token = csrf_of(settle)
    line = {"csrf_token": token, "kind": "plan", "from": "Marcus", "to": "Tomás"}

    assert player.post(f"/s/{sid}/payments", data=line | {"amount": "0.20"}).status_code == 302
    settle = player.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Marcus paid Tomás $0.20." in flashes(settle)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Marcus pays Tomás $0.30", "Rosa pays Tomás $0.50"]
    left = settle[settle.index('aria-label="Still owed after payments"'):]
    assert re.search(r"Marcus</span>\s*<span class=\"balance-amount\">-\$0.30<", left)
    assert re.search(r"Tomás</span>\s*<span class=\"balance-amount\">\+\$1.30<", left)
    assert session(player, night)["outstanding"] == {"Dee": -50, "Marcus": -30, "Rosa": -50, "Tomás": 130}

    # more than that line still owes is refused, with the amount typed kept beside it
    over = player.post(f"/s/{sid}/payments", data=line | {"amount": "0.35"})
    page = over.get_data(as_text=True)
    assert over.status_code == 422
    assert "That is more than the $0.30 Marcus still owes Tomás." in html.unescape(page)
    assert re.search(r'value="0.35"\s*aria-invalid="true"', page)
    bad = player.post(f"/s/{sid}/payments", data=line | {"amount": "0.305"})
    assert bad.status_code == 422 and 'value="0.305"' in bad.get_data(as_text=True)
    # the rest: the line is gone, and a second phone marking it again is refused
    assert player.post(f"/s/{sid}/payments", data=line | {"amount": "0.30"}).status_code == 302
    again = host.post(f"/s/{sid}/payments", data=line | {"amount": "0.30", "csrf_token": token_of(host)})
    assert again.status_code == 422
    assert "Marcus no longer owes Tomás anything" in html.unescape(again.get_data(as_text=True))
    settle = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Rosa pays Tomás $0.50"]

    # any other payment (Rosa hands Dee's share over too)
    other = {"csrf_token": token_of(host), "kind": "other", "from": "Rosa", "to": "Tomás", "amount": "1"}
    asked = host.post(f"/s/{sid}/payments", data=other)  # more than Rosa owes: asked first (issue 7, finding 11)
    assert asked.status_code == 422
    assert "Rosa owes only $0.50. Record $1.00 anyway?" in html.unescape(asked.get_data(as_text=True))
    assert host.post(f"/s/{sid}/payments", data=other | {"confirm": "yes"}).status_code == 302
    assert plan_lines(host.get(f"/s/{sid}/settle").get_data(as_text=True)) == [
        "Dee pays Rosa $0.50"]
    # the host voids the $0.20 part payment: Marcus owes it again
    settle = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    first = re.search(r'action="(/s/[^"]+/payments/(\d+)/void)"', settle)
    assert first
    assert host.post(first.group(1), data={"csrf_token": token_of(host)}).status_code == 302
    settle = host.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Payment voided: Marcus paid Tomás $0.20 no longer counts." in flashes(settle)
    assert plan_lines(settle) == ["Dee pays Rosa $0.50", "Marcus pays Tomás $0.20"]
    assert f'<li class="is-void" id="payment-{first.group(2)}">' in settle
    assert session(host, night)["outstanding"] == {"Dee": -50, "Marcus": -20, "Rosa": 50, "Tomás": 20}


# -- the log and exports -----------------------------------------------------------------------------------
def test_the_log_shows_every_change_with_who_and_before_after(night: dict[str, Any]) -> None:
    host, sid = night["host"], night["id"]
    api_hand(night["player"], night, DISCARD)
    api_hand(night["player"], night, DISCARD)
    token = token_of(host)
    assert host.post(f"/s/{sid}/hands/1/void", data={"csrf_token": token, "confirmed": "yes"}).status_code == 302
    assert host.post(f"/api/v1/sessions/{sid}/hands/2/amend", json=TONK | {"version": 1},
                     headers=night["api"]["host"]).status_code == 201
    assert host.post(f"/s/{sid}/payments", data={"csrf_token": token, "kind": "other", "from": "Rosa",
                                                   "to": "Dee", "amount": "0.40"}).status_code == 302
    assert host.post(f"/s/{sid}/close", data={"csrf_token": token, "confirmed": "yes"}).status_code == 302

    page = host.get(f"/s/{sid}/log").get_data(as_text=True)
    events = [text_of(e) for e in re.findall(r'<li class="event event-[a-z_]+" id="event-\d+">(.*?)</li>\s*(?=<li class="event|</ol>)',
                                              page, re.S)]
    closed, paid, amended, voided, second, first, started = events
    assert "Night closed" in closed and "host" in closed and "Tomás: -$0.50" in closed
    assert paid.startswith("Rosa paid Dee $0.40") and "host Android · Chrome" in paid
    assert amended.startswith("Hand 2 corrected (version 1 → 2)")
    assert "Hand: Rosa went out by discard → Dee tonked out (2×)" in amended
    assert "Dee: -$0.25 → +$1.50" in amended and "Rosa: +$0.75 → -$0.50" in amended
    assert voided.startswith("Hand 1 voided") and "host Android · Chrome" in voided
    assert "Rosa: +$0.75 → not counted" in voided and "Dee: -$0.25 → not counted" in voided
    assert second.startswith("Hand 2 recorded") and "player" in second and "Rosa went out by discard" in second
    assert started.startswith("Night started") and "Players: Dee, Marcus, Rosa and Tomás" in started
    assert "Stake: $0.25" in started
    for table in ("hands", "transfers", "payments", "history"):
        assert f'href="/s/{sid}/export/{table}.csv"' in page
    closed = host.get(f"/s/{sid}/share").get_data(as_text=True)  # a closed night's code lets nobody join
    assert 'id="table-code"' not in closed and "no longer lets a phone join" in closed
    assert f'href="/s/{sid}/export.json"' in page


def test_exports_download_through_the_cookie_and_escape_formulas(app: Any, client: Any) -> None:
    players = ["=HYPERLINK(\"http://x\")", "+1", "Dee", "@SUM(A1)"]
    body = client.post("/api/v1/sessions", json={"name": "-night", "currency": "USD", "stake": 25,
                                                  "ruleset": {"preset": "classic"}, "players": players,
                                                  "first_dealer": "Dee"}).get_json()
    viewer = phone(app, body["links"]["viewer"])
    assert client.post(f"/api/v1/sessions/{body['id']}/hands", json={"outcome": {"kind": "discard_out", "winner": "Dee"}},
                       headers=bearer(body["token"])).status_code == 201
    response = viewer.get(f"/s/{body['id']}/export/transfers.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == f'attachment; filename="tonk-{body["id"]}-transfers.csv"'
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["hand", "version", "status", "from", "to", "amount_minor", "amount_USD"]
    assert sorted(r[3] for r in rows[1:]) == ["'+1", "'=HYPERLINK(\"http://x\")", "'@SUM(A1)"]
    assert {r[4] for r in rows[1:]} == {"Dee"} and {r[5] for r in rows[1:]} == {"25"}
    hands = list(csv.reader(io.StringIO(viewer.get(f"/s/{body['id']}/export/hands.csv").get_data(as_text=True))))
    assert "'=HYPERLINK(\"http://x\") (minor units)" in hands[0]
    assert viewer.get(f"/s/{body['id']}/export/history.csv").status_code == 200
    assert viewer.get(f"/s/{body['id']}/export/secrets.csv").status_code == 404
    document = viewer.get(f"/s/{body['id']}/export.json")
    assert document.headers["Content-Disposition"] == f'attachment; filename="tonk-{body["id"]}.json"'
    data = json.loads(document.get_data(as_text=True))
    assert data["session"]["net"] == {players[0]: -25, "+1": -25, "Dee": 75, "@SUM(A1)": -25}
    assert [h["number"] for h in data["hands"]] == [1] and data["history"][0]["action"] == "session_created"


# -- the live state --------------------------------------------------------------------------------------
def test_the_state_moves_when_another_phone_records(night: dict[str, Any]) -> None:
    host = night["host"]
    first = state(host, night)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-store"
    version = first.get_json()["version"]
    quiet = state(host, night, since=version).get_json()
    assert quiet == {"version": version, "status": "open", "changed": False}

    api_hand(night["player"], night, DISCARD)  # another phone, through the API
    moved = state(host, night, since=version).get_json()
    assert moved["changed"] and moved["version"] > version
    assert moved["news"] == ["Hand 1 recorded: Rosa went out by discard"]
    region = moved["regions"]["main"]
    assert re.search(r"Rosa\s*</span>\s*<span class=\"balance-amount\">\+\$0.75<", region)
    assert 'id="hand-1"' in region and "Undo last hand (#1)" in region  # the host's region
    assert "Undo last hand" not in state(night["player"], night, since=version).get_json()["regions"]["main"]

    host.post(f"/s/{night['id']}/hands/1/void", data={"csrf_token": token_of(host), "confirmed": "yes"})
    hands = state(night["player"], night, view="hands", since=moved["version"]).get_json()
    assert hands["news"] == ["Hand 1 voided"]
    # only the voided hand's row is sent (ledger.web.live.rows_of), struck through
    assert [row["number"] for row in hands["rows"]] == [1] and "regions" not in hands
    assert '<li class="hand is-void" id="hand-1">' in hands["rows"][0]["html"]
    # the host's own change is not news to the host
    assert state(host, night, since=moved["version"]).get_json()["news"] == []
    for view in ("settle", "log"):
        assert state(night["viewer"], night, view=view, since=0).get_json()["changed"]
    assert state(host, night, view="nope").status_code == 404


def test_live_pages_name_their_view_and_version_and_offer_refresh(night: dict[str, Any]) -> None:
    api_hand(night["player"], night, DISCARD)
    version = state(night["viewer"], night).get_json()["version"]
    for path, view in (("", "table"), ("/hands", "hands"), ("/settle", "settle"), ("/log", "log")):
        page = night["viewer"].get(f"/s/{night['id']}{path}").get_data(as_text=True)
        assert f'data-live-url="/s/{night["id"]}/state?view={view}"' in page, path
        assert f'data-live-version="{version}"' in page
        assert re.search(r'<a class="refresh-link" href="[^"]*"[^>]*>Refresh</a>', page)


# -- long-lived forms and a lost cookie ---------------------------------------------------------------------
def test_a_form_opened_hours_ago_still_saves(night: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(night["player"], night["id"])
    fields = table.start() | {"kind": "discard_out", "who": "2", "dealer": "3"}
    later = time.time() + 6 * 3600  # opened at 20:00, saved at 02:00
    monkeypatch.setattr(time, "time", lambda: later)
    saved = table.post(fields | {"step": "preview", "go": "save"})
    assert saved.status_code == 302
    monkeypatch.undo()
    assert session(night["player"], night)["hand_count"] == 1
    cookie = night["player"].get_cookie("session")
    assert cookie is not None and cookie.expires is not None  # a lasting cookie, not a browser-session one


def test_a_lost_cookie_keeps_the_hand_and_the_table_code_gets_it_saved(
    app: Any, night: dict[str, Any], night_data: dict[str, Any]
) -> None:
    sid = night["id"]
    player = Table(night["player"], sid)
    fields = player.start() | hand_form(night_data["hands"][1], night_data["players"])  # a dry stock, all 4 hands
    last = {"step": "preview", "go": "save"}

    wiped = phone(app)  # the same phone after its cookie was cleared: no session, no table key
    kept = wiped.post(f"/s/{sid}/record", data=fields | last)
    page = kept.get_data(as_text=True)
    assert kept.status_code == 400 and "Form expired" in page
    sent = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
    assert sent.pop("rejoin_next") == f"/s/{sid}/record"
    assert sent.pop("csrf_token") != fields["csrf_token"]
    cards = re.findall(r'name="cards-0" value="([^"]*)"', page)
    assert cards == fields["cards-0"] and len(cards) == 4  # repeated fields kept, every one
    for name in ("key", "number", "kind", "dealer", "step", "go", "total-3"):
        assert html.unescape(sent[name]) == str(fields.get(name, last.get(name))), name
    assert "Hand 1 · Dry stock · dealt by Dee" in html.unescape(page)
    assert 'name="rejoin_code"' in page and "Save hand" in page

    form = [(k, html.unescape(v)) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)]
    wrong = wiped.post("/rejoin", data=_multi(form + [("rejoin_code", "ZZZZZZ")]))
    assert wrong.status_code == 422 and "not this table’s code" in wrong.get_data(as_text=True)
    assert re.findall(r'name="cards-0" value="([^"]*)"', wrong.get_data(as_text=True)) == cards

    rejoined = wiped.post("/rejoin", data=_multi(form + [("rejoin_code", night["code"])]))
    assert rejoined.status_code == 307 and rejoined.headers["Location"] == f"/s/{sid}/record"
    saved = wiped.post(f"/s/{sid}/record", data=_multi(form + [("rejoin_code", night["code"])]))
    assert saved.status_code == 302
    body = session(wiped, night)
    assert body["hand_count"] == 1 and body["net"] == night_data["hands"][1]["expected"]["net"]
    # tapped again: the same idempotency key, so still one hand
    again = wiped.post(f"/s/{sid}/record", data=_multi(form))
    assert again.status_code == 302 and session(wiped, night)["hand_count"] == 1


def test_a_payment_whose_token_no_longer_matches_comes_back_to_send_again(night: dict[str, Any]) -> None:
    api_hand(night["player"], night, DISCARD)
    sid = night["id"]
    host = night["host"]
    typed = {"csrf_token": "stale-token", "kind": "other", "from": "Dee", "to": "Rosa", "amount": "0.25"}
    kept = host.post(f"/s/{sid}/payments", data=typed)
    page = kept.get_data(as_text=True)
    assert kept.status_code == 400 and "Save the payment" in page and "Dee paid Rosa 0.25" in page
    assert 'name="rejoin_code"' not in page  # the cookie still holds the table key
    form = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))
    assert form["amount"] == "0.25" and form["csrf_token"] != "stale-token"
    assert host.post(f"/s/{sid}/payments", data=form).status_code == 302
    assert session(host, night)["outstanding"]["Dee"] == 0


def test_a_form_posted_from_another_site_gets_no_send_again_page(night: dict[str, Any]) -> None:
    sid = night["id"]
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Referer": "https://evil.example/page"}):
        response = night["host"].post(f"/s/{sid}/close", data={"confirmed": "yes"}, headers=headers)
        page = response.get_data(as_text=True)
        assert response.status_code == 400 and "Form expired" in page
        assert 'name="confirmed"' not in page and "reload the page" in page
    same = night["host"].post(f"/s/{sid}/close", data={"confirmed": "yes"}, headers={"Origin": "http://localhost"})
    assert same.status_code == 400 and 'name="confirmed" value="yes"' in same.get_data(as_text=True)
    assert session(night["host"], night)["status"] == "open"
    # /rejoin sends a kept form only to a table page of this site
    token = token_of(night["host"])
    for target in ("https://evil.example/s/x/record", "//evil.example/s/x", "/api/v1/sessions", "/s/nope/record"):
        response = night["host"].post("/rejoin", data={"csrf_token": token, "rejoin_next": target,
                                                       "rejoin_code": night["code"]})
        assert response.status_code == 404, target


def _multi(pairs: list[tuple[str, str]]) -> Any:
    from werkzeug.datastructures import MultiDict

    return MultiDict(pairs)


# -- escaping -------------------------------------------------------------------------------------------
def test_hostile_names_are_escaped_on_every_table_ready_page(app: Any, client: Any) -> None:
    players = [HOSTILE, AMPERSAND, "Cleo"]
    body = client.post("/api/v1/sessions", json={"name": f"Night {HOSTILE} {AMPERSAND}", "currency": "USD",
                                                  "stake": 25, "ruleset": {"preset": "classic"},
                                                  "players": players, "first_dealer": "Cleo"}).get_json()
    sid = body["id"]
    host = phone(app, f"/join/{sid}/{body['token']}")
    for winner in (HOSTILE, AMPERSAND):
        assert client.post(f"/api/v1/sessions/{sid}/hands", json={"outcome": {"kind": "discard_out", "winner": winner}},
                           headers=bearer(body["token"])).status_code == 201
    assert client.post(f"/api/v1/sessions/{sid}/hands/2/amend", json={"outcome": {"kind": "discard_out", "winner": "Cleo"},
                       "version": 1}, headers=bearer(body["token"]) | {"X-Device": HOSTILE}).status_code == 201
    token = token_of(host)
    pay = {"csrf_token": token, "kind": "other", "from": AMPERSAND, "to": HOSTILE, "amount": "0.10"}
    pages = []
    assert host.post(f"/s/{sid}/payments", data=pay).status_code == 302
    pages.append(host.get(f"/s/{sid}/settle").get_data(as_text=True))  # with the flash
    assert "&lt;img src=x onerror=alert(1)&gt; $0.10." in pages[-1]
    pages.append(host.post(f"/s/{sid}/payments", data=pay | {"amount": "x"}).get_data(as_text=True))  # kept, 422
    pages.append(host.post(f"/s/{sid}/payments", data=pay | {"csrf_token": "old"}).get_data(as_text=True))  # send again
    pages.append(host.post(f"/s/{sid}/undo", data={"csrf_token": token, "number": "2"}).get_data(as_text=True))
    assert host.post(f"/s/{sid}/undo", data={"csrf_token": token, "number": "2", "confirmed": "yes"}).status_code == 302
    for path in ("", "?share=1", "/share", "/hands", "/settle", "/log"):
        pages.append(host.get(f"/s/{sid}{path}").get_data(as_text=True))
    cleo = phone(app)
    assert cleo.post("/join", data={"csrf_token": token_of(cleo), "code": body["table_code"], "name": HOSTILE}
                     ).status_code == 302
    pages.append(cleo.get(f"/s/{sid}").get_data(as_text=True))  # the "You joined …" flash
    assert "You joined Night &lt;img src=x onerror=alert(1)&gt; A&lt;B &amp; &#34;C&#34;." in pages[-1]
    for view in ("table", "hands", "settle", "log"):
        pages.append(host.get(f"/s/{sid}/state?view={view}&since=0").get_json()["regions"]["main"])
    for page in pages:
        assert HOSTILE not in page and AMPERSAND not in page
        assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert all("A&lt;B &amp; &#34;C&#34;" in page for page in pages[-4:])
    log = host.get(f"/s/{sid}/log").get_data(as_text=True)
    assert '<span class="device">&lt;img src=x onerror=alert(1)&gt;</span>' in log  # the amending device
    # the news line is JSON text that live.js shows with textContent (never parsed as HTML)
    viewer = phone(app, body["links"]["viewer"])
    news = viewer.get(f"/s/{sid}/state?view=table&since=1").get_json()["news"]
    assert news == ["Hand 2 corrected (version 1 → 2)", f"{AMPERSAND} paid {HOSTILE} $0.10", "Hand 2 voided"]
    script = (REPO / "static" / "live.js").read_text(encoding="utf-8")
    assert "box.textContent = lines.join" in script and script.count("innerHTML") == 1  # one sink: server-rendered regions and rows
