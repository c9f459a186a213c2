"""Revoking and rotating on the phone pages (issue 20 item 6): the host removes a phone after a
confirm page, makes new links and code (the old link then opens nothing, joined phones go on),
and issues a new recovery code that works once; a co-host and a player see no such buttons."""
from __future__ import annotations

import re
from typing import Any

import pytest

from test_web_hosts import recovery_code_on
from test_web_pages import csrf_of, flashes, start_night
from test_web_sharing import phone_joined, share_panel


@pytest.fixture
def host(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    session_id = start_night(client, night_data)
    page = client.get(f"/s/{session_id}?share=1").get_data(as_text=True)
    return {"client": client, "id": session_id, "page": page, "share": share_panel(page)}


def phone_ids(page: str) -> list[str]:
    return re.findall(r'id="phone-(\d+)"', page)


def test_the_host_removes_a_phone_after_a_confirm_page(host: dict[str, Any]) -> None:
    client, sid = host["client"], host["id"]
    player = phone_joined(client, host["share"]["player"])
    phones = client.get(f"/s/{sid}/phones").get_data(as_text=True)
    own, other = phone_ids(phones)
    assert f"/phones/{other}/remove" in phones and f"/phones/{own}/remove" not in phones  # never itself
    assert "/remove" not in player.get(f"/s/{sid}/phones").get_data(as_text=True)

    asked = client.post(f"/s/{sid}/phones/{other}/remove", data={"csrf_token": csrf_of(phones)})
    assert asked.status_code == 200 and 'name="confirmed" value="yes"' in asked.get_data(as_text=True)
    assert player.get(f"/s/{sid}").status_code == 200  # nothing removed yet
    # the form needs its CSRF token like every other
    assert client.post(f"/s/{sid}/phones/{other}/remove", data={"confirmed": "yes"}).status_code == 400
    done = client.post(f"/s/{sid}/phones/{other}/remove", data={"confirmed": "yes", "csrf_token": csrf_of(phones)})
    assert done.status_code == 302
    page = client.get(done.headers["Location"]).get_data(as_text=True)
    assert flashes(page)[0].endswith("was removed: it no longer opens this night.")
    assert phone_ids(page) == [own]
    assert player.get(f"/s/{sid}").status_code == 403
    assert "removed from the night" in client.get(f"/s/{sid}/log").get_data(as_text=True)


def test_new_links_and_code_replace_the_old_ones(host: dict[str, Any], client: Any) -> None:
    c, sid = host["client"], host["id"]
    player = phone_joined(c, host["share"]["player"])
    phones = c.get(f"/s/{sid}/phones").get_data(as_text=True)
    asked = c.post(f"/s/{sid}/rotate", data={"csrf_token": csrf_of(phones)})
    assert asked.status_code == 200 and "stop working at once" in asked.get_data(as_text=True)
    done = c.post(f"/s/{sid}/rotate", data={"confirmed": "yes", "csrf_token": csrf_of(phones)})
    assert done.status_code == 302
    table = c.get(done.headers["Location"]).get_data(as_text=True)
    new = share_panel(table)
    assert new["code"] != host["share"]["code"] and new["player"] != host["share"]["player"]
    assert recovery_code_on(table)  # the new recovery code, shown this once
    # the phone that joined goes on; the old link and code let no new phone in
    assert player.get(f"/s/{sid}").status_code == 200
    stranger = client.application.test_client()
    old_link = re.sub(r"^https?://[^/]+", "", host["share"]["player"])
    stranger.get(old_link)
    assert stranger.get(f"/s/{sid}").status_code == 403
    assert phone_joined(c, new["player"]).get(f"/s/{sid}").status_code == 200


def test_a_new_recovery_code_is_shown_once_and_works_once(host: dict[str, Any], client: Any) -> None:
    c, sid = host["client"], host["id"]
    old = recovery_code_on(host["page"])
    phones = c.get(f"/s/{sid}/phones").get_data(as_text=True)
    shown = c.post(f"/s/{sid}/recovery", data={"csrf_token": csrf_of(phones)})
    assert shown.status_code == 200
    code = recovery_code_on(shown.get_data(as_text=True))
    assert code and code != old
    assert recovery_code_on(c.get(f"/s/{sid}/phones").get_data(as_text=True)) is None
    new_phone = client.application.test_client()
    form = new_phone.get("/recover").get_data(as_text=True)
    stale = new_phone.post("/recover", data={"code": old, "csrf_token": csrf_of(form)})
    assert stale.status_code == 410 and "no longer works" in stale.get_data(as_text=True)
    assert new_phone.post("/recover", data={"code": code, "csrf_token": csrf_of(form)}).status_code == 302
    again = client.application.test_client()
    form = again.get("/recover").get_data(as_text=True)
    assert again.post("/recover", data={"code": code, "csrf_token": csrf_of(form)}).status_code == 410
    # the recovered phone is told to make new links, and may
    recovered = new_phone.get(f"/s/{sid}/phones").get_data(as_text=True)
    assert "cannot show the old links" in recovered and 'id="rotate"' in recovered


def test_a_co_host_sees_no_remove_or_renew_buttons_and_is_refused(host: dict[str, Any]) -> None:
    c, sid = host["client"], host["id"]
    friend = phone_joined(c, host["share"]["player"])
    phones = c.get(f"/s/{sid}/phones").get_data(as_text=True)
    own, other = phone_ids(phones)
    c.post(f"/s/{sid}/phones/{other}/host", data={"csrf_token": csrf_of(phones)})
    page = friend.get(f"/s/{sid}/phones").get_data(as_text=True)
    assert "/remove" not in page and 'id="rotate"' not in page and "a co-host cannot" in page
    form = friend.get(f"/s/{sid}/record").get_data(as_text=True)
    refused = friend.post(f"/s/{sid}/phones/{own}/remove", data={"confirmed": "yes", "csrf_token": csrf_of(form)})
    assert refused.status_code == 302
    assert "a co-host cannot" in friend.get(refused.headers["Location"]).get_data(as_text=True)
    asked = friend.post(f"/s/{sid}/rotate", data={"csrf_token": csrf_of(form)})  # no confirm page for it
    assert asked.status_code == 302
    assert "a co-host cannot" in friend.get(asked.headers["Location"]).get_data(as_text=True)
    assert c.get(f"/s/{sid}").status_code == 200
