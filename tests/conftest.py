"""Shared fixtures: a real database per test (SQLite file, or a fresh PostgreSQL database when
``LEDGER_TEST_DATABASE_URL`` names a server), the app, and its test client."""
from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest

from ledger import create_app

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
PG_URL = os.environ.get("LEDGER_TEST_DATABASE_URL")
# CI's second pass (.ci/run): only the tests that store anything, once more on PostgreSQL; the rules
# engine, settlement, catalogues and PDF layout ran on the first pass and know no database.
DATABASE_ONLY = bool(PG_URL) and os.environ.get("LEDGER_TEST_DATABASE_ONLY") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not DATABASE_ONLY:
        return
    kept = [item for item in items if "database_url" in getattr(item, "fixturenames", ())]
    dropped = [item for item in items if "database_url" not in getattr(item, "fixturenames", ())]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def load_json(relative: str) -> Any:
    """A JSON file relative to ``tests/`` (or, for ``nights/...``, to the repository)."""
    base = REPO if relative.startswith("nights/") else TESTS
    return json.loads((base / relative).read_text(encoding="utf-8"))


def _fresh_postgres_database(base_url: str) -> Iterator[str]:
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    name = f"tonk_test_{uuid.uuid4().hex[:12]}"
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """An SQLAlchemy URL of an empty database that lives for one test."""
    if PG_URL:
        yield from _fresh_postgres_database(PG_URL)
    else:
        yield f"sqlite:///{tmp_path / 'ledger.sqlite3'}"


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    # the settle limit is raised so that tests replaying many cases are not throttled; the
    # shipped limit is tested in test_api_settle_limits.py
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "SETTLE_LIMIT": "1000 per minute"})
    yield app
    app.extensions["ledger.engine"].dispose()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def pseudo_app(database_url: str) -> Iterator[Any]:
    """The app with the pseudo language (``?lang=en-XA``) on: every catalogue sentence in
    accented look-alike letters, so that English left unwrapped shows."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "I18N_PSEUDO": True})
    yield app
    app.extensions["ledger.engine"].dispose()


@pytest.fixture
def night_data() -> dict[str, Any]:
    return load_json("nights/night-01.json")


def session_body(night: dict[str, Any]) -> dict[str, Any]:
    return {k: night[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}


@pytest.fixture
def watched_table(app: Any, client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    """A night opened through the API and the host's phone watching it (a test client that
    joined with the host's link): ``id``, API ``headers``, ``phone``."""
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    phone = app.test_client()
    assert phone.get(f"/join/{body['id']}/{body['token']}").status_code == 302
    return {"id": body["id"], "headers": {"Authorization": f"Bearer {body['token']}"}, "phone": phone}


@pytest.fixture
def open_night(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    """A session opened through the API from night-01's header; returns id, token, headers."""
    response = client.post("/api/v1/sessions", json=session_body(night_data))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return {
        "id": body["id"],
        "token": body["token"],
        "headers": {"Authorization": f"Bearer {body['token']}"},
        "body": body,
    }
