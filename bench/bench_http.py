"""Recording hands over HTTP, the real server beside a bare floor, run by hand:
``.venv/bin/python bench/bench_http.py [--seconds 5] [--clients 1,8,16]
[--database postgresql+psycopg://user@host:port/postgres] [--workers N] [--tables N]``.

Starts two servers on 127.0.0.1 in processes of their own, each on a fresh database:

* the real one: ``tonk-ledger serve`` (waitress, the README's server), or with ``--workers N``
  gunicorn --preload with N worker processes (``gunicorn 'ledger:create_app()'``);
* the floor: ``bench/floor_app.py``, a bare Flask app that stores each posted body as one row,
  served the same way on the same kind of database.

A separate client process (this script with ``--drive``) then holds one keep-alive connection
per simulated phone and, for 1, 8 and 16 phones at once, posts hands to one night (each with an
``Idempotency-Key``, as the phones send) or rows to the floor for ``--seconds``. Printed per
level: requests per second, p50 and p99 latency, and the real server's ratio to the floor measured
in the same run. Nothing is asserted; tests never time anything.

With ``--tables N`` the phones are spread over N nights (phone ``c`` at night ``c % N``), as at a
club with many tables, instead of all recording at one table.

With ``--database`` the URL names a PostgreSQL server: a fresh database is created for each
server and dropped afterwards.

With ``--pdf`` (issue 11: heavy work never starves the table) the floor is left out and the real
server is measured at each level twice: as above, then while another phone downloads the night
pack of a 1,000-hand, 8-player night again and again (it records one hand there before each
download, so every download is a fresh render, not the cache). Printed per level: hand-entry p50
and p99 without and with the downloads, and how many packs were downloaded and how long each
took. ``--pdf-pool thread|process`` and ``--pdf-workers N`` set the server's PDF pool
(``PDF_POOL``, ``PDF_WORKERS``; default: the server's own defaults).
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
        command = [str(bindir / "gunicorn"), "--preload", "--workers", str(workers), "--threads", str(THREADS),
                   "--bind", f"127.0.0.1:{port}", "--log-level", "warning", factory]
    elif kind == "real":
        command = [sys.executable, "-m", "ledger.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    else:
        command = [sys.executable, "-c", "import floor_app, waitress; waitress.serve(floor_app.create_app(), "
                   f"host='127.0.0.1', port={port}, threads={THREADS})"]
    with listening(command, port, REPO, env, log, kind, 60):
        yield port


@contextmanager
def listening(command: list[str], port: int, cwd: Path, env: dict[str, str], log: Path, label: str,
              patience: float) -> Iterator[None]:
    """Run ``command`` (its output appended to ``log``) until it listens on ``port``, for at most
    ``patience`` seconds; stopped (terminated, then killed) when the block ends."""
    with log.open("ab") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + patience
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{label} server exited:\n{log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield
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


def drive(port: int, kind: str, clients: int, seconds: float, tables: int = 1) -> dict[str, Any]:
    """Post for ``seconds`` from ``clients`` keep-alive connections, phone ``c`` at night
    ``c % tables``; latencies in ms."""
    setup = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    targets: list[tuple[str, dict[str, str]]] = [("/rows", {})]
    if kind == "real":
        targets = []
        for _table in range(min(tables, clients)):
            status, body = request(setup, "POST", "/api/v1/sessions", {
                k: NIGHT[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}, {})
            assert status == 201, body
            targets.append((f"/api/v1/sessions/{body['id']}/hands", {"Authorization": f"Bearer {body['token']}"}))
    setup.close()

    def phone(c: int) -> Any:
        path, headers = targets[c % len(targets)]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

        def one(i: int) -> tuple[int, Any]:
            hand = NIGHT["hands"][(c * 7 + i) % len(NIGHT["hands"])]
            return request(conn, "POST", path, {"outcome": hand["outcome"], "hands": hand["hands"]},
                           headers | {"Idempotency-Key": f"c{c}-{i}-{uuid.uuid4().hex[:6]}"})
        return one, conn.close

    return timed(clients, seconds, phone)


def timed(clients: int, seconds: float, phone: Any) -> dict[str, Any]:
    """``clients`` threads, each sending ``one(i)`` (``phone(c)`` → ``(one, done)``; ``one``
    answers ``(status, body)``, 201 counting as success) back to back for ``seconds`` after a
    common start: requests per second, errors, p50 and p99 latency in ms."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors: list[Any] = []
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def run(c: int) -> None:
        one, done = phone(c)
        start.wait()
        i = 0
        while time.perf_counter() < stop_at[0]:
            began = time.perf_counter()
            status, body = one(i)
            latencies[c].append((time.perf_counter() - began) * 1000)
            if status != 201:
                errors.append((status, body))
            i += 1
        done()

    threads = [threading.Thread(target=run, args=(c,)) for c in range(clients)]
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


PACK_PLAYERS = ("Dee", "Marcus", "Rosa", "Tomás", "Zoë", "Łukasz", "Priya", "Sam")
PACK_HANDS = 1000


def pack_hand(index: int) -> dict[str, Any]:
    return {"outcome": {"kind": "discard_out", "winner": PACK_PLAYERS[(index * 3 + index // 7) % len(PACK_PLAYERS)]},
            "hands": {}}


def pack_night(port: int) -> tuple[str, str]:
    """A night of :data:`PACK_HANDS` hands at 8 players, recorded through the API: (id, token)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    status, body = request(conn, "POST", "/api/v1/sessions", {
        "name": "Pack night", "currency": "USD", "stake": 25, "players": list(PACK_PLAYERS),
        "ruleset": {"preset": "classic", "toggles": {"max_players": 8}}, "first_dealer": PACK_PLAYERS[0]}, {})
    assert status == 201, body
    night, token = body["id"], body["token"]
    for index in range(PACK_HANDS):
        status, answer = request(conn, "POST", f"/api/v1/sessions/{night}/hands", pack_hand(index),
                                 {"Authorization": f"Bearer {token}"})
        assert status == 201, answer
    conn.close()
    return night, token


def download(port: int, night: str, token: str, seconds: float) -> dict[str, Any]:
    """For ``seconds``: record a hand at the pack night, then download its pack (a fresh render)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    headers = {"Authorization": f"Bearer {token}"}
    took: list[float] = []
    statuses: dict[int, int] = {}
    stop_at = time.perf_counter() + seconds
    index = PACK_HANDS
    while time.perf_counter() < stop_at:
        status, _ = request(conn, "POST", f"/api/v1/sessions/{night}/hands", pack_hand(index), headers)
        index += 1
        began = time.perf_counter()
        conn.request("GET", f"/api/v1/sessions/{night}/statements.pdf", headers=headers)
        response = conn.getresponse()
        data = response.read()
        took.append(time.perf_counter() - began)
        statuses[response.status] = statuses.get(response.status, 0) + 1
        if response.status == 503:  # pdf_busy: ask again as the phone would
            time.sleep(float(response.getheader("Retry-After") or 1))
        elif response.status != 200 or not data.startswith(b"%PDF"):
            raise RuntimeError(f"pack download answered {response.status}")
    conn.close()
    return {"downloads": len(took), "mean_s": sum(took) / len(took) if took else 0.0, "statuses": statuses}


def run_client(port: int, kind: str, clients: int, seconds: float, tables: int = 1) -> dict[str, Any]:
    output = subprocess.run(
        [sys.executable, __file__, "--drive", str(port), kind, str(clients), str(seconds), str(tables)],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(output)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--drive":
        port, kind, clients, seconds = int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
        print(json.dumps(drive(port, kind, clients, seconds, int(sys.argv[6]) if len(sys.argv) > 6 else 1)))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--download":
        port, night, token, seconds = int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5])
        print(json.dumps(download(port, night, token, seconds)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="measured seconds per level")
    parser.add_argument("--clients", default="1,8,16")
    parser.add_argument("--database", default=None, help="a PostgreSQL server URL (default: SQLite files)")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn worker processes (default: waitress)")
    parser.add_argument("--tables", type=int, default=1,
                        help="spread the phones over this many nights (default 1: every phone at one table)")
    parser.add_argument("--pdf", action="store_true", help="hand entry while another phone downloads night packs")
    parser.add_argument("--pdf-pool", choices=("process", "thread"), default=None, help="the server's PDF_POOL")
    parser.add_argument("--pdf-workers", type=int, default=None, help="the server's PDF_WORKERS")
    args = parser.parse_args()
    if args.pdf_pool:
        os.environ["PDF_POOL"] = args.pdf_pool
    if args.pdf_workers:
        os.environ["PDF_WORKERS"] = str(args.pdf_workers)
    if args.pdf:
        pdf_bench(args)
        return
    levels = [int(x) for x in args.clients.split(",")]
    served = f"gunicorn × {args.workers} workers × {THREADS} threads" if args.workers > 1 else f"waitress × {THREADS} threads"
    spread = "one night" if args.tables == 1 else f"phones spread over up to {args.tables} nights"
    print(f"POST a hand vs bare floor insert; {served}; "
          f"{'PostgreSQL' if args.database else 'SQLite'}; {spread}; {args.seconds:.0f} s per level")
    results: dict[tuple[str, int], dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("floor", "real"):
            with fresh_database(args.database, Path(tmp), kind) as url, \
                    server(kind, url, args.workers, Path(tmp) / f"{kind}.log") as port:
                run_client(port, kind, 1, 1.0)  # warm up (imports, first connections)
                for clients in levels:
                    results[(kind, clients)] = run_client(port, kind, clients, args.seconds, args.tables)
    print(f"{'clients':>7} | {'floor req/s':>11} {'p50':>7} {'p99':>7} | {'real req/s':>10} {'p50':>7} {'p99':>7}"
          f" | {'ratio':>5} | errors")
    for clients in levels:
        f, r = results[("floor", clients)], results[("real", clients)]
        print(f"{clients:7d} | {f['rps']:11.1f} {f['p50']:6.1f}ms {f['p99']:6.1f}ms | {r['rps']:10.1f} "
              f"{r['p50']:6.1f}ms {r['p99']:6.1f}ms | {r['rps'] / f['rps']:5.2f} | {f['errors'] + r['errors']}"
              + (f"  e.g. {r['first_error']}" if r["first_error"] else ""))


def pdf_bench(args: argparse.Namespace) -> None:
    levels = [int(x) for x in args.clients.split(",")]
    pool = f"PDF_POOL={os.environ.get('PDF_POOL', 'default')} PDF_WORKERS={os.environ.get('PDF_WORKERS', 'default')}"
    print(f"POST a hand while another phone downloads a {PACK_HANDS}-hand, {len(PACK_PLAYERS)}-player pack; "
          f"{'PostgreSQL' if args.database else 'SQLite'}; {pool}; {args.seconds:.0f} s per level")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, fresh_database(args.database, Path(tmp), "real") as url, \
            server("real", url, args.workers, Path(tmp) / "real.log") as port:
        night, token = pack_night(port)
        run_client(port, "real", 1, 1.0)  # warm up
        subprocess.run([sys.executable, __file__, "--download", str(port), night, token, "0.1"],
                       check=True, capture_output=True)  # warm up the PDF pool (its first render)
        for clients in levels:
            alone = run_client(port, "real", clients, args.seconds)
            downloader = subprocess.Popen([sys.executable, __file__, "--download", str(port), night, token,
                                           str(args.seconds + 1)], stdout=subprocess.PIPE, text=True)
            time.sleep(0.5)  # the first render is under way
            beside = run_client(port, "real", clients, args.seconds)
            packs = json.loads(downloader.communicate(timeout=600)[0])
            rows.append((clients, alone, beside, packs))
    print(f"{'clients':>7} | {'alone p50':>9} {'p99':>7} | {'with packs p50':>14} {'p99':>7} | packs, mean s each")
    for clients, alone, beside, packs in rows:
        print(f"{clients:7d} | {alone['p50']:7.1f}ms {alone['p99']:5.1f}ms | {beside['p50']:12.1f}ms "
              f"{beside['p99']:5.1f}ms | {packs['downloads']} packs, {packs['mean_s']:.2f} s {packs['statuses']}"
              + (f"  errors {alone['errors'] + beside['errors']}" if alone['errors'] + beside['errors'] else ""))


if __name__ == "__main__":
    main()
