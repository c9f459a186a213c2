"""A Tong-its night file (TONGITS.md §8.4) loaded as a night (``tonk-ledger demo``, issue 21 item 5):
replayed through the engine first, each hand from the pot and dealer the hands before it left,
and refused, with nothing stored, when any figure it claims disagrees. The Tonk night loads as
before (tests/test_api_sessions.py). Real database."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, create_engine, func, select

from ledger.cli import load_night
from ledger.games.tongits.night_file import NightFileMismatch, replay_night
from ledger.storage.models import GameSession
from tests.test_tongits_ledger import NIGHT, tongits_night


def nights_stored(database_url: str) -> int:
    engine = create_engine(database_url)
    try:
        with Session(engine) as db:
            return int(db.exec(select(func.count()).select_from(GameSession)).one())
    finally:
        engine.dispose()


def test_the_shared_night_file_loads_as_a_tongits_night(app: Any, client: Any) -> None:
    data = tongits_night()
    session_id, token, count = load_night(app, NIGHT)
    assert count == data["expected"]["hands_recorded"]
    body = client.get(f"/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["game"] == "tongits"
    assert body["net"] == data["expected"]["net"]
    assert body["pot"]["balance_minor"] == data["expected"]["pot_balance"]


def test_the_replay_gives_the_files_figures() -> None:
    data = tongits_night()
    replayed = replay_night(data)
    assert replayed.net == data["expected"]["net"] and replayed.pot_balance == data["expected"]["pot_balance"]
    assert replayed.close.to_json() == data["expected"]["close"]


@pytest.mark.parametrize(("change", "path"), [
    (lambda d: d["hands"][5]["expected"]["net"].__setitem__("Ligaya", 1), "hands[5].expected.net"),
    (lambda d: d["hands"][6]["pot"].__setitem__("balance", 999), "hands[6].pot"),
    (lambda d: d["hands"][3].__setitem__("dealer", "Marisol" if d["hands"][3]["dealer"] != "Marisol" else "Ligaya"),
     "hands[3].dealer"),
    (lambda d: d["expected"].__setitem__("pot_balance", 0), "expected.pot_balance"),
    (lambda d: d["expected"]["net_after_close"].__setitem__("Dodong", 0), "expected.net_after_close"),
], ids=["hand-net", "pot-input", "dealer", "pot-balance", "net-after-close"])
def test_a_night_file_whose_figures_disagree_is_refused_and_nothing_stored(
        app: Any, database_url: str, tmp_path: Path, change: Any, path: str) -> None:
    data = tongits_night()
    change(data)
    bad = tmp_path / "night.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = nights_stored(database_url)
    with pytest.raises(NightFileMismatch) as refused:
        load_night(app, bad)
    assert refused.value.path == path
    assert nights_stored(database_url) == before
