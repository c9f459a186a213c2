"""Issue 11: phones recording, voiding, restoring, correcting and paying at the same moment,
through a real server process, leave the running figures (:mod:`ledger.night.figures`) equal to a full
recomputation from the hands and payments. Run on PostgreSQL when ``LEDGER_TEST_DATABASE_URL``
is set (its row locks, not a process-wide lock, queue the writers), else on SQLite."""
from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import session_body
from kept_figures import checked_figures_at
from live_server import ServerProcess, call, free_port

RECORDERS = 4
HANDS_EACH = 15
ROUNDS = 25  # voids, restores, corrections and payments per changing phone


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, free_port())
    process.start(tmp_path / "server.log")
    yield process
    process.stop()


def entry(night_data: dict[str, Any], index: int) -> dict[str, Any]:
    hand = night_data["hands"][index % len(night_data["hands"])]
    return {"outcome": hand["outcome"], "hands": hand["hands"]}


@pytest.mark.slow
def test_concurrent_recorders_voiders_and_payers_keep_the_figures_exact(
    server: ServerProcess, database_url: str, night_data: dict[str, Any]
) -> None:
    status, created = call(server.base, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201, created
    url = f"/api/v1/sessions/{created['id']}"
    host = {"Authorization": f"Bearer {created['token']}"}
    player = {"Authorization": f"Bearer {created['player_token']}"}
    players = list(night_data["players"])
    recorded: list[int] = []
    paid: list[int] = []
    unexpected: list[tuple[str, int, Any]] = []
    lock = threading.Lock()
    start = threading.Barrier(RECORDERS + 3)

    def note(what: str, status: int, body: Any, allowed: tuple[int, ...]) -> None:
        if status not in allowed:
            with lock:
                unexpected.append((what, status, body))

    def recorder(phone: int) -> None:
        start.wait()
        for i in range(HANDS_EACH):
            status, body = call(server.base, "POST", f"{url}/hands", entry(night_data, phone * HANDS_EACH + i),
                                player | {"Idempotency-Key": f"p{phone}-{i}"})
            note("record", status, body, (201,))
            if status == 201:
                with lock:
                    recorded.append(body["number"])

    def voider(seed: int) -> None:
        rng = random.Random(seed)
        start.wait()
        for _ in range(ROUNDS):
            with lock:
                numbers = list(recorded)
            if not numbers:
                continue
            number = rng.choice(numbers[-3:])  # the newest hands: the two phones often meet on one
            action = rng.choice(["void", "restore", "undo", "amend"])
            if action == "amend":
                status, current = call(server.base, "GET", f"{url}/hands/{number}", headers=host)
                note("read", status, current, (200,))
                status, body = call(server.base, "POST", f"{url}/hands/{number}/amend",
                                    entry(night_data, rng.randrange(30)) | {"version": current["version"]}, host)
                note("amend", status, body, (201, 409))  # 409: voided or changed by the other phone first
            elif action == "undo":
                status, body = call(server.base, "POST", f"{url}/undo", {}, host)
                note("undo", status, body, (200, 404))
            else:
                status, body = call(server.base, "POST", f"{url}/hands/{number}/{action}", {}, host)
                note(action, status, body, (200,))

    def payer() -> None:
        rng = random.Random(7)
        start.wait()
        for _ in range(ROUNDS):
            if paid and rng.random() < 0.3:
                status, body = call(server.base, "POST", f"{url}/payments/{rng.choice(paid)}/void", {}, host)
                note("void payment", status, body, (200,))
                continue
            a, b = rng.sample(players, 2)
            status, body = call(server.base, "POST", f"{url}/payments",
                                {"from": a, "to": b, "amount": rng.randrange(1, 200), "confirm": True}, player)
            note("pay", status, body, (201,))
            if status == 201:
                paid.append(body["id"])

    threads = ([threading.Thread(target=recorder, args=(p,)) for p in range(RECORDERS)]
               + [threading.Thread(target=voider, args=(s,)) for s in (1, 2)] + [threading.Thread(target=payer)])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert unexpected == []
    assert sorted(recorded) == list(range(1, RECORDERS * HANDS_EACH + 1))

    kept = checked_figures_at(database_url, created["id"])
    assert sum(kept.net.values()) == 0 and sum(kept.paid.values()) == 0
    status, session = call(server.base, "GET", url, headers=host)
    status, listing = call(server.base, "GET", f"{url}/hands", headers=host)
    counted = [h for h in listing["hands"] if h["status"] == "counted"]
    assert session["net"] == {p: sum(h["net"].get(p, 0) for h in counted) for p in players}
    assert session["hand_count"] == len(counted) == kept.counted_hands


@pytest.mark.slow
def test_the_same_change_from_many_phones_at_once_counts_once(
    server: ServerProcess, database_url: str, night_data: dict[str, Any]
) -> None:
    """Eight phones void the same hand at the same instant, then restore it, then void the same
    payment: each change counts once in the figures."""
    status, created = call(server.base, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201, created
    url = f"/api/v1/sessions/{created['id']}"
    host = {"Authorization": f"Bearer {created['token']}"}
    for i in range(4):
        status, body = call(server.base, "POST", f"{url}/hands", entry(night_data, i), host)
        assert status == 201, body
    status, payment = call(server.base, "POST", f"{url}/payments",
                           {"from": night_data["players"][0], "to": night_data["players"][1], "amount": 40,
                            "confirm": True}, host)
    assert status == 201, payment
    taps = 8
    changes = [f"{url}/hands/{n}/{action}" for n in (1, 2, 3, 4) for action in ("void", "restore", "void")]
    statuses: list[int] = []

    def tap(path: str, start: threading.Barrier) -> None:
        start.wait()
        status, _ = call(server.base, "POST", path, {}, host)
        statuses.append(status)

    for path in changes + [f"{url}/payments/{payment['id']}/void"]:
        start = threading.Barrier(taps)
        threads = [threading.Thread(target=tap, args=(path, start)) for _ in range(taps)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert statuses == [200] * taps * (len(changes) + 1)

    kept = checked_figures_at(database_url, created["id"])
    assert kept.counted_hands == 0 and set(kept.net.values()) == {0} and set(kept.paid.values()) == {0}
    status, history = call(server.base, "GET", f"{url}/history", headers=host)
    actions = [e["action"] for e in history["events"]]
    assert (actions.count("hand_voided"), actions.count("hand_restored"), actions.count("payment_voided")) == (8, 4, 1)
