"""Finding 14 of the "nothing lost" review: on PostgreSQL a psycopg connection was sometimes
garbage-collected while still open, failing a random later test. The cause was a request still
running in a browser test's server thread when the test ended: the engine was disposed and the
test database dropped under the connection that request held. The live server now finishes
every request before the app fixture disposes the engine.

Issue 20: a server stopped by a signal stops its PDF worker processes too."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from conftest import session_body
from ledger.storage.db import get_engine, get_session
from live_server import REPO, JoinedServer, ServerProcess, call, free_port


def test_finding_14_a_request_in_flight_ends_before_the_server_stops(app: Any) -> None:
    entered = threading.Event()

    @app.get("/_test/slow")
    def slow() -> str:
        get_session().exec(text("SELECT 1"))  # type: ignore[call-overload]  # holds a connection
        entered.set()
        time.sleep(0.5)
        return "done"

    server = JoinedServer(app)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    base = f"http://127.0.0.1:{server.server_port}"
    answers: list[bytes] = []
    client = threading.Thread(target=lambda: answers.append(urllib.request.urlopen(base + "/_test/slow").read()))
    client.start()
    idle = socket.create_connection(("127.0.0.1", server.server_port))  # a keep-alive phone, silent
    try:
        assert entered.wait(10)
        server.stop()
        with app.app_context():
            pool = get_engine().pool
            assert pool.checkedout() == 0  # type: ignore[attr-defined]
    finally:
        idle.close()
        client.join(10)
        serving.join(10)
    assert answers == [b"done"]


# -- issue 20: a server stopped by a signal leaves no PDF worker behind --------------------------
def _stat(pid: int) -> tuple[str, int, int] | None:
    """``(state, parent pid, start time)`` of process ``pid`` from ``/proc``, or ``None``."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()  # after "pid (name) ", which may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def descendants(pid: int) -> dict[int, tuple[int, str]]:
    """Every process below ``pid`` (children, their children...): ``{pid: (start time, command line)}``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (found := _stat(int(entry.name))) is not None:
            parents.setdefault(found[1], []).append(int(entry.name))
    out: dict[int, tuple[int, str]] = {}
    todo = list(parents.get(pid, []))
    while todo:
        child = todo.pop()
        found = _stat(child)
        if found is None:
            continue
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        out[child] = (found[2], command)
        todo += parents.get(child, [])
    return out


def running(pid: int, started: int) -> bool:
    """Whether the process ``pid`` that started at ``started`` still runs (not ended, not a zombie
    left to a parent that does not reap it, not another process under a reused pid)."""
    found = _stat(pid)
    return found is not None and found[0] != "Z" and found[2] == started


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _start_gunicorn(database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="live-test-secret")
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", "4", "--bind", f"127.0.0.1:{port}",
             "ledger:create_app()"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    assert wait_until(lambda: process.poll() is not None or _listening(port)), log.read_text()
    assert process.poll() is None, log.read_text()
    return process


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _download_a_pdf(base: str, night_data: dict[str, Any]) -> None:
    status, body = call(base, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201, body
    headers = {"Authorization": f"Bearer {body['token']}"}
    hand = night_data["hands"][0]
    status, _ = call(base, "POST", f"/api/v1/sessions/{body['id']}/hands",
                     {"outcome": hand["outcome"], "hands": hand["hands"]}, headers)
    assert status == 201
    request = urllib.request.Request(f"{base}/api/v1/sessions/{body['id']}/summary.pdf", headers=headers)
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200 and response.read().startswith(b"%PDF")


@pytest.mark.parametrize(("server", "signum"), [
    ("waitress", signal.SIGTERM), ("waitress", signal.SIGINT), ("gunicorn", signal.SIGTERM)])
def test_a_server_stopped_by_a_signal_leaves_no_pdf_worker_or_resource_tracker(
    database_url: str, tmp_path: Path, night_data: dict[str, Any], server: str, signum: int
) -> None:
    """``tonk-ledger serve`` (waitress) stopped by systemd or ``docker stop`` (SIGTERM) or
    Ctrl-C, and gunicorn stopped by SIGTERM: once the server has ended, no process it started
    runs on (the PDF worker and multiprocessing's resource tracker were left running after a
    SIGTERM, one of them holding 844 MB)."""
    port = free_port()
    log = tmp_path / "server.log"
    if server == "waitress":
        live = ServerProcess(database_url, port)
        live.start(log)
        assert live.process is not None
        process = live.process
    else:
        process = _start_gunicorn(database_url, port, log)
    below: dict[int, tuple[int, str]] = {}
    try:
        _download_a_pdf(f"http://127.0.0.1:{port}", night_data)
        below = descendants(process.pid)
        commands = [command for _, command in below.values()]
        assert any("resource_tracker" in c for c in commands), commands  # the pool is running
        assert any("multiprocessing" in c and "resource_tracker" not in c for c in commands), commands
        process.send_signal(signum)
        process.wait(60)
        left = lambda: {pid: command for pid, (started, command) in below.items() if running(pid, started)}  # noqa: E731
        assert wait_until(lambda: not left()), (left(), log.read_text())
    finally:
        for pid, (started, _command) in below.items():
            if running(pid, started):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait(10)
