"""Issue 11 item 5: PDFs render off the request threads. Through the API (the app's own worker
pool, :mod:`ledger.statements.render_pool`): two downloads of the same uncached pack render it once, and a
hand is recorded while a pack renders. "While" is read from the pool's state (a render pending),
never from a clock."""
from __future__ import annotations

import threading
from typing import Any

import pytest

from ledger.night import lifecycle as ledger_night
from ledger.storage.db import get_session
from ledger.statements.render_pool import pool

PLAYERS = ("Dee", "Marcus", "Rosa", "Tomás", "Zoë", "Łukasz", "Priya", "Sam")
HANDS = 200  # a pack that takes a while to render


def long_night(app: Any, client: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/v1/sessions", json={
        "name": "Long night", "currency": "USD", "stake": 25, "players": list(PLAYERS),
        "ruleset": {"preset": "classic", "toggles": {"max_players": 8}}, "first_dealer": PLAYERS[0]}).get_json()
    with app.app_context():
        db = get_session()
        night = ledger_night.find_night(db, created["id"])
        for i in range(HANDS):
            winner = PLAYERS[(i * 3 + i // 7) % len(PLAYERS)]
            ledger_night.record_hand(db, night, ledger_night.Submission({"kind": "discard_out", "winner": winner}, None))
    return created["id"], {"Authorization": f"Bearer {created['token']}"}


def the_pool(app: Any) -> Any:
    with app.app_context():
        return pool()


def wait_for(condition: Any) -> None:
    event = threading.Event()
    for _ in range(12000):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("the pool never reached the state waited for")


def download(app: Any, url: str, headers: dict[str, str], into: list[Any]) -> None:
    response = app.test_client().get(url, headers=headers)
    into.append((response.status_code, response.data))


@pytest.mark.slow
def test_two_downloads_of_the_same_uncached_pack_render_it_once(app: Any, client: Any) -> None:
    session_id, headers = long_night(app, client)
    url = f"/api/v1/sessions/{session_id}/statements.pdf"
    renders = the_pool(app)
    before = (renders.renders, renders.joined)
    answers: list[Any] = []
    first = threading.Thread(target=download, args=(app, url, headers, answers))
    first.start()
    wait_for(lambda: renders.pending() == 1)
    second = threading.Thread(target=download, args=(app, url, headers, answers))
    second.start()
    first.join(300)
    second.join(300)
    assert [status for status, _ in answers] == [200, 200]
    assert answers[0][1] == answers[1][1] and answers[0][1].startswith(b"%PDF")
    assert (renders.renders - before[0], renders.joined - before[1]) == (1, 1)
    again = client.get(url, headers=headers)  # unchanged night: from the cache
    assert again.data == answers[0][1] and renders.renders - before[0] == 1


@pytest.mark.slow
def test_a_hand_is_recorded_while_a_pack_renders(app: Any, client: Any) -> None:
    session_id, headers = long_night(app, client)
    url = f"/api/v1/sessions/{session_id}/statements.pdf"
    renders = the_pool(app)
    started = renders.renders
    answers: list[Any] = []
    downloading = threading.Thread(target=download, args=(app, url, headers, answers))
    downloading.start()
    wait_for(lambda: renders.pending() == 1)
    recorded = client.post(f"/api/v1/sessions/{session_id}/hands",
                           json={"outcome": {"kind": "tonk_out", "winner": "Rosa"}, "hands": {}}, headers=headers)
    still_rendering = renders.pending() == 1
    assert recorded.status_code == 201 and recorded.get_json()["number"] == HANDS + 1
    assert still_rendering  # the hand was saved while the pack was being made
    downloading.join(300)
    assert answers[0][0] == 200 and answers[0][1].startswith(b"%PDF")
    after = client.get(url, headers=headers)  # the night changed: a new render, with the new hand
    assert after.status_code == 200 and after.data != answers[0][1]
    assert renders.renders - started == 2


@pytest.fixture
def impatient_app(database_url: str) -> Any:
    from ledger import create_app

    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "PDF_TIMEOUT": 0.001})
    yield app
    app.extensions["ledger.engine"].dispose()


def test_a_render_longer_than_the_wait_is_503_pdf_busy_then_served_from_the_cache(
    impatient_app: Any, night_data: dict[str, Any]
) -> None:
    client = impatient_app.test_client()
    body = {k: night_data[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    created = client.post("/api/v1/sessions", json=body).get_json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    for hand in night_data["hands"][:5]:
        assert client.post(f"/api/v1/sessions/{created['id']}/hands", headers=headers,
                           json={"outcome": hand["outcome"], "hands": hand["hands"]}).status_code == 201
    renders = the_pool(impatient_app)
    started = renders.renders
    url = f"/api/v1/sessions/{created['id']}/summary.pdf"
    busy = client.get(url, headers=headers)
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "5"
    assert busy.get_json() == {"error": "pdf_busy", "field": None, "retry_after": 5,
                               "message": "The PDF is still being made; ask for it again in a few seconds."}
    wait_for(lambda: renders.pending() == 0)  # the render went on without anyone waiting
    served = client.get(url, headers=headers)
    assert served.status_code == 200 and served.data.startswith(b"%PDF")
    assert renders.renders - started == 1  # from the cache
    phone = impatient_app.test_client()
    phone.get(f"/join/{created['id']}/{created['player_token']}")
    page = phone.get(f"/s/{created['id']}/statements.pdf")  # the pack is not rendered yet
    assert page.status_code == 503 and page.headers["Refresh"] == "5"
    assert "The PDF is still being made. This page asks for it again in a few seconds." in page.get_data(as_text=True)
    wait_for(lambda: renders.pending() == 0)
