"""Issue 11 (cost must not grow with the night): every statement a phone's poll or a recorded
hand runs finds its rows through an index, on the night's key and the bounds it asks for, and
never walks or sorts every hand or event of the night. Checked with SQLite's own query plans
(``EXPLAIN QUERY PLAN``) on the real schema; PostgreSQL chooses its plans by table statistics,
and gets the same indexes (``tests/test_migrations.py`` keeps them equal)."""
from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy.sql import ClauseElement

from ledger import create_app
from ledger.night import figures
from ledger.night import payments
from ledger.night import lifecycle as ledger_night
from ledger.night import reads as night_reads
from ledger.access.roles import _KEY_BY_HASH
from ledger.storage.db import get_session
from ledger.web import hand_rows, live, log_page

NIGHT = {"night": "n" * 32}
PLANS = {
    # the version of a night (every poll): its newest event, by the covering index
    "version": (live._LATEST_EVENT, NIGHT, ["SEARCH audit_event USING COVERING INDEX (session_id, id) (session_id=?)"]),
    "news": (live._NEWEST_EVENTS, NIGHT | {"since": 4},
             ["SEARCH audit_event USING INDEX (session_id, id) (session_id=? AND id>?)"]),
    "changes for rows": (live._EVENTS_BETWEEN, NIGHT | {"since": 4, "version": 9, "most": 11},
                         ["SEARCH audit_event USING INDEX (session_id, id) (session_id=? AND id>? AND id<?)"]),
    "the last undo": (ledger_night._VOIDS_NEWEST_FIRST, NIGHT,
                      ["SEARCH audit_event USING INDEX (session_id, action, id) (session_id=? AND action=?)"]),
    "a page's events": (hand_rows.PAGE_EVENTS, NIGHT | {"low": 451, "high": 500},
                        ["SEARCH audit_event USING INDEX (session_id, hand_number) (session_id=? AND hand_number>? AND hand_number<?)",
                         "USE TEMP B-TREE FOR ORDER BY"]),  # the page's events only: at most a few per hand
    "the seat fixes": (hand_rows.SEAT_FIXES, NIGHT,
                       ["SEARCH audit_event USING INDEX (session_id, action, id) (session_id=? AND action=?)"]),
    "the renames": (log_page._RENAMES, NIGHT,
                    ["SEARCH audit_event USING INDEX (session_id, action, id) (session_id=? AND action=?)"]),
    "a page's hands": (hand_rows.PAGE_HANDS, NIGHT | {"low": 451, "high": 500},
                       ["SEARCH hand USING INDEX (session_id, number, version) (session_id=? AND number>? AND number<?)"]),
    "hands the news names": (log_page._NAMED_HANDS, NIGHT | {"numbers": [7, 8]},
                             ["SEARCH hand USING INDEX (session_id, number, version) (session_id=? AND number=?)"]),
    "the newest hands": (hand_rows._LATEST, NIGHT | {"count": 5},
                         ["SEARCH hand USING INDEX (session_id, number, version) (session_id=?)"]),
    "the last counted hand": (hand_rows._LAST_COUNTED, NIGHT,
                              ["SEARCH hand USING INDEX (session_id, number, version) (session_id=?)"]),
    "who deals next": (night_reads._LAST_COUNTED, NIGHT,
                       ["SEARCH hand USING INDEX (session_id, number, version) (session_id=?)"]),
    "who sat in since the last hand": (night_reads._SAT_IN_NEWEST_FIRST, NIGHT,
                                       ["SEARCH audit_event USING INDEX (session_id, action, id) (session_id=? AND action=?)"]),
    "the renames since they sat in": (night_reads._RENAMES_AFTER, NIGHT | {"after": 4},
                                      ["SEARCH audit_event USING INDEX (session_id, action, id) "
                                       "(session_id=? AND action=? AND id>?)"]),
    # why each settle-up line (issue 20 item 9): the newest hands, a range at a time, and their transfers
    "the hands that explain the plan": (payments._HAND_TRANSFERS, NIGHT | {"low": 400, "high": 464},
                                        ["SEARCH hand USING INDEX (session_id, number, version) (session_id=? AND number>? AND number<?)",
                                         "SEARCH hand_transfer USING INDEX (hand_id) (hand_id=?)"]),
    "balances and last hands": (figures._PLAYER_FIGURES, NIGHT,
                                ["SEARCH player_figures USING INDEX (session_id, player) (session_id=?)"]),
    "the phone's key": (_KEY_BY_HASH, {"hash": "0" * 64},
                        ["SEARCH access_key USING INDEX (secret_hash) (secret_hash=?)"]),
}


@pytest.fixture
def sqlite_app(tmp_path: Any) -> Any:
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'plans.sqlite3'}",
                      "SECRET_KEY": "test-secret"})
    yield app
    app.extensions["ledger.engine"].dispose()


@pytest.mark.parametrize("name", list(PLANS))
def test_each_poll_statement_reads_by_an_index(sqlite_app: Any, name: str) -> None:
    statement, params, expected = PLANS[name]
    with sqlite_app.app_context():
        assert plan(get_session().connection(), statement, params) == expected


def plan(connection: Any, statement: ClauseElement, params: dict[str, Any]) -> list[str]:
    """SQLite's plan of ``statement`` with ``params``: one line per step, each index named by
    its columns (SQLite numbers the indexes of unique constraints in the order they were made,
    which differs between a database made whole and one migrated)."""
    expanded = statement.compile(dialect=connection.dialect).construct_expanded_state(params)
    assert expanded.positiontup is not None  # SQLite takes parameters by position
    rows = connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {expanded.statement}",
                                      tuple(expanded.parameters[name] for name in expanded.positiontup))
    def columns(found: re.Match[str]) -> str:
        names = [row[2] for row in connection.exec_driver_sql(f"PRAGMA index_info('{found[1]}')")]
        return f"INDEX ({', '.join(names)})"

    return [INDEX.sub(columns, row[-1]) for row in rows]


INDEX = re.compile(r"INDEX (\w+)")
