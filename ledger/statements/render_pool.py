"""PDFs rendered off the request threads, so heavy work never starves the table.

A :class:`RenderPool` runs renders in a small pool of worker processes (``PDF_POOL = "process"``,
the default: reportlab layout is pure Python and holds the GIL, so in a thread it would slow
every request of the server; see ``bench/bench_http.py --pdf``) or threads (``"thread"``), of
``PDF_WORKERS`` workers (default 1, so a server on two cores keeps one for the table). Worker
processes run a little below the request threads (``os.nice``, ``PDF_NICE``, default 5): when
both compete for a core the table's requests win, yet a render still gets its share beside
other busy processes of the machine. At 19 (the lowest) a render got almost nothing while any
other process kept the cores busy, and a download waited past its timeout. ``0`` runs the
workers at the server's own priority (the test servers do). They start by the ``spawn`` method
(never a fork of a threaded server) and load the fonts once.

Each render has a key; a request for a key whose render is under way joins that render instead
of starting another (:attr:`RenderPool.renders` counts the renders started,
:attr:`RenderPool.joined` the requests that joined one). A request waits ``PDF_TIMEOUT``
seconds at most (:class:`Busy` then; the render goes on), and at most ``PDF_WAITERS`` requests
wait at once, so waiting downloads cannot take every request thread (:class:`Busy` at once for
one more). A finished render is handed to ``keep`` (the download cache) whether or not anyone
still waits for it, so asking again is answered from the cache. :func:`shutdown_all` stops the
pools on every way out of the process, so no worker outlives its server.
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from flask import Flask, current_app

DEFAULTS: dict[str, Any] = {"PDF_POOL": "process", "PDF_WORKERS": 1, "PDF_TIMEOUT": 60, "PDF_WAITERS": 4,
                            "PDF_NICE": 5}
POOL_KINDS = ("process", "thread")


class Busy(Exception):
    """The render did not finish within the wait (it goes on), or too many requests wait already."""


def _start_worker(nice: int) -> None:
    """A worker process: lower priority than the request threads, fonts loaded once."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    from ledger.statements import fonts

    fonts.ensure_fonts()


class RenderPool:
    """Renders by key in ``workers`` processes or threads (``kind``), joining renders under way."""

    def __init__(self, kind: str = "process", workers: int = 1, nice: int = DEFAULTS["PDF_NICE"], waiters: int = 4) -> None:
        if kind not in POOL_KINDS:
            raise ValueError(f"PDF_POOL must be one of {POOL_KINDS}, not {kind!r}")
        self.kind, self.workers, self.nice = kind, max(1, int(workers)), int(nice)
        self.renders = 0
        self.joined = 0
        self._lock = threading.Lock()
        self._pending: dict[Hashable, Future[Any]] = {}
        self._executor: Executor | None = None
        self._waiting = threading.BoundedSemaphore(max(1, int(waiters)))

    def pending(self) -> int:
        """How many renders are under way (or queued)."""
        with self._lock:
            return len(self._pending)

    def render(self, key: Hashable, job: Callable[..., Any], args: Callable[[], tuple[Any, ...]], *,
               keep: Callable[[Any], None], kept: Callable[[], Any], timeout: float) -> Any:
        """The result of ``job(*args())`` (``job`` a top-level function, its arguments
        picklable, for a process pool): what ``kept()`` finds (the cache, looked at again under
        the pool's lock), the render of ``key`` under way, or a new one; ``args`` is called
        only for a new one, outside any lock. ``keep(result)`` stores each finished render.
        Raises :class:`Busy` when ``timeout`` seconds pass first or too many requests wait; the
        job's own exception when it fails."""
        if not self._waiting.acquire(blocking=False):
            raise Busy("too many PDF downloads wait already")
        try:
            for attempt in (1, 2):
                future, found = self._future(key, job, args, keep, kept)
                if future is None:
                    return found
                try:
                    return future.result(timeout)
                except FutureTimeout:
                    raise Busy("the PDF is still being made") from None
                except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool, once
                    self._discard(future)
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self._waiting.release()

    def _future(self, key: Hashable, job: Callable[..., Any], args: Callable[[], tuple[Any, ...]],
                keep: Callable[[Any], None], kept: Callable[[], Any]) -> tuple[Future[Any] | None, Any]:
        """``(None, result kept)``, or ``(future, None)``: the render of ``key`` under way or a new one."""
        made: tuple[Any, ...] | None = None
        while True:
            with self._lock:
                found = kept()
                if found is not None:
                    return None, found
                future = self._pending.get(key)
                if future is not None:
                    self.joined += 1
                    return future, None
                if made is not None:
                    future = self._submit(job, made)
                    self.renders += 1
                    self._pending[key] = future
                    break
            made = args()  # read what to render without the lock; then look again
        future.add_done_callback(lambda done: self._finished(key, done, keep))
        return future, None

    def _submit(self, job: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any]:
        if self._executor is None:
            self._executor = self._new_executor()
        try:
            return self._executor.submit(job, *args)
        except (BrokenProcessPool, RuntimeError):  # broken, or shut down
            self._executor = self._new_executor()
            return self._executor.submit(job, *args)

    def _new_executor(self) -> Executor:
        if self.kind == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="pdf")
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_start_worker, initargs=(self.nice,))

    def _finished(self, key: Hashable, future: Future[Any], keep: Callable[[Any], None]) -> None:
        with self._lock:
            if not future.cancelled() and future.exception() is None:
                keep(future.result())  # cached before it stops being pending: no second render
            if self._pending.get(key) is future:
                del self._pending[key]

    def _discard(self, future: Future[Any]) -> None:
        with self._lock:
            for key, pending in list(self._pending.items()):
                if pending is future:
                    del self._pending[key]

    def shutdown(self, *, cancel_queued: bool = False) -> None:
        """Stop the workers (renders under way finish first; with ``cancel_queued`` the renders
        not started yet are dropped, their waiters told so)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=cancel_queued)


_POOLS: dict[tuple[str, int, int, int], RenderPool] = {}
_POOLS_LOCK = threading.Lock()


def init_app(app: Flask) -> None:
    """Read the pool's settings (``PDF_POOL``, ``PDF_WORKERS``, ``PDF_TIMEOUT``, ``PDF_WAITERS``,
    ``PDF_NICE``) into the app's config, defaults where unset; the pool starts at the first render."""
    for name, value in DEFAULTS.items():
        app.config.setdefault(name, value)
    if app.config["PDF_POOL"] not in POOL_KINDS:
        raise ValueError(f"PDF_POOL must be one of {POOL_KINDS}, not {app.config['PDF_POOL']!r}")
    for name in ("PDF_WORKERS", "PDF_WAITERS", "PDF_NICE"):  # from the environment they are text
        app.config[name] = int(app.config[name])
    app.config["PDF_TIMEOUT"] = float(app.config["PDF_TIMEOUT"])


def pool() -> RenderPool:
    """The current app's pool: one per process and setting, shared by the apps of a process
    (tests make many), started after any fork (gunicorn ``--preload`` forks at start-up)."""
    config = current_app.config
    settings = (config["PDF_POOL"], config["PDF_WORKERS"], config["PDF_NICE"], config["PDF_WAITERS"])
    with _POOLS_LOCK:
        found = _POOLS.get(settings)
        if found is None:
            found = _POOLS[settings] = RenderPool(*settings)
        return found


def shutdown_all() -> None:
    """Stop every pool of this process: its worker processes end, and with the last of them
    multiprocessing's resource tracker (a render under way finishes, queued ones are dropped).
    Called on every way out of a server process: ``atexit`` (registered below), the SIGTERM and
    SIGINT handlers of ``tonk-ledger serve`` (:mod:`ledger.cli`), gunicorn's ``worker_exit``
    (``gunicorn.conf.py``). A pool used again afterwards starts afresh."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    for found in pools:
        found.shutdown(cancel_queued=True)


atexit.register(shutdown_all)
