"""Issue 11 item 5: the pool PDFs render in, off the request threads (:mod:`ledger.statements.render_pool`).

Jobs here are real functions handed to the pool: one that waits for the test to let it finish
(so "while a render runs" is a state, never a timing), the real PDF renderer, and one that
kills its worker process.
"""
from __future__ import annotations

import io
import os
import threading
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timezone
from typing import Any

import pytest
from pypdf import PdfReader

from ledger.statements.render_pool import Busy, RenderPool
from ledger.night.report import HandLine, SessionReport
from ledger.statements.pack import render

GATES: dict[str, threading.Event] = {}


def held(name: str, result: str) -> str:
    """A job that finishes when the test opens its gate."""
    assert GATES[name].wait(60)
    return result


def failing(message: str) -> str:
    raise ValueError(message)


class Cache:
    """What the downloads keep: a dict, with how often each key was stored."""

    def __init__(self) -> None:
        self.items: dict[str, Any] = {}
        self.stored: list[str] = []

    def keeper(self, key: str) -> dict[str, Any]:
        def keep(item: Any) -> None:
            self.stored.append(key)
            self.items[key] = item

        return {"keep": keep, "kept": lambda: self.items.get(key)}


def ask(pool: RenderPool, cache: Cache, key: str, job: Any, args: tuple[Any, ...], answers: list[Any],
        timeout: float = 60) -> None:
    try:
        answers.append(pool.render(key, job, lambda: args, timeout=timeout, **cache.keeper(key)))
    except Exception as err:  # noqa: BLE001  (the test looks at what came back)
        answers.append(err)


def wait_for(condition: Any) -> None:
    event = threading.Event()
    for _ in range(6000):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("the pool never reached the state waited for")


def test_a_second_request_for_a_render_under_way_joins_it() -> None:
    pool, cache = RenderPool("thread", workers=2), Cache()
    GATES["join"] = threading.Event()
    answers: list[Any] = []
    first = threading.Thread(target=ask, args=(pool, cache, "pack-7", held, ("join", "the pdf"), answers))
    first.start()
    wait_for(lambda: pool.pending() == 1)
    second = threading.Thread(target=ask, args=(pool, cache, "pack-7", held, ("join", "another pdf"), answers))
    second.start()
    wait_for(lambda: pool.joined == 1)
    assert pool.renders == 1 and cache.stored == []
    GATES["join"].set()
    first.join(60)
    second.join(60)
    assert answers == ["the pdf", "the pdf"]
    assert (pool.renders, pool.joined, pool.pending()) == (1, 1, 0)
    assert cache.stored == ["pack-7"]  # kept once
    ask(pool, cache, "pack-7", held, ("join", "never rendered"), answers)
    assert answers[-1] == "the pdf" and pool.renders == 1  # from the cache
    pool.shutdown()


def test_a_request_that_waits_too_long_is_told_busy_and_the_render_still_lands_in_the_cache() -> None:
    pool, cache = RenderPool("thread", workers=1), Cache()
    GATES["slow"] = threading.Event()
    answers: list[Any] = []
    ask(pool, cache, "summary-3", held, ("slow", "late pdf"), answers, timeout=0.05)
    assert isinstance(answers[0], Busy)
    assert pool.pending() == 1  # the render goes on
    GATES["slow"].set()
    wait_for(lambda: pool.pending() == 0)
    assert cache.items == {"summary-3": "late pdf"}
    pool.shutdown()


def test_no_more_than_the_allowed_requests_wait_at_once() -> None:
    pool, cache = RenderPool("thread", workers=1, waiters=2), Cache()
    GATES["crowd"] = threading.Event()
    answers: list[Any] = []
    waiting = [threading.Thread(target=ask, args=(pool, cache, f"k{i}", held, ("crowd", i), answers)) for i in (1, 2)]
    for thread in waiting:
        thread.start()
    wait_for(lambda: pool.pending() == 2)
    third: list[Any] = []
    ask(pool, cache, "k3", held, ("crowd", 3), third)
    assert isinstance(third[0], Busy) and pool.renders == 2  # refused at once, nothing started
    GATES["crowd"].set()
    for thread in waiting:
        thread.join(60)
    assert sorted(answers) == [1, 2]
    pool.shutdown()


def test_a_failing_render_raises_its_error_and_keeps_nothing() -> None:
    pool, cache = RenderPool("thread", workers=1), Cache()
    answers: list[Any] = []
    ask(pool, cache, "bad", failing, ("no such seat",), answers)
    assert isinstance(answers[0], ValueError) and str(answers[0]) == "no such seat"
    assert cache.items == {} and pool.pending() == 0
    pool.shutdown()


def small_report() -> SessionReport:
    """Three players, six hands, each player winning two (so nobody owes anything)."""
    players = ("Dee", "Rosa", "Ed")
    hands = tuple(HandLine(n, players[n % 3], f"{players[(n + 1) % 3]} won", (players[(n + 1) % 3],),
                           {p: (50 if p == players[(n + 1) % 3] else -25) for p in players}) for n in range(1, 7))
    return SessionReport(name="Pool night", currency="USD", stake_minor=25, preset="classic",
                         created_at=datetime(2026, 1, 3, 21, 30, tzinfo=timezone.utc), players=players, hands=hands,
                         net_minor=dict.fromkeys(players, 0), settlement=())


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.slow
def test_worker_processes_render_the_pdf_and_a_dead_worker_is_replaced() -> None:
    """In worker processes (spawned) the pack renders as in the request thread; a worker that
    dies fails its render (tried once more in a fresh pool), and the next render gets a fresh
    pool."""
    pool, cache = RenderPool("process", workers=1), Cache()
    report = small_report()
    answers: list[Any] = []
    ask(pool, cache, "pack", render, ("pack", report, None, "en_US"), answers)
    pdf, name = answers[0]
    here, here_name = render("pack", report, None, "en_US")
    assert name == here_name == "Pool night-2026-01-03-pack.pdf"
    assert text_of(pdf) == text_of(here) and "Pool night" in text_of(pdf)
    ask(pool, cache, "dies", os._exit, (3,), answers)
    assert isinstance(answers[1], BrokenProcessPool)
    ask(pool, cache, "summary", render, ("summary", report, None, "en_US"), answers)
    assert answers[2][1] == "Pool night-2026-01-03.pdf" and text_of(answers[2][0]) in text_of(pdf)
    assert pool.renders == 4  # the pack, the dying job twice, the summary
    assert sorted(cache.stored) == ["pack", "summary"]
    pool.shutdown()


def niceness() -> int:
    """A job: the niceness of the process that runs it."""
    return os.nice(0)


@pytest.mark.slow
def test_worker_processes_run_a_little_below_the_server_and_at_its_priority_at_nice_0() -> None:
    """Issue 20 item 11: a worker runs ``PDF_NICE`` (default 5) below the server, not at 19,
    where a render starved behind any busy process; at 0 it runs at the server's priority."""
    here, answers = os.nice(0), []
    for pool in (RenderPool("process"), RenderPool("process", nice=0)):
        ask(pool, Cache(), "nice", niceness, (), answers)
        pool.shutdown()
    assert answers == [min(19, here + 5), here]


def test_the_worker_priority_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """``PDF_NICE`` comes from the environment too (the test servers set 0), default 5."""
    from ledger.app import create_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'nice.sqlite3'}")
    monkeypatch.setenv("SECRET_KEY", "nice-test-secret")
    monkeypatch.delenv("PDF_NICE", raising=False)
    assert create_app().config["PDF_NICE"] == 5
    monkeypatch.setenv("PDF_NICE", "0")
    assert create_app().config["PDF_NICE"] == 0
