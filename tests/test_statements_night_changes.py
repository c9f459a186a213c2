"""Issue 13 in the PDFs: the summary and the statements show where the stake changed, mark
who left, and a leaver's statement reads "as of hand N" (read back with pdftotext)."""
from __future__ import annotations

from typing import Any

from conftest import session_body
from test_statements import flat, pdftotext, pytestmark  # noqa: F401  (needs pdftotext)

TONK = {"outcome": {"kind": "tonk_out", "winner": "Rosa"}, "hands": {"Rosa": {"cards": []}}}
OUT = {"outcome": {"kind": "discard_out", "winner": "Dee"}, "hands": {"Dee": {"cards": []}}}


def test_stake_changes_and_a_leaver_as_of_their_last_hand(client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    url, headers = f"/api/v1/sessions/{body['id']}", {"Authorization": f"Bearer {body['token']}"}
    assert client.post(f"{url}/hands", json=TONK, headers=headers).status_code == 201  # Rosa +$1.50
    assert client.post(f"{url}/stake", json={"stake": 50}, headers=headers).status_code == 200
    assert client.post(f"{url}/hands", json=OUT, headers=headers).status_code == 201  # Dee +$1.50 at $0.50
    gone = client.post(f"{url}/players/leave", json={"name": "Rosa", "settle": "at_end"}, headers=headers)
    assert gone.status_code == 200
    assert client.post(f"{url}/hands", json=OUT, headers=headers).status_code == 201  # three play: Dee +$1.00

    summary = flat(pdftotext(client.get(f"{url}/summary.pdf", headers=headers).data))
    assert "Stake $0.25; $0.50 from hand 2" in summary
    assert "Rosa (left after hand 2)" in summary
    players = client.get(url, headers=headers).get_json()["roster"]
    seat = next(i for i, r in enumerate(players, 1) if r["name"] == "Rosa")
    rosa = flat(pdftotext(client.get(f"{url}/statements/{seat}.pdf", headers=headers).data))
    assert "Left after hand 2; balance as of hand 2" in rosa
    assert "Net as of hand 2 +$1.00" in rosa and "2 counted hands" in rosa  # +$1.50 in hand 1, -$0.50 in hand 2
    dee = flat(pdftotext(client.get(f"{url}/statements/1.pdf", headers=headers).data))
    assert "Stake $0.25; $0.50 from hand 2" in dee and "as of hand" not in dee
