"""Rough edges from trying the app as a new user: a night without a typed name gets one, the
Nights list shows each night's date and status, the rules page speaks without spec section
numbers, the step counter never changes its total, and ``make demo`` prints the host's link."""
from __future__ import annotations

import re
import subprocess
import sys
from datetime import datetime, timezone
from typing import Any

from test_web_pages import csrf_of, start_form, start_night
from test_web_rules import Phone

from ledger.web.start_form import default_name


def test_a_night_without_a_typed_name_is_named_after_its_day(client: Any, night_data: dict[str, Any]) -> None:
    friday = datetime(2026, 1, 3, 4, 30, tzinfo=timezone.utc)  # still Friday evening in Los Angeles
    assert default_name("America/Los_Angeles", friday) == "Friday night, 2 January"
    assert default_name("Europe/Paris", friday) == "Saturday night, 3 January"
    token = csrf_of(client.get("/").get_data(as_text=True))
    response = client.post("/", data=start_form(night_data, csrf_token=token, name="  ", timezone="UTC"))
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    today = datetime.now(timezone.utc)
    assert re.search(rf'class="bar-title" title="\w+day night at Dee&#39;s, {today.day} {today:%B}"', page)


def test_the_nights_list_shows_date_and_status(client: Any, night_data: dict[str, Any]) -> None:
    session_id = start_night(client, night_data)
    home = client.get("/").get_data(as_text=True)
    meta = re.search(r'<span class="night-meta">([^<]+)</span>', home)
    assert meta
    today = datetime.now(timezone.utc)
    assert meta.group(1).startswith(f"{today:%a} {today.day} {today:%b %Y} · open · Dee, Marcus")
    assert session_id in home


def test_rules_page_and_presets_speak_plainly(client: Any, night_data: dict[str, Any]) -> None:
    session_id = start_night(client, night_data)
    rules = client.get(f"/s/{session_id}/rules").get_data(as_text=True)
    home = client.get("/").get_data(as_text=True)
    for page in (rules, home):
        assert "§" not in page and "spec" not in page.lower()


def test_the_step_counter_keeps_its_total(client: Any, night_data: dict[str, Any]) -> None:
    session_id = start_night(client, night_data)
    phone = Phone(client, session_id).open()
    assert "Step 1</p>" in phone.page and " of " not in re.search(r'<p class="step-count">([^<]*)</p>', phone.page).group(1)
    counters = []
    phone.outcome("tonk_out")
    counters.append(re.search(r"Step (\d) of (\d)", phone.page).groups())
    phone.next(who="0")
    counters.append(re.search(r"Step (\d) of (\d)", phone.page).groups())
    assert counters == [("2", "3"), ("3", "3")]


def test_make_demo_prints_the_hosts_link(tmp_path: Any) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}", "SECRET_KEY": "demo", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "ledger.cli", "demo", "--base-url", "http://table.local:8000"],
                         capture_output=True, text=True, env=env, check=True, timeout=120).stdout
    host = re.search(r"Host's link \(this phone can correct, void, undo and close\): (\S+)", out)
    token = re.search(r"API token \(host\): (\S+)", out)
    assert host and token and host.group(1).endswith("/" + token.group(1))
    assert re.search(r"Players' link \(for the other phones\): http://table\.local:8000/join/\S+", out)
    assert re.search(r"Recovery code \(makes another phone the host\): [A-Z2-9]{4}(-[A-Z2-9]{4}){3}", out)
