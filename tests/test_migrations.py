"""The alembic migrations build exactly the schema the models describe."""
from __future__ import annotations

import json

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from ledger.storage.db import make_engine, upgrade


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

    from ledger.storage.db import migrations_config
    from ledger.storage.models import GameSession

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
            "INSERT INTO hand (session_id, number, version, dealer, players, stake_minor, kind, entry, result, redeal, "
            "status, idempotency_key, created_at) VALUES ('old', 1, 1, 'A', '[\"A\", \"B\"]', 25, 'knock', '{}', '{}', "
            "false, 'counted', :key, :at)"),
            {"key": "k" * 200, "at": datetime(2026, 1, 3, 7, 31)})
        assert connection.execute(text("SELECT idempotency_key FROM hand")).scalar_one() == "k" * 200
    engine.dispose()


def test_issue_13_old_hands_upgrade_to_the_nights_seating_and_stake(database_url: str) -> None:
    """A database at revision 0002 with a night, two hands and a payment upgrades to 0003:
    every hand was played at the night's seating and stake, the roster is the seating, the
    payment is a settle-up payment; downgrading drops the new columns again."""
    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.storage.db import migrations_config
    from ledger.storage.models import GameSession, Hand, Payment

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002")
        connection.execute(text(
            "INSERT INTO game_session (id, name, currency, stake_minor, ruleset, players, first_dealer, status, "
            "last_hand_number, created_at, timezone) VALUES ('old', 'Old night', 'USD', 40, '{}', "
            "'[\"Dee\", \"Rosa\", \"Ed\"]', 'Dee', 'open', 2, '2026-01-03 07:30:00', 'UTC')"))
        for number in (1, 2):
            connection.execute(text(
                "INSERT INTO hand (session_id, number, version, dealer, kind, entry, result, redeal, status, "
                "created_at) VALUES ('old', :n, 1, 'Dee', 'knock', '{}', '{}', false, 'counted', "
                "'2026-01-03 07:31:00')"), {"n": number})
        connection.execute(text(
            "INSERT INTO payment (session_id, payer, payee, amount_minor, status, created_at) "
            "VALUES ('old', 'Rosa', 'Dee', 40, 'counted', '2026-01-03 08:00:00')"))
    upgrade(engine)
    with Session(engine) as db:
        night = db.get(GameSession, "old")
        assert night is not None and night.roster == ["Dee", "Rosa", "Ed"]
        hands = db.exec(select_all(Hand)).all()
        assert [(h.number, h.players, h.stake_minor) for h in sorted(hands, key=lambda h: h.number)] == [
            (1, ["Dee", "Rosa", "Ed"], 40), (2, ["Dee", "Rosa", "Ed"], 40)]
        assert [p.kind for p in db.exec(select_all(Payment)).all()] == ["payment"]
    engine.dispose()


def test_issue_13_migration_goes_down_again(database_url: str) -> None:
    from alembic import command

    from ledger.storage.db import migrations_config

    engine = make_engine(database_url)
    upgrade(engine)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
        assert "roster" not in {c["name"] for c in inspect(connection).get_columns("game_session")}
        assert {"players", "stake_minor"}.isdisjoint(c["name"] for c in inspect(connection).get_columns("hand"))
        assert "kind" not in {c["name"] for c in inspect(connection).get_columns("payment")}
    engine.dispose()


def select_all(model):  # type: ignore[no-untyped-def]
    from sqlmodel import select

    return select(model)


def test_issue_11_old_nights_upgrade_with_their_running_figures(database_url: str) -> None:
    """A database at revision 0003 with a night of counted, voided and corrected hands (two
    stakes, a player who left) and counted and voided payments upgrades to 0004 with figures
    equal to a recomputation from those hands and payments; downgrading drops them again."""
    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from kept_figures import checked_figures
    from ledger.storage.db import migrations_config
    from ledger.night.timeline import StakeChange

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        connection.execute(text(
            "INSERT INTO game_session (id, name, currency, stake_minor, ruleset, players, roster, first_dealer, "
            "status, last_hand_number, created_at, timezone) VALUES ('old', 'Old night', 'USD', 50, '{}', "
            "'[\"Dee\", \"Rosa\"]', '[\"Dee\", \"Rosa\", \"Ed\"]', 'Dee', 'open', 4, '2026-01-03 07:30:00', 'UTC')"))
        # number, version, status, seating, stake, transfers (payer, payee, amount)
        hands = [
            (1, 1, "counted", ["Dee", "Rosa", "Ed"], 25, [("Rosa", "Dee", 25), ("Ed", "Dee", 25)]),
            (2, 1, "superseded", ["Dee", "Rosa", "Ed"], 25, [("Dee", "Ed", 50)]),
            (2, 2, "counted", ["Dee", "Rosa", "Ed"], 25, [("Dee", "Rosa", 50)]),
            (3, 1, "voided", ["Dee", "Rosa", "Ed"], 25, [("Dee", "Ed", 75)]),
            (4, 1, "counted", ["Dee", "Rosa"], 50, [("Dee", "Rosa", 100)]),
        ]
        for number, version, status, seating, stake, moves in hands:
            hand_id = connection.execute(text(
                "INSERT INTO hand (session_id, number, version, dealer, players, stake_minor, kind, entry, result, "
                "redeal, status, created_at) VALUES ('old', :n, :v, 'Dee', :players, :stake, 'knock', '{}', '{}', "
                "false, :status, '2026-01-03 07:31:00') RETURNING id"),
                {"n": number, "v": version, "players": json.dumps(seating), "stake": stake, "status": status},
            ).scalar_one()
            for payer, payee, amount in moves:
                connection.execute(text(
                    "INSERT INTO hand_transfer (hand_id, payer, payee, amount_minor) VALUES (:h, :a, :b, :m)"),
                    {"h": hand_id, "a": payer, "b": payee, "m": amount})
        for payer, payee, amount, status in (("Ed", "Dee", 20, "counted"), ("Rosa", "Dee", 99, "voided")):
            connection.execute(text(
                "INSERT INTO payment (session_id, payer, payee, amount_minor, status, kind, created_at) "
                "VALUES ('old', :a, :b, :m, :s, 'payment', '2026-01-03 08:00:00')"),
                {"a": payer, "b": payee, "m": amount, "s": status})
    upgrade(engine)
    with Session(engine) as db:
        kept = checked_figures(db, "old")
        assert kept.net == {"Dee": 50 - 50 - 100, "Rosa": -25 + 50 + 100, "Ed": -25}
        assert kept.paid == {"Dee": -20, "Rosa": 0, "Ed": 20}
        assert kept.last_hand == {"Dee": 4, "Rosa": 4, "Ed": 3}
        assert kept.counted_hands == 3
        assert kept.stakes == [StakeChange(1, 25), StakeChange(4, 50)]
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0003")
        assert "player_figures" not in inspect(connection).get_table_names()
        assert {"counted_hands", "stakes"}.isdisjoint(c["name"] for c in inspect(connection).get_columns("game_session"))
    engine.dispose()


def test_issue_9_clubs_migration_keeps_old_nights_and_goes_down_again(database_url: str) -> None:
    """A database at revision 0003 with a night upgrades to head: the club tables exist, the
    night is still there (outside any club); downgrading below the clubs revision drops them."""
    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.storage.db import migrations_config
    from ledger.storage.models import GameSession

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        connection.execute(text(
            "INSERT INTO game_session (id, name, currency, stake_minor, ruleset, players, roster, first_dealer, "
            "status, last_hand_number, created_at, timezone) VALUES ('old', 'Old night', 'USD', 40, '{}', "
            "'[\"Dee\", \"Rosa\"]', '[\"Dee\", \"Rosa\"]', 'Dee', 'open', 0, '2026-01-03 07:30:00', 'UTC')"))
    upgrade(engine)
    with engine.connect() as connection:
        tables = set(inspect(connection).get_table_names())
    assert {"club", "club_member", "club_key", "club_night", "club_seat", "club_carry", "club_payment",
            "club_event"} <= tables
    with Session(engine) as db:
        night = db.get(GameSession, "old")
        assert night is not None and night.players == ["Dee", "Rosa"]
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005_clubs-1")
        assert "club" not in set(inspect(connection).get_table_names())
    engine.dispose()


def test_dotted_i_migration_rekeys_members_without_merging_any(database_url: str) -> None:
    """A club roster from revision 0006 upgrades to head: each member's name key now reads the
    Turkish İ and ı as i ("ALİ" alone in a club becomes "ali"), except where another member of
    the club already has that key ("Ali" and "ALİ" stay two members); downgrading gives the
    casefolded keys back."""
    from alembic import command
    from sqlalchemy import text

    from ledger.storage.db import migrations_config

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006_member_language")
        for club in ("one", "two"):
            connection.execute(text("INSERT INTO club (id, name, currency, timezone, created_at) "
                                    "VALUES (:id, 'Club', 'TRY', 'Europe/Istanbul', '2026-11-03 19:00:00')"),
                               {"id": club})
        members = [("one", "Ali"), ("one", "ALİ"), ("one", "Işık"), ("two", "ALİ"), ("two", "Alı")]
        for club, name in members:
            connection.execute(text("INSERT INTO club_member (club_id, name, name_key, created_at) "
                                    "VALUES (:club, :name, :key, '2026-11-03 19:00:00')"),
                               {"club": club, "name": name, "key": name.casefold()})

    def keys() -> list[tuple[str, str, str]]:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(
                "SELECT club_id, name, name_key FROM club_member ORDER BY id"))]

    upgrade(engine)
    assert keys() == [("one", "Ali", "ali"), ("one", "ALİ", "ali\u0307"), ("one", "Işık", "işik"),
                      ("two", "ALİ", "ali"), ("two", "Alı", "alı")]
    from sqlmodel import Session

    from ledger.storage.club_models import Club
    from ledger.clubs.roster import member_by_name

    with Session(engine) as db:  # each of the two is found by their own name, the rest by the rule
        one = db.get(Club, "one")
        assert [member_by_name(db, one, name).name for name in ("ALİ", "Ali", "ali", "IŞIK")] == \
            ["ALİ", "Ali", "Ali", "Işık"]
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006_member_language")
    assert keys() == [(club, name, name.casefold()) for club, name in members]
    engine.dispose()


def test_issue_20_club_keys_upgrade_live_and_the_column_goes_down_again(database_url: str) -> None:
    """A club key from revision 0009 upgrades to head with ``revoked_at`` empty (it still opens
    the club); downgrading to 0009 drops the column again."""
    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.access import roles as access
    from ledger.storage.club_models import Club
    from ledger.clubs.roster import actor_for
    from ledger.storage.db import migrations_config

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009_payment_keys")
        connection.execute(text("INSERT INTO club (id, name, currency, timezone, created_at) "
                                "VALUES ('one', 'Club', 'USD', 'UTC', '2026-11-03 19:00:00')"))
        connection.execute(text("INSERT INTO club_key (club_id, role, kind, secret_hash, label, created_at) "
                                "VALUES ('one', 'owner', 'link', :hash, 'owner link', '2026-11-03 19:00:00')"),
                           {"hash": access.hash_secret("old-owner-token")})
    upgrade(engine)
    with engine.connect() as connection:
        assert "revoked_at" in {c["name"] for c in inspect(connection).get_columns("club_key")}
    with Session(engine) as db:
        club = db.get(Club, "one")
        actor = actor_for(db, club, "old-owner-token")
        assert actor is not None and actor.role == "owner"
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0009_payment_keys")
        assert "revoked_at" not in {c["name"] for c in inspect(connection).get_columns("club_key")}
    engine.dispose()


def test_issue_21_old_nights_upgrade_as_tonk_nights_and_the_game_goes_down_again(database_url: str) -> None:
    """A night from revision 0011 upgrades to head as a Tonk night (``game`` 'tonk', no state, no
    accounts), whose figures still equal a recomputation; downgrading to 0011 drops the game's
    columns and the accounts table again."""
    from datetime import datetime

    from alembic import command
    from sqlalchemy import text
    from sqlmodel import Session

    from ledger.night import figures
    from ledger.storage.db import migrations_config
    from ledger.storage.models import GameSession

    engine = make_engine(database_url)
    config = migrations_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0011_carry_needs_owner")
        connection.execute(text(
            "INSERT INTO game_session (id, name, currency, stake_minor, ruleset, players, roster, first_dealer, "
            "status, last_hand_number, counted_hands, stakes, timezone, created_at) VALUES ('old', 'Old night', "
            "'USD', 25, '{}', '[\"A\", \"B\"]', '[\"A\", \"B\"]', 'A', 'open', 0, 0, '[[1, 25]]', 'UTC', :at)"),
            {"at": datetime(2026, 11, 3, 19, 0)})
        connection.execute(text("INSERT INTO player_figures (session_id, player, net_minor, paid_minor) "
                                "VALUES ('old', 'A', 0, 0), ('old', 'B', 0, 0)"))
    upgrade(engine)
    with Session(engine) as db:
        night = db.get(GameSession, "old")
        assert night is not None and night.game == "tonk" and night.game_state is None
        kept = figures.kept(db, night)
        assert kept.accounts == {} and kept.state is None
        assert kept.accounts == figures.recompute(db, night).accounts
    with engine.connect() as connection:
        assert "night_account" in set(inspect(connection).get_table_names())
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0011_carry_needs_owner")
        assert "game" not in {c["name"] for c in inspect(connection).get_columns("game_session")}
        assert "night_account" not in set(inspect(connection).get_table_names())
    engine.dispose()
