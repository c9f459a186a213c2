"""Small live updates: ``/state`` answers 304 to its own ETag while nothing changed, the hand
history is paged 50 hand numbers a page (the live region follows page 1), and the table page
shows the last hands and the total from the counter."""
from __future__ import annotations

import re
from typing import Any


def record(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any], count: int) -> None:
    for i in range(count):
        hand = night_data["hands"][i % len(night_data["hands"])]
        response = client.post(f"/api/v1/sessions/{watched_table['id']}/hands",
                               headers=watched_table["headers"] | {"X-Device": "score keeper's laptop"},
                               json={"outcome": hand["outcome"], "hands": hand["hands"]})
        assert response.status_code == 201, response.get_json()


def test_state_is_304_to_its_own_etag_until_the_night_changes(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    url = f"/s/{watched_table['id']}/state?view=table"
    first = watched_table["phone"].get(url)
    assert first.status_code == 200 and first.headers["ETag"]
    version = first.get_json()["version"]
    again = watched_table["phone"].get(f"{url}&since={version}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Cache-Control"] == "no-store"

    record(client, watched_table, night_data, 1)
    changed = watched_table["phone"].get(f"{url}&since={version}", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200
    body = changed.get_json()
    assert body["changed"] is True and body["version"] > version
    assert [line.split(":")[0] for line in body["news"]] == ["Hand 1 recorded"]  # another device did it
    assert changed.headers["ETag"] != first.headers["ETag"]
    # another view of the same version is another answer
    hands = watched_table["phone"].get(f"/s/{watched_table['id']}/state?view=hands", headers={"If-None-Match": changed.headers["ETag"]})
    assert hands.status_code == 200


def test_history_is_paged_fifty_hand_numbers_a_page(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    record(client, watched_table, night_data, 53)
    first = watched_table["phone"].get(f"/s/{watched_table['id']}/hands").get_data(as_text=True)
    assert 'id="hand-53"' in first and 'id="hand-4"' in first and 'id="hand-3"' not in first
    assert "Page 1 of 2" in first and "data-live-region" in first
    second = watched_table["phone"].get(f"/s/{watched_table['id']}/hands?page=2").get_data(as_text=True)
    assert 'id="hand-3"' in second and 'id="hand-1"' in second and 'id="hand-4"' not in second
    assert "Page 2 of 2" in second and "data-live-region" not in second
    assert watched_table["phone"].get(f"/s/{watched_table['id']}/hands?page=3").status_code == 404
    # the live region follows page 1
    state = watched_table["phone"].get(f"/s/{watched_table['id']}/state?view=hands").get_json()
    assert 'id="hand-53"' in state["regions"]["main"] and 'id="hand-3"' not in state["regions"]["main"]


def test_table_shows_the_last_five_hands_and_the_total(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    record(client, watched_table, night_data, 7)
    page = watched_table["phone"].get(f"/s/{watched_table['id']}").get_data(as_text=True)
    assert all(f'id="hand-{n}"' in page for n in range(3, 8))
    assert 'id="hand-2"' not in page
    assert "All 7 hands" in page


def test_table_finds_the_last_counted_hand_behind_five_voided_ones(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """The table reads its counters from the night's row and the last counted hand from the five
    it shows; when all five are void it looks further back, and still equals a recomputation."""
    from kept_figures import checked_table
    from ledger.storage.db import get_session

    record(client, watched_table, night_data, 8)
    for number in range(3, 9):
        voided = client.post(f"/api/v1/sessions/{watched_table['id']}/hands/{number}/void",
                             headers=watched_table["headers"], json={"reason": "misdeal"})
        assert voided.status_code == 200, voided.get_json()
    with client.application.test_request_context():
        shown = checked_table(get_session(), watched_table["id"])
    assert (shown["undo_number"], shown["hand_count"], shown["next_number"]) == (2, 2, 9)
    expected = {p: 0 for p in night_data["players"]}
    for hand in night_data["hands"][:2]:
        for player, amount in hand["expected"]["net"].items():
            expected[player] += amount
    assert dict(shown["balances"]) == expected
    page = watched_table["phone"].get(f"/s/{watched_table['id']}").get_data(as_text=True)
    assert "All 8 hands" in page and 'name="number" value="2"' in page


def test_the_log_is_paged_fifty_changes_a_page(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """The log shows the newest fifty changes (its live region too), older pages behind a link,
    and reads only that page's events and the hands they name."""
    record(client, watched_table, night_data, 60)
    events = client.get(f"/api/v1/sessions/{watched_table['id']}/history", headers=watched_table["headers"]).get_json()["events"]
    ids = sorted(e["id"] for e in events)
    assert len(ids) > 60
    phone, base = watched_table["phone"], f"/s/{watched_table['id']}/log"
    first = phone.get(base).get_data(as_text=True)
    shown = [int(n) for n in re.findall(r'id="event-(\d+)"', first)]
    assert shown == sorted(ids, reverse=True)[:50]  # the newest fifty, newest first
    assert "Hand 60 recorded" in first and "Hand 3 recorded" not in first
    assert f'href="{base}?page=2"' in first and "Older changes ›" in first and "‹ Newer changes" not in first
    region = phone.get(f"/s/{watched_table['id']}/state?view=log").get_json()["regions"]["main"]
    assert [int(n) for n in re.findall(r'id="event-(\d+)"', region)] == shown
    second = phone.get(f"{base}?page=2").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'id="event-(\d+)"', second)] == sorted(ids, reverse=True)[50:100]
    assert "Night started" in second and "Hand 3 recorded" in second
    assert f'href="{base}?page=1"' in second and "Older changes ›" not in second
    assert "data-live-region" not in second  # only the newest page follows the night
    assert phone.get(f"{base}?page=3").status_code == 404


def test_the_table_counts_hands_recorded_after_the_night_was_read(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """A poll reads the night's row, then its version, then the table: on PostgreSQL each
    statement sees the latest commit, so a hand recorded between the first two is in the version
    and must be in the counts too (else every later poll is a 304 to stale counts)."""
    from ledger.access.roles import SYSTEM
    from ledger.storage.db import get_session
    from ledger.storage.models import GameSession
    from ledger.web.views import table_state

    record(client, watched_table, night_data, 3)
    with client.application.test_request_context():
        db = get_session()
        night = db.get(GameSession, watched_table["id"])
        assert night is not None and night.counted_hands == 3
        db.commit()  # the read ends: what another phone commits now is seen by the next statement
        record(client, watched_table, night_data, 1)
        shown = table_state(db, night, SYSTEM)
    assert (shown["hand_count"], shown["total_hands"], shown["next_number"]) == (4, 4, 5)
    assert [row["number"] for row in shown["recent"]] == [4, 3, 2, 1]


def test_a_void_or_restore_on_an_older_page_goes_back_to_that_page(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """Hand 30 of 120 is on history page 2 (hands 71–120 are page 1): voiding or restoring it
    there comes back to page 2 at its row; a hand of page 1 comes back to the plain address."""
    record(client, watched_table, night_data, 120)
    phone, base = watched_table["phone"], f"/s/{watched_table['id']}/hands"
    page_three = phone.get(f"{base}?page=3").get_data(as_text=True)
    assert 'id="hand-20"' in page_three and 'id="hand-21"' not in page_three  # page 3: hands 1–20
    confirm = phone.get(f"{base}?page=2")
    assert confirm.status_code == 200 and 'id="hand-30"' in confirm.get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', confirm.get_data(as_text=True))
    assert csrf is not None
    voided = phone.post(f"/s/{watched_table['id']}/hands/30/void", data={"confirmed": "yes", "csrf_token": csrf[1]})
    assert voided.status_code == 302 and voided.headers["Location"] == f"{base}?page=2#hand-30"
    asked = phone.post(f"/s/{watched_table['id']}/hands/30/void", data={"csrf_token": csrf[1]})
    assert f'href="{base}?page=2#hand-30"' in asked.get_data(as_text=True)  # the confirm page's way back
    restored = phone.post(f"/s/{watched_table['id']}/hands/30/restore", data={"csrf_token": csrf[1]})
    assert restored.status_code == 302 and restored.headers["Location"] == f"{base}?page=2#hand-30"
    newest = phone.post(f"/s/{watched_table['id']}/hands/120/void", data={"confirmed": "yes", "csrf_token": csrf[1]})
    assert newest.headers["Location"] == f"{base}#hand-120"


def test_page_numbers_that_are_not_pages(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]) -> None:
    """Anything but a plain page number shows page 1; a page past the last, however long its
    number, is 404; never a 500."""
    record(client, watched_table, night_data, 3)
    phone = watched_table["phone"]
    for path in ("hands", "log"):
        for text in ("abc", "-1", "0", "2.0", "²", "+2", ""):
            response = phone.get(f"/s/{watched_table['id']}/{path}?page={text}")
            assert response.status_code == 200 and "data-live-region" in response.get_data(as_text=True), (path, text)
        for text in ("2", "99999999", "99999999999", "9" * 5000):
            assert phone.get(f"/s/{watched_table['id']}/{path}?page={text}").status_code == 404, (path, text)
