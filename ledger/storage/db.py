"""Database engine and per-request sessions (SQLite by default, PostgreSQL via psycopg 3).

``init_app(app)`` builds one engine from ``app.config["DATABASE_URL"]`` (an SQLAlchemy URL) and
brings the schema up to date with the alembic migrations in ``ledger/migrations``. SQLite runs in
WAL mode with foreign keys on and a busy timeout.

Short, fair writes: a request reads in an ordinary (deferred) transaction, so authenticating,
parsing and scoring never hold a lock. Just before its first write it calls
:func:`begin_write`, which ends the read transaction and opens a write transaction. On SQLite
that is ``BEGIN IMMEDIATE`` behind a process-wide first-come-first-served writer lock
(:class:`FairLock`): the threads of one process queue in order instead of spinning in SQLite's
busy handler, and SQLite's own lock (with its busy timeout) still guards between processes.
The writer lock is released when the transaction ends (commit, rollback or close). On
PostgreSQL the read transaction (READ COMMITTED, so each statement sees what is committed) goes
on as the write one, on the same connection: row locks (``FOR UPDATE``, the hand counter's
``UPDATE``) queue the writers.
"""
from __future__ import annotations

import threading
import warnings
import weakref
from collections import deque
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from alembic import command
from alembic.config import Config
from sqlmodel import Session, create_engine

from ledger.storage import models  # noqa: F401  (registers the tables on SQLModel.metadata)

SQLITE_BUSY_TIMEOUT_MS = 15000


class FairLock:
    """A lock granted in the order it was asked for (first come, first served), unlike
    :class:`threading.Lock`, which lets a thread that just released it take it again."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()
        self._held = False

    def acquire(self) -> None:
        with self._mutex:
            if not self._held and not self._waiting:
                self._held = True
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by the holder handing the lock over; ``_held`` stays True

    def release(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._held = False


class LedgerSession(Session):
    """The request's session: reads in deferred transactions; :meth:`begin_write` before the
    first write (see the module's notes). Ends of transactions release the writer lock."""

    _writer_lock: FairLock | None = None
    _writing = False  # PostgreSQL: begin_write() was called in this transaction

    def begin_write(self) -> None:
        """Mark where the request starts writing (nothing may be pending). On SQLite: end the
        read transaction and open a write one, ``BEGIN IMMEDIATE`` behind the process's
        :class:`FairLock`; on PostgreSQL the transaction goes on (see the module's notes).
        Calling it again in the same write transaction changes nothing."""
        if self._writer_lock is not None or self._writing:
            return
        if self.new or self.dirty or self.deleted:
            raise RuntimeError("begin_write() must come before the request's first change")
        lock: FairLock | None = _WRITER_LOCKS.get(self.get_bind())
        if lock is None:
            # PostgreSQL: the read transaction (READ COMMITTED: each statement sees what is
            # committed) goes on as the write one on the same connection; row locks queue writers
            self._writing = True
            return
        reading = self.connection() if self.in_transaction() else None
        if reading is not None:
            # SQLite: end the read transaction before queueing (a reader waiting in the queue
            # would hold WAL checkpoints back), then open the write one on the same connection
            # (the driver leaves transactions to us, see ``_configure_sqlite``): nothing was written
            reading.exec_driver_sql("COMMIT")
        lock.acquire()
        self._writer_lock = lock
        try:
            if reading is not None:
                reading.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                _intent.write = True
                self.connection()  # BEGIN IMMEDIATE now (see ``_configure_sqlite``)
        except BaseException:
            self._release()
            raise
        finally:
            _intent.write = False

    def _release(self) -> None:
        self._writing = False
        lock, self._writer_lock = self._writer_lock, None
        if lock is not None:
            lock.release()

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self._release()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._release()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release()


_WRITER_LOCKS: weakref.WeakKeyDictionary[Any, FairLock] = weakref.WeakKeyDictionary()  # SQLite engines
_intent = threading.local()  # ``write`` is True while begin_write() opens its transaction


def begin_write(db: Session) -> None:
    """Mark where a request starts writing (see :meth:`LedgerSession.begin_write`); a no-op for
    a session of another kind (alembic's, a script's)."""
    if isinstance(db, LedgerSession):
        db.begin_write()


def make_engine(url: str) -> Engine:
    """An engine for ``url``. Creates the folder of an SQLite file if needed."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        )
        _configure_sqlite(engine)
        return engine
    # READ COMMITTED (PostgreSQL's default, said here so a server set otherwise changes nothing):
    # a request's reads and writes share one transaction, and each statement sees what is committed
    return create_engine(url, pool_pre_ping=True, isolation_level="READ COMMITTED")


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # let SQLAlchemy, not the driver, decide when transactions begin
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.close()

    _WRITER_LOCKS[engine] = FairLock()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        # reads take no lock; a write transaction takes SQLite's write lock at once
        connection.exec_driver_sql("BEGIN IMMEDIATE" if getattr(_intent, "write", False) else "BEGIN")


@event.listens_for(LedgerSession, "before_flush")
def _unmarked_write(session: Session, _context: Any, _instances: Any) -> None:
    """A change flushed without :func:`begin_write` would upgrade a read transaction to a write
    (which SQLite may refuse at once when another writer committed meanwhile): warn, so the
    tests (warnings are errors) point at the path to mark."""
    check_writing(session, stacklevel=3)


def check_writing(db: Session, stacklevel: int = 2) -> None:
    """Call before a Core write (an ``insert``/``update`` run on ``db.connection()``, which no
    flush sees): warns, as a flush would, when :func:`begin_write` has not opened the write."""
    if isinstance(db, LedgerSession) and db._writer_lock is None and _WRITER_LOCKS.get(db.get_bind()) is not None:
        warnings.warn("a write without db.begin_write(): mark where the request starts writing",
                      RuntimeWarning, stacklevel=stacklevel + 1)


def migrations_config() -> Config:
    config = Config()
    config.set_main_option("script_location", "ledger:migrations")
    return config


def upgrade(engine: Engine) -> None:
    """Apply every pending migration (alembic ``upgrade head``) in one transaction."""
    config = migrations_config()
    _intent.write = True  # on SQLite: BEGIN IMMEDIATE, so processes starting together queue
    try:
        with engine.begin() as connection:
            _intent.write = False
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    finally:
        _intent.write = False


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    upgrade(engine)
    if engine.url.database not in (None, "", ":memory:"):
        engine.dispose()  # no connection outlives start-up: gunicorn --preload forks after this
    app.extensions["ledger.engine"] = engine
    app.teardown_appcontext(_close_session)


def get_engine() -> Engine:
    return current_app.extensions["ledger.engine"]


def get_session() -> LedgerSession:
    """The request's database session (one per app context, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = LedgerSession(get_engine(), expire_on_commit=False)
    return g.db_session


def _close_session(_exc: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
