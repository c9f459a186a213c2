"""Recording hands over HTTP, the real server beside a bare floor, run by hand:
``.venv/bin/python bench/bench_http.py [--seconds 5] [--clients 1,8,16]
[--database postgresql+psycopg://user@host:port/postgres] [--workers N]``.

Starts two servers on 127.0.0.1 in processes of their own, each on a fresh database:

* the real one: ``tonk-ledger serve`` (waitress, the README's server), or with ``--workers N``
  gunicorn with N worker processes (``gunicorn 'ledger:create_app()'``);
* the floor: ``bench/floor_app.py``, a bare Flask app that stores each posted body as one row,
  served the same way on the same kind of database.

A separate client process (this script with ``--drive``) then holds one keep-alive connection
per simulated phone and, for 1, 8 and 16 phones at once, posts hands to one night (each with an
``Idempotency-Key``, as the phones send) or rows to the floor for ``--seconds``. Printed per
level: requests per second, p50 and p99 latency, and the real server's ratio to the floor measured
in the same run. Nothing is asserted; tests never time anything.

With ``--database`` the URL names a PostgreSQL server: a fresh database is created for each
server and dropped afterwards.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
NIGHT = json.loads((REPO / "nights" / "night-01.json").read_text(encoding="utf-8"))
THREADS = 8  # request threads per server process, as `tonk-ledger serve` runs waitress


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fresh_database(base: str | None, tmp: Path, label: str) -> Iterator[str]:
    if base is None or base.startswith("sqlite"):
        yield f"sqlite:///{tmp / (label + '.sqlite3')}"
        return
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base)
    name = f"tonk_bench_{label}_{uuid.uuid4().hex[:8]}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(drivername="postgresql+psycopg", database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def server(kind: str, database_url: str, workers: int, log: Path) -> Iterator[int]:
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="bench-http", PYTHONPATH=str(BENCH))
    bindir = Path(sys.executable).parent
    if workers > 1:
        factory = "ledger:create_app()" if kind == "real" else "floor_app:create_app()"
        command = [str(bindir / "gunicorn"), "--workers", str(workers), "--threads", str(THREADS),
                   "--bind", f"127.0.0.1:{port}", "--log-level", "warning", factory]
    elif kind == "real":
        command = [sys.executable, "-m", "ledger.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    else:
        command = [sys.executable, "-c", "import floor_app, waitress; waitress.serve(floor_app.create_app(), "
                   f"host='127.0.0.1', port={port}, threads={THREADS})"]
    with log.open("ab") as out:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{kind} server exited:\n{log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


# -- the client process ------------------------------------------------------------------------
def request(conn: http.client.HTTPConnection, method: str, path: str, body: Any,
            headers: dict[str, str]) -> tuple[int, Any]:
    conn.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json", **headers})
    response = conn.getresponse()
    data = response.read()
    return response.status, json.loads(data) if data else None


def drive(port: int, kind: str, clients: int, seconds: float) -> dict[str, Any]:
    """Post for ``seconds`` from ``clients`` keep-alive connections; latencies in ms."""
    setup = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers: dict[str, str] = {}
    path = "/rows"
    if kind == "real":
        status, body = request(setup, "POST", "/api/v1/sessions", {
            k: NIGHT[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}, {})
        assert status == 201, body
        headers = {"Authorization": f"Bearer {body['token']}"}
        path = f"/api/v1/sessions/{body['id']}/hands"
    setup.close()
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[Any] = []
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def phone(c: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        start.wait()
        i = 0
        while time.perf_counter() < stop_at[0]:
            hand = NIGHT["hands"][(c * 7 + i) % len(NIGHT["hands"])]
            began = time.perf_counter()
            status, body = request(conn, "POST", path, {"outcome": hand["outcome"], "hands": hand["hands"]},
                                   headers | {"Idempotency-Key": f"c{c}-{i}-{uuid.uuid4().hex[:6]}"})
            latencies[c].append((time.perf_counter() - began) * 1000)
            if status != 201:
                errors.append((status, body))
            i += 1
        conn.close()

    threads = [threading.Thread(target=phone, args=(c,)) for c in range(clients)]
    for thread in threads:
        thread.start()
    stop_at[0] = time.perf_counter() + seconds
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    flat = sorted(x for per in latencies for x in per)
    return {
        "requests": len(flat), "rps": len(flat) / elapsed, "errors": len(errors), "first_error": errors[:1],
        "p50": flat[len(flat) // 2] if flat else 0.0, "p99": flat[min(len(flat) - 1, int(len(flat) * 0.99))] if flat else 0.0,
    }


def run_client(port: int, kind: str, clients: int, seconds: float) -> dict[str, Any]:
    output = subprocess.run(
        [sys.executable, __file__, "--drive", str(port), kind, str(clients), str(seconds)],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(output)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        port, kind, clients, seconds = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
        print(json.dumps(drive(port, kind, clients, seconds)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per level")
    parser.add_argument("--clients", default="1,8,16")
    parser.add_argument("--database", default=None, help="a PostgreSQL server URL (default: SQLite files)")
    parser.add_argument("--workers", type=int, default=1,
                        help="gunicorn worker processes (default: waitress; needs `pip install gunicorn`)")
    args = parser.parse_args()
    levels = [int(x) for x in args.clients.split(",")]
    served = f"gunicorn × {args.workers} workers × {THREADS} threads" if args.workers > 1 else f"waitress × {THREADS} threads"
    print(f"POST a hand vs bare floor insert; {served}; "
          f"{'PostgreSQL' if args.database else 'SQLite'}; {args.seconds:.0f} s per level")
    results: dict[tuple[str, int], dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("floor", "real"):
            with fresh_database(args.database, Path(tmp), kind) as url, \
                    server(kind, url, args.workers, Path(tmp) / f"{kind}.log") as port:
                run_client(port, kind, 1, 1.0)  # warm up (imports, first connections)
                for clients in levels:
                    results[(kind, clients)] = run_client(port, kind, clients, args.seconds)
    print(f"{'clients':>7} | {'floor req/s':>11} {'p50':>7} {'p99':>7} | {'real req/s':>10} {'p50':>7} {'p99':>7}"
          f" | {'ratio':>5} | errors")
    for clients in levels:
        f, r = results[("floor", clients)], results[("real", clients)]
        print(f"{clients:7d} | {f['rps']:11.1f} {f['p50']:6.1f}ms {f['p99']:6.1f}ms | {r['rps']:10.1f} "
              f"{r['p50']:6.1f}ms {r['p99']:6.1f}ms | {r['rps'] / f['rps']:5.2f} | {f['errors'] + r['errors']}"
              + (f"  e.g. {r['first_error']}" if r["first_error"] else ""))


if __name__ == "__main__":
    main()
