"""Every worked hand of RULES.md (the shared vectors) through the engine and POST /api/v1/score."""
from __future__ import annotations

from typing import Any

import pytest

from conftest import SHARED, TESTS, load_json
from ledger.games.tonk import HandError, score_entry

VECTORS: list[dict[str, Any]] = load_json("vectors/hands.json")


def is_classic(vector: dict[str, Any]) -> bool:
    return (
        vector["ruleset"]["preset"] == "classic"
        and not vector["ruleset"]["toggles"]
        and "side_bets" not in vector
    )


def result_of(vector: dict[str, Any]) -> dict[str, Any]:
    try:
        result = score_entry(vector)
    except HandError as err:
        return {"error": err.code}
    out: dict[str, Any] = {"transfers": [t.to_json() for t in result.transfers], "net": result.net}
    if result.redeal:
        out["redeal"] = True
    return out


def test_vector_copy_matches_shared() -> None:
    shared = SHARED / "vectors" / "hands.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert (TESTS / "vectors" / "hands.json").read_bytes() == shared.read_bytes()


def test_vectors_cover_every_preset_and_classic() -> None:
    presets = {v["ruleset"]["preset"] for v in VECTORS}
    assert presets == {"classic", "pagat_literal", "wikipedia", "texas", "black_company"}
    assert sum(is_classic(v) for v in VECTORS) >= 40


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_engine_matches_vector(vector: dict[str, Any]) -> None:
    assert result_of(vector) == vector["expected"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_score_endpoint_matches_vector(client: Any, vector: dict[str, Any]) -> None:
    response = client.post("/api/v1/score", json=vector)
    body = response.get_json()
    expected = vector["expected"]
    if "error" in expected:
        assert response.status_code == 422
        assert body["error"] == expected["error"]
        assert isinstance(body["message"], str) and body["message"]
        assert "field" in body
    else:
        assert response.status_code == 200, body
        assert body["transfers"] == expected["transfers"]
        assert body["net"] == expected["net"]
        assert body["redeal"] is expected.get("redeal", False)


ERROR_VECTORS = [v for v in VECTORS if "error" in v["expected"]]


@pytest.mark.parametrize("vector", ERROR_VECTORS, ids=[v["id"] for v in ERROR_VECTORS])
def test_refusals_name_the_player_concerned(vector: dict[str, Any]) -> None:
    """A refusal that points into a player's hand, spade bet or the outcome names that player."""
    with pytest.raises(HandError) as caught:
        score_entry(vector)
    err = caught.value
    assert err.message.endswith(".") and len(err.message) > 20
    parts = (err.field or "").replace("[", ".").split(".")
    if parts[0] == "hands" or parts[:3] == ["side_bets", "spade", "highest_spade"]:
        player = parts[1] if parts[0] == "hands" else parts[3]
        assert player in err.message, err.message
    if parts[0] == "outcome" and parts[1] in ("knocker", "winner", "claimed_winner"):
        assert vector["outcome"][parts[1]] in err.message
