"""Alembic environment: runs on the connection the app hands over (see ``ledger.db``)."""
from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

from ledger import models  # noqa: F401  (registers the tables)

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # `alembic` run by hand: use the URL from the config
    from sqlalchemy import create_engine

    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    connection = engine.connect()

context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
