"""Exports of a night: CSV tables (hands, transfers, payments, history) and one JSON document.

CSV text cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``,
``@``, tab or carriage return) are prefixed with ``'``; amounts are written as plain integers
of minor units plus a decimal column in the session's currency.

Languages (issue 10): the header row is the files' machine contract and stays the same English
identifiers in every language (``hand``, ``amount_minor``, ``amount_USD``, ``<player> (minor
units)``...): spreadsheets' formulas, scripts and the tests read columns by these names, and a
header that changed with the phone's language would break them. What a person reads in the
cells follows the reader's language: the ``description`` of each hand is the engine's sentence
put into words in the request's language. Codes (``status``, ``outcome``, ``action``) stay codes.

A night of a game with accounts (Tong-its' pot, TONGITS.md §4.8) has one more column in
``hands``, after the players: ``pot (minor units)``, the pot's net of each entry (antes in less a
take or a split out); its transfers to and from ``pot`` are rows of ``transfers``; the JSON
document's session says its ``game`` and ``pot``, and its hands their ``kind`` and ``pot``.
"""
from __future__ import annotations

import csv
import io
import json
from typing import Any, Iterable, Sequence

from sqlmodel import Session

from ledger.night import lifecycle as ledger_night
from ledger.storage.models import GameSession
from ledger.money import format_plain
from ledger.games import game as game_of
from ledger.night.reads import describe_stored
from ledger.night.timeline import seat_order

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_TABLES = ("hands", "transfers", "payments", "history")


def csv_cell(value: Any) -> str | int:
    """A cell safe to open in a spreadsheet: ints stay numbers, risky text gets a ``'``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_cell(h) for h in header])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return buffer.getvalue()


def export_csv(db: Session, night: GameSession, table: str) -> str:
    """One CSV table of the night. ``table`` is one of :data:`CSV_TABLES`; raises
    ``ValueError`` for another name."""
    currency = night.currency
    hands = ledger_night.hands_of(db, night, all_versions=True)
    if table == "hands":
        players = seat_order(night)  # everyone who ever sat; a hand's absent players show 0
        accounts = list(game_of(night.game or None).accounts)  # Tong-its: the pot's net, last (TONGITS.md §8.2)
        return _csv(
            ["hand", "version", "status", "dealer", "outcome", "description", "recorded_at"]
            + [f"{p} (minor units)" for p in players + accounts],
            (
                [h.number, h.version, h.status, h.dealer, h.kind, describe_stored(h.entry.get("outcome", {}), h.result),
                 h.created_at.isoformat()] + [int(h.result.get("net", {}).get(p, 0)) for p in players + accounts]
                for h in hands
            ),
        )
    if table == "transfers":
        return _csv(
            ["hand", "version", "status", "from", "to", "amount_minor", f"amount_{currency}"],
            (
                [h.number, h.version, h.status, t["from"], t["to"], t["amount"], format_plain(t["amount"], currency)]
                for h in hands for t in h.result.get("transfers", [])
            ),
        )
    if table == "payments":
        return _csv(
            ["id", "status", "from", "to", "amount_minor", f"amount_{currency}", "recorded_at"],
            (
                [p.id, p.status, p.payer, p.payee, p.amount_minor, format_plain(p.amount_minor, currency),
                 p.created_at.isoformat()]
                for p in ledger_night.payments_of(db, night)
            ),
        )
    if table == "history":
        return _csv(
            ["at", "action", "hand", "role", "access_key", "device", "detail"],
            (
                [e.created_at.isoformat(), e.action, e.hand_number if e.hand_number is not None else "",
                 e.actor_role, e.access_key_id if e.access_key_id is not None else "", e.device,
                 json.dumps(e.detail, ensure_ascii=False, sort_keys=True)]
                for e in ledger_night.history(db, night)
            ),
        )
    raise ValueError(f"no CSV table {table!r}; choose one of {', '.join(CSV_TABLES)}")


def export_json(db: Session, night: GameSession) -> dict[str, Any]:
    """The whole night as one JSON document: the session, every hand version with its
    transfers, payments, the settle-up plan and the history. Amounts are ints (minor units)."""
    return {
        "session": ledger_night.session_json(db, night),
        "hands": [ledger_night.hand_json(h) for h in ledger_night.hands_of(db, night, all_versions=True)],
        "payments": [ledger_night.payment_json(p) for p in ledger_night.payments_of(db, night)],
        "settlement": ledger_night.settlement_plan(db, night).to_json(),
        "history": [ledger_night.audit_json(e) for e in ledger_night.history(db, night)],
    }
