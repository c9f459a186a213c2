"""A real server process for tests: ``tonk-ledger serve`` (waitress) on 127.0.0.1, on the
test's database, plus a tiny JSON HTTP client (standard library)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
        env = dict(os.environ, DATABASE_URL=self.database_url, SECRET_KEY="live-test-secret")
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
    ``OSError`` (``urllib.error.URLError`` is one)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as err:
        raw = err.read()
        try:
            return err.code, json.loads(raw)
        except ValueError:
            return err.code, raw.decode(errors="replace")
