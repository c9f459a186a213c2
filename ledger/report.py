"""Plain read model of one night, built by the storage layer and rendered by statements.

Pure domain code: standard library only. Every amount is an ``int`` in minor units of
``SessionReport.currency``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ledger.transfers import Transfer


@dataclass(frozen=True, slots=True)
class HandLine:
    """One recorded hand as shown in a summary.

    ``amounts_minor`` maps every seated player to their signed net for this hand (0 included);
    ``outcome_text`` is the outcome in words ("Rosa knocked and was caught"); ``winners`` lists
    the players who gained; ``voided`` hands are shown but do not count.
    """

    number: int
    dealer: str
    outcome_text: str
    winners: tuple[str, ...]
    amounts_minor: dict[str, int]
    redeal: bool = False
    voided: bool = False


@dataclass(frozen=True, slots=True)
class SessionReport:
    """Everything a session summary shows.

    ``players`` is the seat order; ``net_minor`` is each player's balance over counted hands;
    ``payments`` is the money already handed over at settle-up (counted payments);
    ``settlement`` is the plan that clears what is still owed (``net_minor`` less the payments);
    ``settlement_minimal`` says whether that plan is proven minimal or heuristic;
    ``timezone`` is the night's IANA zone, in which its times are shown (``created_at`` is UTC);
    ``recovery_code`` is set only for the host's own PDF.
    """

    name: str
    currency: str
    stake_minor: int
    preset: str
    created_at: datetime
    players: tuple[str, ...]
    hands: tuple[HandLine, ...]
    net_minor: dict[str, int]
    settlement: tuple[Transfer, ...]
    settlement_minimal: bool = True
    rules_lines: tuple[str, ...] = field(default_factory=tuple)
    payments: tuple[Transfer, ...] = field(default_factory=tuple)
    timezone: str = "UTC"
    recovery_code: str = ""  # printed only in the host's own PDF
