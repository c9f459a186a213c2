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
from typing import Any, Callable

from ledger.night import figures
from ledger.night.report import HandLine, PotReport, SessionReport
from ledger.night.story import EventRow, story_lines
from ledger.games import game as game_of
from ledger.games.tonk import RuleSet
from ledger.games.tonk.describe import describe_hand
from ledger.games.tonk.explain import rule_lines
from ledger.games.tongits.describe import describe_lines as describe_tongits
from ledger.games.tongits.ruleset import PRESETS as TONGITS_PRESETS
from ledger.games.rummy13 import describe as rummy_words
from ledger.sentences import N_, Sentence
from ledger.transfers import Transfer

TONGITS = "tongits"
RUMMY13 = "rummy13"
TONGITS_TITLE = N_("Tong-its")
#: the separator between the sentences that describe one Tong-its hand ("Dodong called a draw
#: (laban) and nobody fought · Dodong took the pot"): each is whole, none is glued to another
BETWEEN_SENTENCES = " \u00b7 "

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
    #: the night's game (``"tonk"``, ``"tongits"``) and, for a game with accounts, each
    #: account's kept balance (Tong-its: ``{"pot": balance}``) and the state the next hand is
    #: scored from (TONGITS.md §4.8)
    game: str = "tonk"
    accounts: dict[str, int] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    status: str = "open"
    #: the handles of each player who ticked "Show my handles in PDF statements" (issue 22), as
    #: named in text and fitting the currency: ``{player: (("venmo", "Venmo @Dee-Santos"), ...)}``
    handles_shown: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: the audit events the night's story tells (:data:`ledger.night.story.STORY_ACTIONS`), oldest first
    events: tuple[EventRow, ...] = ()

    def shape(self) -> SessionReport:
        """The report model: each hand decoded and described (RULES.md §8 results as stored;
        a Tong-its night's by TONGITS.md §8.2, with its pot, :meth:`_shape_tongits`)."""
        if self.game == TONGITS:
            return self._shape_tongits()
        if self.game == RUMMY13:
            return self._shape_rummy()
        lines = self._hand_lines(lambda entry, result: str(describe_hand(entry.get("outcome", {}), result)))
        rules = RuleSet.from_snapshot(self.ruleset)
        return SessionReport(
            name=self.name, currency=self.currency, stake_minor=self.stake_minor, preset=rules.preset,
            created_at=self.created_at, timezone=self.timezone, players=self.players, hands=tuple(lines),
            net_minor=dict(self.net_minor), settlement=self.settlement, settlement_minimal=self.settlement_minimal,
            payments=self.payments, rules_lines=tuple(str(line.text) for line in rule_lines(rules)),
            stakes=self.stakes, left=dict(self.left), recovery_code=self.recovery_code,
            carried_into=self.carried_into, handles_shown=dict(self.handles_shown), story=story_lines(self.events),
            night_voided=self.status == "voided",
        )

    def _hand_lines(self, describe: Callable[[dict[str, Any], dict[str, Any]], str]) -> tuple[HandLine, ...]:
        """Each hand as a :class:`HandLine`, its outcome in ``describe(entry, result)`` (the game's
        words, in the render's language) and its amounts for the players seated at that hand."""
        lines = []
        for number, dealer, seating, entry_text, result_text, redeal, status in self.hands:
            result = json.loads(result_text)
            net = result.get("net", {})
            lines.append(HandLine(
                number=number,
                dealer=dealer,
                outcome_text=describe(json.loads(entry_text), result),
                winners=tuple(result.get("winners", [])),
                amounts_minor={p: int(net.get(p, 0)) for p in json.loads(seating)},  # seated at that hand
                redeal=bool(redeal),
                voided=status == "voided",
                not_a_hand="pool_end" in result,  # the end of a pool paid its pot (RUMMY13.md §4.10)
            ))
        return tuple(lines)

    def _shape_rummy(self) -> SessionReport:
        """A 13-card rummy night's report (RUMMY13.md §8.2 results as stored): each hand in whole
        rummy sentences (the show and its points, each drop, wrong show and full count), the rules
        as the night plays them (:func:`ledger.games.rummy13.describe.rule_lines`)."""
        lines = self._hand_lines(lambda entry, result: BETWEEN_SENTENCES.join(
            str(s) for s in rummy_words.describe_lines(entry.get("outcome") or {}, entry.get("hands"), result)))
        rules = game_of(RUMMY13).rules_from_snapshot(self.ruleset)
        return SessionReport(
            name=self.name, currency=self.currency, stake_minor=self.stake_minor, preset=rules.preset,
            created_at=self.created_at, timezone=self.timezone, players=self.players, hands=tuple(lines),
            net_minor=dict(self.net_minor), settlement=self.settlement, settlement_minimal=self.settlement_minimal,
            payments=self.payments, rules_lines=tuple(str(line) for line in rummy_words.rule_lines(rules)),
            stakes=self.stakes, left=dict(self.left), recovery_code=self.recovery_code,
            carried_into=self.carried_into, handles_shown=dict(self.handles_shown), story=story_lines(self.events),
            night_voided=self.status == "voided",
            game_title=str(Sentence(rummy_words.GAME_TITLE)),
            preset_title=str(rummy_words.preset_title(rules.preset)),
        )

    def _shape_tongits(self) -> SessionReport:
        """A Tong-its night's report: each hand in Tong-its sentences (TONGITS.md, the table's
        words), its pot net, the close rows marked as entries that are not hands, and the pot's
        figures (:class:`~ledger.night.report.PotReport`: antes, takes, the close and its shares)."""
        lines = []
        antes = taken = takes = closed_minor = 0
        taken_by: dict[str, tuple[int, int]] = {}
        closed: str | None = None
        close_shares: dict[str, int] = {}
        seat_change_shares: dict[str, int] = {}
        for number, dealer, seating, entry_text, result_text, redeal, status in self.hands:
            result = json.loads(result_text)
            entry = json.loads(entry_text)
            outcome = entry.get("outcome") or {}
            net = result.get("net", {})
            pot = result.get("pot") or {}
            kind = outcome.get("kind")
            counted = status == "counted"
            lines.append(HandLine(
                number=number,
                dealer=dealer,
                outcome_text=BETWEEN_SENTENCES.join(str(s) for s in describe_tongits(outcome, result)),
                winners=(result["winner"],) if result.get("winner") is not None else (),
                amounts_minor={p: int(net.get(p, 0)) for p in json.loads(seating)},
                redeal=bool(redeal),
                voided=not counted,
                pot_minor=int(net.get("pot", 0)),
                not_a_hand=kind in figures.NOT_A_HAND,
            ))
            if not counted:
                continue
            antes += int(pot.get("antes") or 0)
            if pot.get("taken_by") is not None:
                takes += 1
                taken += int(pot.get("taken") or 0)
                count, amount = taken_by.get(pot["taken_by"], (0, 0))
                taken_by[pot["taken_by"]] = (count + 1, amount + int(pot.get("taken") or 0))
            if kind == "close_pot":
                shares = {t["to"]: int(t["amount"]) for t in result.get("transfers", []) if t["from"] == "pot"}
                if outcome.get("reason") == "end_of_night":
                    closed = "split" if pot.get("split") else "carry"
                    closed_minor = int(pot.get("balance_before") or 0)
                    close_shares = shares
                else:
                    for player, amount in shares.items():
                        seat_change_shares[player] = seat_change_shares.get(player, 0) + amount
        rules = game_of(TONGITS).rules_from_snapshot(self.ruleset)
        preset = TONGITS_PRESETS.get(rules.preset)  # type: ignore[attr-defined]
        state = self.state or {}
        return SessionReport(
            name=self.name, currency=self.currency, stake_minor=self.stake_minor, preset=rules.preset,  # type: ignore[attr-defined]
            created_at=self.created_at, timezone=self.timezone, players=self.players, hands=tuple(lines),
            net_minor=dict(self.net_minor), settlement=self.settlement, settlement_minimal=self.settlement_minimal,
            payments=self.payments, rules_lines=(preset.description,) if preset is not None else (),
            stakes=self.stakes, left=dict(self.left), recovery_code=self.recovery_code,
            carried_into=self.carried_into, handles_shown=dict(self.handles_shown), story=story_lines(self.events),
            night_voided=self.status == "voided",
            game_title=str(Sentence(TONGITS_TITLE)),
            preset_title=preset.title if preset is not None else rules.preset,  # type: ignore[attr-defined]
            pot=PotReport(
                balance_minor=int(self.accounts.get("pot", 0)), antes_minor=antes, taken_minor=taken, takes=takes,
                taken_by=taken_by, closed=closed, closed_minor=closed_minor, close_shares=close_shares,
                seat_change_shares=seat_change_shares, holder=state.get("holder"),
                streak=int(state.get("streak") or 0), night_closed=self.status == "closed"),
        )
