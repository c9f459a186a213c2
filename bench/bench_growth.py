"""How the cost of a request grows with the length of the night, run by hand:
``.venv/bin/python bench/bench_growth.py [--hands 1000] [--database URL]``.

Records ``--hands`` hands (night-01's thirty, cycled) into one night through the JSON API of the
real app, in process (Flask's test client: no network, so the figures are the server's own
time). Prints:

1. per-hand cost by hundreds of hands already recorded: wall and CPU milliseconds per
   ``POST /api/v1/sessions/{id}/hands`` (mean, median and p90 of each hundred), then the last
   hundred's median against the first's (issue 11's target: hand 1,000 costs at most 1.1× hand
   50; medians, since other processes on a shared machine lengthen a few requests);
2. the same comparison made side by side, so that a machine whose load changes during the run
   weighs on both alike: a second night is brought to 50 hands, then hands are posted in turn
   to it (hands 51, 52...) and to the long night (hands 1,001, 1,002...), and the medians of
   each and their ratio are printed;
3. the phone's ``/state`` poll at 30, 500 and 1,000 hands, for the table view, the history
   page's row-by-row poll (``rows=1``, what the page asks for) and the history's whole region
   (what a tab opened before rows existed gets, and any poll after more than ten changes):
   bytes on the wire (as sent, and gzip-compressed when the client asks for it) and
   milliseconds, once when the night changed since the phone's version and once when it did not
   (the poll a phone makes every two seconds while nobody records). The milliseconds are the
   server's own: the app called as WSGI with a request made beforehand (best of five), beside
   the same poll through Flask's test client, which adds building the request and reading the
   answer.

Nothing is asserted; tests never time anything. The database is a fresh SQLite file under a
temporary folder unless ``--database`` names another (a PostgreSQL URL is used as is: give an
empty database).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ledger import create_app  # noqa: E402

NIGHT = json.loads((REPO / "nights" / "night-01.json").read_text(encoding="utf-8"))
CHECKPOINTS = (30, 500, 1000)
VIEWS = {"table": "view=table", "rows": "view=hands&rows=1", "whole": "view=hands"}


def session_body() -> dict[str, Any]:
    return {k: NIGHT[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}


def hand_body(index: int) -> dict[str, Any]:
    hand = NIGHT["hands"][index % len(NIGHT["hands"])]
    return {"outcome": hand["outcome"], "hands": hand["hands"]}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(fn: Any) -> tuple[Any, float, float]:
    """``(result, wall ms, cpu ms)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def served_ms(app: Any, client: Any, url: str, headers: dict[str, str]) -> float:
    """Best of five: milliseconds the app takes to answer ``GET url`` as the phone (its session
    cookie), called as WSGI with the request built beforehand (the server's own time)."""
    from werkzeug.test import EnvironBuilder

    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    path, _, query = url.partition("?")
    builder = EnvironBuilder(path=path, query_string=query,
                             headers=headers | {"Cookie": f"{cookie.key}={cookie.value}"})
    best = float("inf")
    for _ in range(5):
        environ = builder.get_environ()
        start = time.perf_counter()
        answer = app(environ, lambda status, response_headers, exc_info=None: None)
        b"".join(answer)
        getattr(answer, "close", lambda: None)()
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def state_figures(app: Any, client: Any, session_id: str, query: str, version_before: int) -> dict[str, Any]:
    """The poll after a change (``since`` = the version before the last hand) and the poll
    with nothing changed (``since`` = the current version, plus its ETag if one was sent)."""
    url = f"/s/{session_id}/state?{query}"
    out: dict[str, Any] = {}
    for label, headers in (("plain", {}), ("gzip", {"Accept-Encoding": "gzip"})):
        times = []
        for _ in range(5):
            response, wall, _cpu = timed(lambda: client.get(f"{url}&since={version_before}", headers=headers))
            times.append(wall)
        out[f"changed_bytes_{label}"] = len(response.get_data())
        if label == "plain":
            out["changed_client_ms"] = min(times)
    out["changed_ms"] = served_ms(app, client, f"{url}&since={version_before}", {})
    current = json.loads(client.get(f"{url}&since={version_before}").get_data()).get("version")
    etag = response.headers.get("ETag")
    headers = {"If-None-Match": etag} if etag else {}
    response = client.get(f"{url}&since={current}", headers=headers)
    out["unchanged_status"] = response.status_code
    out["unchanged_bytes"] = len(response.get_data())
    out["unchanged_ms"] = served_ms(app, client, f"{url}&since={current}", headers)
    return out


PAIRS = 60
SHORT_NIGHT = 50


def side_by_side(client: Any, headers: dict[str, str], long_id: str, long_hands: int) -> None:
    """Post hands in turn to a night of :data:`SHORT_NIGHT` hands and to the long one."""
    created = client.post("/api/v1/sessions", json=session_body()).get_json()
    short_id, short_headers = created["id"], {"Authorization": f"Bearer {created['token']}"}
    for index in range(SHORT_NIGHT):
        client.post(f"/api/v1/sessions/{short_id}/hands", json=hand_body(index), headers=short_headers)
    figures: dict[str, tuple[list[float], list[float]]] = {"short": ([], []), "long": ([], [])}
    for index in range(PAIRS):
        for label, night, night_headers, done in (("short", short_id, short_headers, SHORT_NIGHT),
                                                  ("long", long_id, headers, long_hands)):
            response, wall, cpu = timed(lambda: client.post(
                f"/api/v1/sessions/{night}/hands", json=hand_body(done + index), headers=night_headers))
            assert response.status_code == 201, response.get_data(as_text=True)
            figures[label][0].append(wall)
            figures[label][1].append(cpu)
    (short_wall, short_cpu), (long_wall, long_cpu) = (
        (statistics.median(w), statistics.median(c)) for w, c in figures.values())
    print(f"side by side, {PAIRS} hands each in turn (medians): hand {SHORT_NIGHT + 1}–{SHORT_NIGHT + PAIRS} "
          f"wall {short_wall:.2f} ms, CPU {short_cpu:.2f} ms; hand {long_hands + 1}–{long_hands + PAIRS} "
          f"wall {long_wall:.2f} ms, CPU {long_cpu:.2f} ms; ratio wall {long_wall / short_wall:.2f}×, "
          f"CPU {long_cpu / short_cpu:.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--database", default=None, help="SQLAlchemy URL (default: a fresh SQLite file)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        url = args.database or f"sqlite:///{Path(tmp) / 'growth.sqlite3'}"
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench-growth", "RATELIMIT_ENABLED": False})
        client = app.test_client()
        created = client.post("/api/v1/sessions", json=session_body()).get_json()
        session_id, token = created["id"], created["token"]
        headers = {"Authorization": f"Bearer {token}"}
        client.get(f"/join/{session_id}/{token}")  # the phone's cookie, for /state

        print(f"database: {url.split('@')[-1]}")
        print("per-hand cost, POST /hands (hands already recorded → wall mean / median / p90, CPU mean / median, ms)")
        walls: list[float] = []
        cpus: list[float] = []
        version_before = 0
        states: dict[int, dict[str, dict[str, Any]]] = {}
        hundreds: list[tuple[float, float]] = []  # (wall median, CPU median) of each hundred
        for index in range(args.hands):
            if index + 1 in CHECKPOINTS:
                version_before = client.get(f"/s/{session_id}/state?view=table").get_json()["version"]
            response, wall, cpu = timed(lambda: client.post(
                f"/api/v1/sessions/{session_id}/hands", json=hand_body(index), headers=headers))
            assert response.status_code == 201, response.get_data(as_text=True)
            walls.append(wall)
            cpus.append(cpu)
            if len(walls) == 100:
                hundreds.append((statistics.median(walls), statistics.median(cpus)))
                print(f"  {index + 1 - 100:5d}–{index:5d}: {statistics.fmean(walls):6.2f} / {hundreds[-1][0]:6.2f} / "
                      f"{pct(walls, 0.9):6.2f}   CPU {statistics.fmean(cpus):6.2f} / {hundreds[-1][1]:6.2f}")
                walls, cpus = [], []
            if index + 1 in CHECKPOINTS:
                states[index + 1] = {view: state_figures(app, client, session_id, query, version_before)
                                     for view, query in VIEWS.items()}

        if len(hundreds) > 1:
            (wall_first, cpu_first), (wall_last, cpu_last) = hundreds[0], hundreds[-1]
            print(f"last hundred against the first (medians): wall {wall_last / wall_first:.2f}×, "
                  f"CPU {cpu_last / cpu_first:.2f}×")
        side_by_side(client, headers, session_id, args.hands)
        print("/state after one change (bytes plain / gzip, server ms, through the test client ms) and with "
              "nothing changed (status, bytes, server ms); table, history rows, history whole region")
        for count, views in states.items():
            for view, f in views.items():
                print(f"  {count:5d} hands, {view:<5}: changed {f['changed_bytes_plain']:8,d} B / "
                      f"{f['changed_bytes_gzip']:7,d} B {f['changed_ms']:6.2f} ms ({f['changed_client_ms']:5.1f});"
                      f"  unchanged {f['unchanged_status']} {f['unchanged_bytes']:5d} B {f['unchanged_ms']:5.2f} ms")
        app.extensions["ledger.engine"].dispose()


if __name__ == "__main__":
    main()
