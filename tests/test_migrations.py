"""The alembic migrations build exactly the schema the models describe."""
from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from ledger.db import make_engine, upgrade


def test_migrations_match_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    upgrade(engine)  # a second run is a no-op
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []
        tables = set(inspect(connection).get_table_names())
    assert {"game_session", "access_key", "hand", "hand_transfer", "payment", "audit_event", "alembic_version"} <= tables
    engine.dispose()
