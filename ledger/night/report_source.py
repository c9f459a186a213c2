"""What a night's report is made from, as read from the database in one short transaction, and
the report model (:class:`~ledger.night.report.SessionReport`) made from it.

The read (:func:`ledger.night.reads.report_source`) keeps each hand's stored JSON as text, and
the figures the night keeps (:mod:`ledger.night.figures`); decoding the hands and describing them
(:meth:`ReportSource.shape`) is the costly part, and runs where the PDF renders, in a worker of
:mod:`ledger.statements.render_pool`, not on a request thread. Pure domain code: standard library and the
rules engine only. Amounts are ``int`` minor units.

The outcome texts and rules lines are the engine's words, put into the current language when the
report is shaped (the worker renders inside ``use_language``); this module has no words of its own.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ledger.night.report import HandLine, SessionReport
from ledger.games.tonk import RuleSet
from ledger.games.tonk.describe import describe_hand
from ledger.games.tonk.explain import rule_lines
from ledger.transfers import Transfer

# one hand as read: number, dealer, seating (JSON text), entry (JSON text), result (JSON text),
# redeal, status (counted or voided)
HandRow = tuple[int, str, str, str, str, bool, str]


@dataclass(frozen=True, slots=True)
class ReportSource:
    """A night as read for its report: the fields of :class:`~ledger.night.report.SessionReport`
    that need no work, ``ruleset`` (the frozen snapshot) and ``hands`` (:data:`HandRow`, number
    order, current versions). Picklable, to be shaped in another process."""

    name: str
    currency: str
    stake_minor: int
    ruleset: dict[str, Any]
    created_at: datetime
    timezone: str
    players: tuple[str, ...]
    hands: tuple[HandRow, ...]
    net_minor: dict[str, int]
    settlement: tuple[Transfer, ...]
    settlement_minimal: bool
    payments: tuple[Transfer, ...]
    stakes: tuple[tuple[int, int], ...] = ()
    left: dict[str, int | None] = field(default_factory=dict)
    recovery_code: str = ""
    carried_into: str = ""

    def shape(self) -> SessionReport:
        """The report model: each hand decoded and described (RULES.md §8 results as stored)."""
        lines = []
        for number, dealer, seating, entry_text, result_text, redeal, status in self.hands:
            result = json.loads(result_text)
            entry = json.loads(entry_text)
            net = result.get("net", {})
            lines.append(HandLine(
                number=number,
                dealer=dealer,
                outcome_text=str(describe_hand(entry.get("outcome", {}), result)),  # words of the render's language
                winners=tuple(result.get("winners", [])),
                amounts_minor={p: int(net.get(p, 0)) for p in json.loads(seating)},  # seated at that hand
                redeal=bool(redeal),
                voided=status == "voided",
            ))
        rules = RuleSet.from_snapshot(self.ruleset)
        return SessionReport(
            name=self.name, currency=self.currency, stake_minor=self.stake_minor, preset=rules.preset,
            created_at=self.created_at, timezone=self.timezone, players=self.players, hands=tuple(lines),
            net_minor=dict(self.net_minor), settlement=self.settlement, settlement_minimal=self.settlement_minimal,
            payments=self.payments, rules_lines=tuple(str(line.text) for line in rule_lines(rules)),
            stakes=self.stakes, left=dict(self.left), recovery_code=self.recovery_code,
            carried_into=self.carried_into,
        )
