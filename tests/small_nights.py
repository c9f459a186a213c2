"""A small night through the API for the tests of single behaviours: Ann, Bob and Cat at a
25-cent stake (classic rules)."""
from __future__ import annotations

from typing import Any


def ann_bob_cat(client: Any, *winners: str) -> dict[str, Any]:
    """Start the night and record a tonk out by each of ``winners`` in turn; returns the
    night's ``id``, host ``token``, API ``url`` and the host's ``headers``."""
    created = client.post("/api/v1/sessions", json={"name": "Ann, Bob and Cat", "currency": "USD", "stake": 25,
                                                     "ruleset": {"preset": "classic"},
                                                     "players": ["Ann", "Bob", "Cat"]})
    assert created.status_code == 201, created.get_json()
    night = created.get_json()
    url, headers = f"/api/v1/sessions/{night['id']}", {"Authorization": f"Bearer {night['token']}"}
    for winner in winners:
        recorded = client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": winner}},
                               headers=headers)
        assert recorded.status_code == 201, recorded.get_json()
    return {"id": night["id"], "token": night["token"], "url": url, "headers": headers}
