"""The floor for ``bench/bench_http.py``: a bare Flask app that stores each posted JSON body as
one row, on the same database as the real server (SQLite in WAL mode with ``synchronous=FULL``,
or PostgreSQL through psycopg). Nothing else: no authentication, no rules, no ORM. What the real
server does beyond this is what recording a hand costs over storing a row.

``create_app()`` reads ``DATABASE_URL`` (an SQLAlchemy-style URL, as the real server does).
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from typing import Any

from flask import Flask, jsonify, request


def _sqlite_path(url: str) -> str:
    return url.split("///", 1)[1]


def _pg_dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def create_app() -> Flask:
    url = os.environ["DATABASE_URL"]
    app = Flask(__name__)
    local = threading.local()

    if url.startswith("sqlite"):
        path = _sqlite_path(url)

        def connect() -> Any:
            conn = sqlite3.connect(path, timeout=15, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            return conn

        setup = connect()
        setup.execute("CREATE TABLE IF NOT EXISTS row (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        setup.close()
        insert = "INSERT INTO row (body) VALUES (?) RETURNING id"
    else:
        import psycopg

        dsn = _pg_dsn(url)

        def connect() -> Any:
            return psycopg.connect(dsn, autocommit=True)

        with psycopg.connect(dsn, autocommit=True) as setup:
            setup.execute("CREATE TABLE IF NOT EXISTS row (id SERIAL PRIMARY KEY, body TEXT NOT NULL)")
        insert = "INSERT INTO row (body) VALUES (%s) RETURNING id"

    def connection() -> Any:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = connect()
        return conn

    @app.post("/rows")
    def add_row() -> Any:
        body = request.get_json()
        row_id = connection().execute(insert, (json.dumps(body),)).fetchone()[0]
        return jsonify({"id": row_id}), 201

    return app
