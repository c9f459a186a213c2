"""gunicorn's settings for Tonk Ledger, read from the folder gunicorn is started in (the README's
scale-out command runs it from the project's top folder). Workers, threads and the address are
given on the command line."""
from __future__ import annotations

import gc
from typing import Any


def when_ready(_server: Any) -> None:
    """With ``--preload`` the app is built once, here in the master, before the workers fork.
    What it built lives as long as the processes: frozen, the collector's full passes skip it
    (no pause of ~0.1 s now and then in a request), and the workers share those pages with the
    master instead of copying them when the collector would touch them."""
    gc.freeze()


def worker_exit(_server: Any, _worker: Any) -> None:
    """A worker ending (SIGTERM to gunicorn, a restart, ``--max-requests``) stops its PDF worker
    processes first (:func:`ledger.statements.render_pool.shutdown_all`), so none outlives it."""
    from ledger.statements import render_pool

    render_pool.shutdown_all()
