"""The README's first evening (issue 23 item 9) says what the code does: the Classic rules' real
seat limit, the start form's real "House rules" and "Most players" labels, Ctrl+C stopping
``serve``, and ``make demo`` reaching the server on the same ``PORT`` as ``make run``."""
from __future__ import annotations

import html
import re
import signal
from pathlib import Path
from typing import Any

from ledger import cli
from ledger.games.tonk.ruleset import PRESETS, TOGGLES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def first_evening() -> str:
    match = re.search(r"^## A first evening\n(.*?)(?=^## )", README, re.S | re.M)
    assert match, "README.md has no 'A first evening' section"
    return " ".join(match.group(1).split())


def makefile_recipe(target: str) -> str:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(rf"^{target}:[^\n]*\n((?:\t[^\n]*\n)+)", text, re.M)
    assert match, f"Makefile has no {target} target"
    return match.group(1)


def test_the_seat_limit_is_the_classic_presets_and_the_house_rules_raise_it(client: Any) -> None:
    section = first_evening()
    classic = PRESETS["classic"]
    most = classic.ruleset().max_players
    assert most == 4
    assert f"the {classic.title_template} rules seat at most {most} players" in section
    assert f"(up to {TOGGLES['max_players'].maximum})" in section

    page = client.get("/")
    assert page.status_code == 200
    body = html.unescape(page.get_data(as_text=True))
    summary = re.search(r'<details class="house-rules" id="house-rules"[^>]*>\s*<summary>(.*?)</summary>', body, re.S)
    assert summary
    house_rules = re.sub(r"<[^>]+>", " ", summary.group(1)).split()
    assert " ".join(house_rules[:2]) == "House rules"
    assert "**House rules** on the start form" in section

    players = re.search(r"<legend>Players</legend>(.*?)</fieldset>", body, re.S)
    assert players, "the House rules have no Players group"
    label = re.search(r'<label class="hr-label" for="rule-max_players">([^<]+)', players.group(1))
    assert label and label.group(1).strip() == "Most players"
    assert re.search(rf'name="rule-max_players"[^>]*value="{most}"', players.group(1), re.S)
    assert "raise **Most players** in its **Players** group" in section
    assert '"Add a seat"' in section and "Add a seat" in body


def test_ctrl_c_stops_the_server() -> None:
    assert "Ctrl+C" in first_evening()
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        cli._stop_on_signals()
        handler = signal.getsignal(signal.SIGINT)
        assert callable(handler) and handler is not signal.default_int_handler
        try:
            handler(signal.SIGINT, None)
        except SystemExit as stopped:
            assert stopped.code == 0
        else:
            raise AssertionError("Ctrl+C did not stop serve")
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def test_make_demo_takes_the_same_port_as_make_run() -> None:
    section = first_evening()
    assert "`make run PORT=8080`, then in a second terminal `make demo PORT=8080`" in section
    assert "--port $(PORT)" in makefile_recipe("run")
    assert "http://127.0.0.1:$(PORT)" in makefile_recipe("demo")
