"""Tonk Ledger beside ihatemoney (the Flask shared-expenses app a table would otherwise pick),
under the same load, run by hand: ``.venv/bin/python bench/bench_ihatemoney.py [--seconds 5]
[--clients 1,8,16] [--tables 1] [--history 500] [--venv instance/bench-ihatemoney]``.

ihatemoney is installed from PyPI (with waitress) into a venv of its own, made at ``--venv`` on
the first run (``instance/`` is never committed), and served by waitress with 8 threads on a
fresh SQLite file, as ``tonk-ledger serve`` serves ours (ihatemoney keeps SQLite's defaults).
For each server, with ``--tables N`` projects (ours: nights) of four people:

1. **writes**: for 1, 8 and 16 phones at once (phone ``c`` at table ``c % N``), each on a
   keep-alive connection, for ``--seconds``: ours posts hands (``POST
   /api/v1/sessions/{id}/hands`` with a bearer token and an ``Idempotency-Key``, as the phones
   do); ihatemoney's bills (``POST /api/projects/{id}/bills``, a form with the bearer token its
   ``/token`` gave). Printed: requests per second, p50 and p99, and ours over theirs;
2. **reads** at a table with ``--history`` entries (hands or bills, posted first): ihatemoney's
   ``GET /api/projects/{id}/statistics`` (each member's paid, spent and balance) beside our
   ``GET /api/v1/sessions/{id}`` (the balances) and ``GET /api/v1/sessions/{id}/settlement``
   (the plan, with each line's reasons); median of 20.

The client runs in a process of its own (this script with ``--drive``), the same for both.
Nothing is asserted; tests never time anything. Network: PyPI, for the first run's install.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from base64 import b64encode
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import NIGHT, REPO, THREADS, free_port, listening, request, server, timed  # noqa: E402

PEOPLE = list(NIGHT["players"])


def ensure_venv(venv: Path) -> Path:
    """The venv's python, with ihatemoney and waitress installed (made on the first run)."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import ihatemoney, waitress"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "ihatemoney", "waitress"], check=True)
    return python


@contextmanager
def ihatemoney_server(python: Path, tmp: Path, label: str) -> Iterator[int]:
    port = free_port()
    settings = tmp / f"{label}.cfg"
    settings.write_text(
        f"SQLALCHEMY_DATABASE_URI = 'sqlite:///{tmp / (label + '.sqlite3')}'\n"
        "SECRET_KEY = 'bench-ihatemoney'\nACTIVATE_DEMO_PROJECT = False\nMAIL_SUPPRESS_SEND = True\n"
        "SESSION_COOKIE_SECURE = False\n", encoding="utf-8")
    env = dict(os.environ, IHATEMONEY_SETTINGS_FILE_PATH=str(settings))
    code = ("import waitress; from ihatemoney.run import create_app; "
            f"waitress.serve(create_app(), host='127.0.0.1', port={port}, threads={THREADS})")
    with listening([str(python), "-W", "ignore", "-c", code], port, tmp, env, tmp / f"{label}.log", label, 120):
        yield port


def _form(conn: http.client.HTTPConnection, method: str, path: str, fields: Any,
          headers: dict[str, str]) -> tuple[int, Any]:
    conn.request(method, path, body=urlencode(fields, doseq=True),
                 headers={"Content-Type": "application/x-www-form-urlencoded", **headers})
    response = conn.getresponse()
    data = response.read()
    return response.status, json.loads(data) if data else None


def ihatemoney_project(port: int) -> tuple[str, dict[str, str], list[int]]:
    """A new project with the four people: its bearer header and the members' ids."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    project = f"t{uuid.uuid4().hex[:10]}"
    status, body = _form(conn, "POST", "/api/projects", {
        "name": project, "id": project, "password": "bench-secret", "contact_email": "bench@example.com",
        "default_currency": "USD"}, {})
    assert status == 201, body
    basic = {"Authorization": "Basic " + b64encode(f"{project}:bench-secret".encode()).decode()}
    members = []
    for name in PEOPLE:
        status, body = _form(conn, "POST", f"/api/projects/{project}/members", {"name": name}, basic)
        assert status == 201, body
        members.append(int(body))
    conn.request("GET", f"/api/projects/{project}/token", headers=basic)
    token = json.loads(conn.getresponse().read())["token"]
    conn.close()
    return project, {"Authorization": f"Bearer {token}"}, members


def ours_night(port: int) -> tuple[str, dict[str, str]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    status, body = request(conn, "POST", "/api/v1/sessions", {
        k: NIGHT[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}, {})
    assert status == 201, body
    conn.close()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def post_entry(conn: http.client.HTTPConnection, kind: str, table: Any, i: int) -> int:
    """One hand (ours) or one bill (ihatemoney) at ``table``; the answer's status."""
    if kind == "ours":
        night, headers = table
        hand = NIGHT["hands"][i % len(NIGHT["hands"])]
        return request(conn, "POST", f"/api/v1/sessions/{night}/hands", {"outcome": hand["outcome"], "hands": hand["hands"]},
                       headers | {"Idempotency-Key": uuid.uuid4().hex})[0]
    project, headers, members = table
    return _form(conn, "POST", f"/api/projects/{project}/bills", {
        "date": "2026-12-07", "what": f"hand {i + 1}", "payer": members[i % len(members)],
        "amount": f"{(i % 7) + 1}.25", "payed_for": members, "original_currency": "USD"}, headers)[0]


def drive(port: int, kind: str, clients: int, seconds: float, tables: int) -> dict[str, Any]:
    made = [ours_night(port) if kind == "ours" else ihatemoney_project(port) for _ in range(min(tables, clients))]

    def phone(c: int) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        return (lambda i: (post_entry(conn, kind, made[c % len(made)], c * 7 + i), None)), conn.close

    found = timed(clients, seconds, phone)
    return {key: found[key] for key in ("rps", "errors", "p50", "p99")}


def reads(port: int, kind: str, history: int) -> dict[str, float]:
    """Median milliseconds of the reads, at a table with ``history`` entries."""
    table: Any = ours_night(port) if kind == "ours" else ihatemoney_project(port)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for i in range(history):
        assert post_entry(conn, kind, table, i) == 201
    paths = ({"balances (GET session)": f"/api/v1/sessions/{table[0]}",
              "settle-up (GET settlement)": f"/api/v1/sessions/{table[0]}/settlement"} if kind == "ours"
             else {"statistics": f"/api/projects/{table[0]}/statistics"})
    out = {}
    for label, path in paths.items():
        times = []
        for _ in range(25):
            began = time.perf_counter()
            conn.request("GET", path, headers=table[1])
            response = conn.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            times.append((time.perf_counter() - began) * 1000)
        out[label] = statistics.median(times[5:])
    conn.close()
    return out


def run_client(port: int, kind: str, *args: Any) -> Any:
    output = subprocess.run([sys.executable, __file__, "--drive", str(port), kind, *map(str, args)],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        port, kind = int(sys.argv[2]), sys.argv[3]
        if sys.argv[4] == "reads":
            print(json.dumps(reads(port, kind, int(sys.argv[5]))))
        else:
            print(json.dumps(drive(port, kind, int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", default="1,8,16")
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--history", type=int, default=500, help="entries at the table whose reads are timed")
    parser.add_argument("--venv", type=Path, default=REPO / "instance" / "bench-ihatemoney")
    args = parser.parse_args()
    python = ensure_venv(args.venv.resolve())
    version = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('ihatemoney'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    levels = [int(x) for x in args.clients.split(",")]
    results: dict[tuple[str, int], dict[str, Any]] = {}
    read_ms: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("ihatemoney", "ours"):
            if kind == "ours":
                serving = server("real", f"sqlite:///{Path(tmp) / 'ours.sqlite3'}", 1, Path(tmp) / "ours.log")
            else:
                serving = ihatemoney_server(python, Path(tmp), "ihatemoney")
            with serving as port:
                run_client(port, kind, 1, 1.0, 1)  # warm up
                for clients in levels:
                    results[(kind, clients)] = run_client(port, kind, clients, args.seconds, args.tables)
                read_ms[kind] = run_client(port, kind, "reads", args.history)
    print(f"writes: a hand (ours) vs a bill (ihatemoney {version}); waitress × {THREADS} threads each; SQLite; "
          f"{'one table' if args.tables == 1 else f'up to {args.tables} tables'}; {args.seconds:.0f} s per level")
    print(f"{'phones':>6} | {'ihatemoney req/s':>16} {'p50':>8} {'p99':>8} | {'ours req/s':>10} {'p50':>8} {'p99':>8}"
          f" | ours/theirs | errors")
    for clients in levels:
        t, o = results[("ihatemoney", clients)], results[("ours", clients)]
        print(f"{clients:6d} | {t['rps']:16.1f} {t['p50']:6.1f}ms {t['p99']:6.1f}ms | {o['rps']:10.1f} "
              f"{o['p50']:6.1f}ms {o['p99']:6.1f}ms | {o['rps'] / t['rps']:11.2f} | {t['errors'] + o['errors']}")
    print(f"reads at a table of {args.history} entries (median ms):")
    for kind in ("ihatemoney", "ours"):
        for label, ms in read_ms[kind].items():
            print(f"  {kind:<10} {label:<28} {ms:8.2f} ms")


if __name__ == "__main__":
    main()
