"""Database engine and per-request sessions (SQLite by default, PostgreSQL via psycopg 3).

``init_app(app)`` builds one engine from ``app.config["DATABASE_URL"]`` (an SQLAlchemy URL) and
brings the schema up to date with the alembic migrations in ``ledger/migrations``. SQLite runs in WAL mode with foreign keys on, a busy timeout, and every
transaction opened with ``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from alembic import command
from alembic.config import Config
from sqlmodel import Session, create_engine

from ledger import models  # noqa: F401  (registers the tables on SQLModel.metadata)

SQLITE_BUSY_TIMEOUT_MS = 15000


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
    return create_engine(url, pool_pre_ping=True)


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

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def migrations_config() -> Config:
    config = Config()
    config.set_main_option("script_location", "ledger:migrations")
    return config


def upgrade(engine: Engine) -> None:
    """Apply every pending migration (alembic ``upgrade head``) in one transaction."""
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    upgrade(engine)
    app.extensions["ledger.engine"] = engine
    app.teardown_appcontext(_close_session)


def get_engine() -> Engine:
    return current_app.extensions["ledger.engine"]


def get_session() -> Session:
    """The request's database session (one per app context, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    return g.db_session


def _close_session(_exc: BaseException | None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
