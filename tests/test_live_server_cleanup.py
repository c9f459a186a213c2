"""Finding 14 of the "nothing lost" review: on PostgreSQL a psycopg connection was sometimes
garbage-collected while still open, failing a random later test. The cause was a request still
running in a browser test's server thread when the test ended: the engine was disposed and the
test database dropped under the connection that request held. The live server now finishes
every request before the app fixture disposes the engine."""
from __future__ import annotations

import socket
import threading
import time
import urllib.request
from typing import Any

from sqlalchemy import text

from ledger.db import get_engine, get_session
from live_server import JoinedServer


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
