"""Every worked Tong-its entry of TONGITS.md (the 114 shared vectors) through the engine
(``game("tongits").score_entry``) and through ``POST /api/v1/score`` with ``"game": "tongits"``."""
from __future__ import annotations

from typing import Any

import pytest

from conftest import SHARED, TESTS, load_json
from ledger.games import HandError, game
from ledger.games.tongits.errors import ALL_CODES

VECTORS: list[dict[str, Any]] = load_json("vectors/tongits/hands.json")
ERROR_VECTORS = [v for v in VECTORS if "error" in v["expected"]]


def result_of(vector: dict[str, Any]) -> dict[str, Any]:
    try:
        return game("tongits").score_entry(vector).to_json()
    except HandError as err:
        return {"error": err.code}


def test_vector_copy_matches_shared() -> None:
    shared = SHARED / "games" / "tongits" / "vectors" / "hands.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert (TESTS / "vectors" / "tongits" / "hands.json").read_bytes() == shared.read_bytes()


def test_vectors_cover_every_preset_outcome_and_code() -> None:
    assert len(VECTORS) == 114
    valid = [v for v in VECTORS if "error" not in v["expected"]]
    assert {v["ruleset"]["preset"] for v in valid} == {"classic", "points", "percent_of_ante", "growing_pot"}
    kinds = {v["outcome"]["kind"] for v in VECTORS if isinstance(v.get("outcome"), dict)}
    assert kinds >= {"tongits", "draw", "stock_out", "redeal", "close_pot"}
    assert {v["expected"]["error"] for v in ERROR_VECTORS} == ALL_CODES


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_engine_matches_vector(vector: dict[str, Any]) -> None:
    assert result_of(vector) == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_score_endpoint_matches_vector(client: Any, vector: dict[str, Any]) -> None:
    response = client.post("/api/v1/score", json={"game": "tongits", **vector})
    body = response.get_json()
    expected = vector["expected"]
    if "error" in expected:
        assert response.status_code == 422, body
        assert body["error"] == expected["error"]
        assert isinstance(body["message"], str) and body["message"].endswith(".")
        assert "field" in body
    else:
        assert response.status_code == 200, body
        assert body == expected


@pytest.mark.parametrize("vector", ERROR_VECTORS, ids=[v["id"] for v in ERROR_VECTORS])
def test_refusals_name_the_player_concerned(vector: dict[str, Any]) -> None:
    """A refusal that points into a player's hand or answer names that player, in a whole sentence."""
    with pytest.raises(HandError) as caught:
        game("tongits").score_entry(vector)
    err = caught.value
    assert err.message.endswith(".") and len(err.message) > 15
    parts = (err.field or "").replace("[", ".").split(".")
    if parts[0] == "hands" or (parts[:2] == ["outcome", "responses"] and len(parts) > 2):
        player = parts[1] if parts[0] == "hands" else parts[2]
        assert player in err.message, err.message


def test_unknown_game_is_400_naming_the_field(client: Any) -> None:
    entry = {**VECTORS[0], "game": "mahjong"}
    response = client.post("/api/v1/score", json=entry)
    assert response.status_code == 400
    body = response.get_json()
    assert body["error"] == "invalid_game"
    assert body["field"] == "game"
    assert "tongits" in body["message"] and "'mahjong'" in body["message"]
    for bad in (5, ["tongits"], {"name": "tongits"}, "Tongits", ""):
        response = client.post("/api/v1/score", json={**VECTORS[0], "game": bad})
        assert (response.status_code, response.get_json()["error"]) == (400, "invalid_game"), bad


def test_game_tonk_or_absent_scores_tonk_unchanged(client: Any) -> None:
    tonk = load_json("vectors/hands.json")[0]
    plain = client.post("/api/v1/score", json=tonk)
    named = client.post("/api/v1/score", json={**tonk, "game": "tonk"})
    null = client.post("/api/v1/score", json={**tonk, "game": None})
    assert plain.status_code == named.status_code == null.status_code == 200
    assert plain.get_json() == named.get_json() == null.get_json()
    assert plain.get_json()["net"] == tonk["expected"]["net"]


def test_a_tongits_entry_without_game_is_read_as_tonk(client: Any) -> None:
    """No ``game``: Tonk, as before; a Tong-its entry is not a Tonk one."""
    response = client.post("/api/v1/score", json=VECTORS[0])
    assert response.status_code == 422
    assert response.get_json()["error"] != "invalid_game"


def test_refusal_is_translated(client: Any) -> None:
    bad = next(v for v in ERROR_VECTORS if v["id"] == "bad-burned-fights")
    english = client.post("/api/v1/score", json={"game": "tongits", **bad}).get_json()
    filipino = client.post("/api/v1/score?lang=fil", json={"game": "tongits", **bad}).get_json()
    assert english["error"] == filipino["error"] == "burned_cannot_fight"
    assert filipino["message"] != english["message"]
    assert "sunog" in filipino["message"]
