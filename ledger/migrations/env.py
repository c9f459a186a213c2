"""Alembic environment: runs on the connection the app hands over (see ``ledger.storage.db``), or,
when ``alembic`` is run by hand, on a connection of its own that is closed (and its engine
disposed) when the migrations are done."""
from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from ledger.storage import models  # noqa: F401  (registers the tables)


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=SQLModel.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


config = context.config
given = config.attributes.get("connection")
if given is not None:
    run_migrations(given)
else:  # `alembic` run by hand: use the URL from the config
    from sqlalchemy import create_engine

    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    try:
        with engine.connect() as own:
            run_migrations(own)
            own.commit()
    finally:
        engine.dispose()
