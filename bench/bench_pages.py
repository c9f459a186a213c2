"""What the phone's pages cost against the JSON calls that carry the same figures, run by hand:
``.venv/bin/python bench/bench_pages.py [--hands 200] [--database URL] [--repeat 60]``.

Records ``--hands`` hands (night-01's thirty, cycled) into one night through the JSON API of the
real app, in process (Flask's test client: no network, so the figures are the server's own
time), then times, as the host's phone (median of ``--repeat`` after five warm-up requests):

* the table page ``GET /s/{id}`` beside ``GET /s/{id}/state`` (the table's live region as JSON,
  what the page polls for) and ``GET /api/v1/sessions/{id}`` (the night and its balances);
* the settle page ``GET /s/{id}/settle`` beside ``GET /s/{id}/state?view=settle`` and ``GET
  /api/v1/sessions/{id}/settlement`` (the plan, each line's reasons and hand-offs).

Printed: milliseconds and each page's ratio to its JSON calls (issue 24's target: under 2×).
Nothing is asserted; tests never time anything.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

NIGHT = json.loads((REPO / "nights" / "night-01.json").read_text(encoding="utf-8"))


def _median_ms(client: Any, url: str, headers: dict[str, str], repeat: int) -> float:
    for _ in range(5):
        response = client.get(url, headers=headers)
        assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        client.get(url, headers=headers)
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--database", default=None, help="an empty database's URL (default: a fresh SQLite file)")
    args = parser.parse_args()

    from ledger import create_app

    url = args.database or f"sqlite:///{Path(tempfile.mkdtemp()) / 'pages.sqlite3'}"
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench-pages"})
    api = app.test_client()
    night = api.post("/api/v1/sessions", json={
        k: NIGHT[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}).get_json()
    bearer = {"Authorization": f"Bearer {night['token']}"}
    for i in range(args.hands):
        hand = NIGHT["hands"][i % len(NIGHT["hands"])]
        response = api.post(f"/api/v1/sessions/{night['id']}/hands", json={
            "outcome": hand["outcome"], "hands": hand["hands"]}, headers=bearer | {"Idempotency-Key": uuid.uuid4().hex})
        assert response.status_code == 201, response.get_json()
    phone = app.test_client()
    phone.get(f"/join/{night['id']}/{night['token']}")  # the host's phone: its cookie
    base = f"/s/{night['id']}"
    rows = [
        ("table page", phone, base, {}),
        ("  its live region (state)", phone, f"{base}/state", {}),
        ("  GET session (JSON)", api, f"/api/v1/sessions/{night['id']}", bearer),
        ("settle page", phone, f"{base}/settle", {}),
        ("  its live region (state)", phone, f"{base}/state?view=settle", {}),
        ("  GET settlement (JSON)", api, f"/api/v1/sessions/{night['id']}/settlement", bearer),
    ]
    times = {label + url: _median_ms(client, url, headers, args.repeat) for label, client, url, headers in rows}
    print(f"pages vs their JSON calls; {args.hands} hands, 4 players; median of {args.repeat}; "
          f"{'SQLite' if url.startswith('sqlite') else 'PostgreSQL'}")
    for page in (0, 3):
        page_ms = times[rows[page][0] + rows[page][2]]
        print(f"{rows[page][0]:<28} {page_ms:7.2f} ms")
        for label, _client, url, _headers in rows[page + 1:page + 3]:
            ms = times[label + url]
            print(f"{label:<28} {ms:7.2f} ms   page / this = {page_ms / ms:.2f}×")


if __name__ == "__main__":
    main()
