"""Real servers for tests: ``tonk-ledger serve`` (waitress) in a process of its own on
127.0.0.1, on the test's database; the app served in a thread of the test process
(:class:`JoinedServer`, for the browser tests); and a tiny JSON HTTP client (standard library)."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    database_url: str
    port: int
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, log: Path) -> None:
        # PDF workers at the server's own priority: a download never waits on the machine's other work
        env = dict(os.environ, DATABASE_URL=self.database_url, SECRET_KEY="live-test-secret", PDF_NICE="0")
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ledger.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, like a pulled plug of the process."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def call(base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         timeout: float = 60) -> tuple[int, Any]:
    """One JSON request; returns ``(status, parsed body)``. Connection failures raise
    ``OSError`` (``urllib.error.URLError`` is one; so is an answer cut short)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            try:
                raw = response.read()
            except http.client.IncompleteRead as err:  # the server died mid-answer: no answer
                raise ConnectionError(f"connection closed mid-answer: {err!r}") from err
            return response.status, json.loads(raw or b"null")
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, raw.decode(errors="replace")


class QuietHandler(WSGIRequestHandler):
    """No access log lines in the test output."""

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass


class JoinedServer(ThreadedWSGIServer):
    """A threaded werkzeug server that can stop completely: ``stop()`` refuses new
    connections, wakes every open keep-alive connection and joins every request thread.

    A request still running when a test ends holds a database connection; if the app's engine
    were disposed (and a PostgreSQL test database dropped) under it, that connection would be
    left to the garbage collector while open. Joining the threads first closes it in order.
    """

    def __init__(self, app: Any) -> None:
        super().__init__("127.0.0.1", 0, app, handler=QuietHandler)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._workers: list[threading.Thread] = []

    def process_request(self, request: Any, client_address: Any) -> None:
        worker = threading.Thread(target=self.process_request_thread, args=(request, client_address), daemon=True)
        with self._lock:
            self._open.add(request)
            self._workers = [w for w in self._workers if w.is_alive()] + [worker]
        worker.start()

    def shutdown_request(self, request: Any) -> None:
        with self._lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def stop(self, timeout: float = 30) -> None:
        """Stop serving, end idle connections, wait for every request under way to finish."""
        self.shutdown()
        with self._lock:
            still_open, workers = list(self._open), list(self._workers)
        for connection in still_open:
            try:
                connection.shutdown(socket.SHUT_RD)  # wakes a keep-alive wait; a reply can still go out
            except OSError:
                pass  # the client closed it in the meantime
        for worker in workers:
            worker.join(timeout)
        self.server_close()
