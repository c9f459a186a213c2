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


def test_finding_13_a_database_from_before_upgrades_with_utc_nights_and_whole_keys(database_url: str) -> None:
    """A database made by revision 0001, with a night in it, upgrades to head: the night is a
    UTC night, its times read back aware, and a 200-character key fits."""
    from datetime import datetime, timedelta

    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.db import migrations_config
    from ledger.models import GameSession

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text(
            "INSERT INTO game_session (id, name, currency, stake_minor, ruleset, players, first_dealer, status, "
            "last_hand_number, created_at) VALUES ('old', 'Old night', 'USD', 25, '{}', '[\"A\", \"B\"]', 'A', "
            "'open', 0, :at)"), {"at": datetime(2026, 1, 3, 7, 30)})
    upgrade(engine)
    with Session(engine) as db:
        night = db.get(GameSession, "old")
        assert night is not None and night.timezone == "UTC"
        assert night.created_at.utcoffset() == timedelta(0) and night.created_at.hour == 7
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO hand (session_id, number, version, dealer, kind, entry, result, redeal, status, "
            "idempotency_key, created_at) VALUES ('old', 1, 1, 'A', 'knock', '{}', '{}', false, 'counted', :key, :at)"),
            {"key": "k" * 200, "at": datetime(2026, 1, 3, 7, 31)})
        assert connection.execute(text("SELECT idempotency_key FROM hand")).scalar_one() == "k" * 200
    engine.dispose()
