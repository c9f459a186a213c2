"""Plain read model of one night, built by the storage layer and rendered by statements.

Pure domain code: standard library only. Every amount is an ``int`` in minor units of
``SessionReport.currency``. Every figure a statement shows (running balances, one player's
hand lines, the settle-up lines with the hands that explain them, :mod:`ledger.settlement.allocation`) is computed here once, so
the summary, each player statement and the night pack all print the same numbers.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ledger.settlement.allocation import Event, Loss, explain
from ledger.transfers import Transfer


@dataclass(frozen=True, slots=True)
class HandLine:
    """One recorded hand as shown in a summary.

    ``amounts_minor`` maps every player seated at this hand to their signed net for it (0
    included; a player who had not sat in yet, or had left, is absent);
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
    #: the pot's net for the hand (TONGITS.md §8.2 ``net["pot"]``: antes in less a take or a split
    #: out), ``None`` for a game without a pot (Tonk)
    pot_minor: int | None = None
    #: an entry of the ledger's that is not a hand played (TONGITS.md §4.9 ``close_pot``): it
    #: moves money and is listed, but is not counted among the night's hands
    not_a_hand: bool = False


@dataclass(frozen=True, slots=True)
class StoryLine:
    """One thing that happened at the night beside its hands, oldest first (from its audit
    event): ``code`` is the event's action (``player_sat_in``, ``player_left``,
    ``stake_changed``, ``seats_swapped``, ``player_renamed``, ``hand_amended``,
    ``hand_rescored``, ``hand_voided``, ``hand_restored``) and ``params`` its figures, names of
    then, hand numbers and minor units (see :mod:`ledger.statements.story`, which puts them into
    words): the PDFs tell the night's story, not only its hands."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PotReport:
    """The night's pot, for a game that keeps one (TONGITS.md §4.8–4.9). Minor units.

    ``balance_minor`` is the pot account's balance now (after a close that split it, 0; after a
    carry, what is carried); ``antes_minor`` the antes paid in over the counted hands,
    ``taken_minor`` what winners took out in ``takes`` takes, ``taken_by`` each taker's
    ``(count, amount)``; ``closed`` the rule the end-of-night close followed (``"split"``,
    ``"carry"``) or ``None`` while no such close counts, ``closed_minor`` the balance it closed,
    ``close_shares`` what each player received from that split; ``seat_change_shares`` what
    each player received from splits at seat changes; ``holder`` and ``streak`` the state the
    next hand is scored from (holder ``None`` and streak 0 after a close); ``night_closed``
    whether the night has closed (an empty pot closes with no entry).
    Identity: the players' nets plus ``balance_minor`` sum to zero."""

    balance_minor: int
    antes_minor: int = 0
    taken_minor: int = 0
    takes: int = 0
    taken_by: dict[str, tuple[int, int]] = field(default_factory=dict)
    closed: str | None = None
    closed_minor: int = 0
    close_shares: dict[str, int] = field(default_factory=dict)
    seat_change_shares: dict[str, int] = field(default_factory=dict)
    holder: str | None = None
    streak: int = 0
    night_closed: bool = False


@dataclass(frozen=True, slots=True)
class SessionReport:
    """Everything a session summary shows.

    ``players`` is the seat order; ``net_minor`` is each player's balance over counted hands;
    ``payments`` is the money already handed over at settle-up (counted payments);
    ``settlement`` is the plan that clears what is still owed (``net_minor`` less the payments);
    ``settlement_minimal`` says whether that plan is proven minimal or heuristic;
    ``timezone`` is the night's IANA zone, in which its times are shown (``created_at`` is UTC);
    ``recovery_code`` is set only for the host's own PDF; ``carried_into`` names the club whose
    balances took what was still owed when the night closed (``settlement`` is then settled
    there, not between the night's players), else ``""``.
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
    stakes: tuple[tuple[int, int], ...] = field(default_factory=tuple)
    left: dict[str, int | None] = field(default_factory=dict)
    """``stakes``: where the stake changed, ``(from_hand, stake_minor)`` in hand order (empty or one
    entry when it never changed; ``stake_minor`` is the current stake). ``left``: players who
    left the table, with their last hand (their balance is "as of hand N"; None if they
    played none). ``players`` lists the seated first, then those who left."""
    carried_into: str = ""
    #: the game's title and its preset's, in the render's language ("" = Tonk's, from ``preset``)
    game_title: str = ""
    preset_title: str = ""
    #: the night's pot (a game that keeps one: Tong-its), else ``None``
    pot: PotReport | None = None
    #: each opted-in player's payment handles as named in text (issue 22; only a player who ticked
    #: "Show my handles in PDF statements"): ``{player: ((kind, text), ...)}``
    handles_shown: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: what happened beside the hands (sit-ins, leaves and their cash-outs, stake changes, seat
    #: swaps, renames, corrections, voids and restores), oldest first
    story: tuple[StoryLine, ...] = field(default_factory=tuple)
    #: the night was voided as a whole by its host: kept for the record, counted nowhere
    night_voided: bool = False


# -- figures derived from a report -------------------------------------------------------------
WHY_LIMIT = 12  # reason hands listed per plan line (the rest are counted and summed, not listed)


@dataclass(frozen=True, slots=True)
class WhyHand:
    """One hand named as the reason for a plan line: ``amount_minor`` (< 0) of the payer's loss
    ``lost_minor`` (< 0, the payer's whole result of the hand) explains the line; it is
    ``partial`` when that is only part of the loss."""

    number: int
    amount_minor: int
    lost_minor: int

    @property
    def partial(self) -> bool:
        return self.amount_minor != self.lost_minor


@dataclass(frozen=True, slots=True)
class PlanLine:
    """One settle-up transfer with its reason, the payer's losses allocated to it by
    :mod:`ledger.settlement.allocation` (the page, the API and every PDF use the same allocation).

    ``why`` lists (oldest first, at most :data:`WHY_LIMIT`) the hands whose losses explain the
    line, each with the part of the loss used; ``why_more`` counts further such hands and
    ``why_more_minor`` (<= 0) sums their parts; ``overpaid_minor`` (>= 0) is the part explained
    by money the payer was paid beyond what they were owed. The parts sum to the line:
    ``-(sum of why) - why_more_minor + overpaid_minor == amount_minor``.
    """

    payer: str
    payee: str
    amount_minor: int
    why: tuple[WhyHand, ...]
    why_more: int = 0
    why_more_minor: int = 0
    overpaid_minor: int = 0


def plan_line(transfer: Transfer, because: tuple[Loss, ...]) -> PlanLine:
    """``transfer`` with the losses that explain it (one share of
    :func:`ledger.settlement.allocation.explain`) as a :class:`PlanLine`."""
    hands = [WhyHand(int(loss.key), -loss.amount_minor, -loss.whole_minor) for loss in because if loss.kind == "hand"]
    overpaid = sum(loss.amount_minor for loss in because if loss.kind != "hand")
    rest = hands[WHY_LIMIT:]
    return PlanLine(transfer.payer, transfer.payee, transfer.amount_minor, tuple(hands[:WHY_LIMIT]), len(rest),
                    sum(h.amount_minor for h in rest), overpaid)


def report_events(report: SessionReport) -> Iterator[Event]:
    """What moved the report's balances, newest first (as :func:`ledger.settlement.allocation.explain`
    reads them): the payments (newest first, keyed by their place in ``payments``), then the
    counted hands (keyed by number), each with its nets."""
    for index in range(len(report.payments) - 1, -1, -1):
        t = report.payments[index]
        yield "payment", index, {t.payer: t.amount_minor, t.payee: -t.amount_minor}
    for hand in reversed(counted_hands(report)):
        yield "hand", hand.number, hand.amounts_minor


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One hand on a player's statement: their signed ``amount_minor`` (+ received, - paid)
    and their running ``balance_minor`` after it (voided hands leave the balance unchanged)."""

    number: int
    outcome_text: str
    amount_minor: int
    balance_minor: int
    voided: bool = False
    redeal: bool = False
    not_a_hand: bool = False  # an entry that is not a hand played (a closed pot, TONGITS.md §4.9)


@dataclass(frozen=True, slots=True)
class PlayerStatement:
    """Everything one player's statement shows. ``seat`` is 1-based in seat order;
    ``paid`` / ``received`` are payments already made by / to the player; ``owes`` / ``owed``
    are the plan lines still to pay / to receive; ``outstanding_minor`` is what the player still
    owes (< 0) or is owed (> 0) after the payments; ``carried_into`` names the club whose
    balances took it at the close (then it is settled there), else ``""``."""

    player: str
    seat: int
    hands: tuple[PlayerHand, ...]
    net_minor: int
    paid: tuple[Transfer, ...]
    received: tuple[Transfer, ...]
    owes: tuple[PlanLine, ...]
    owed: tuple[PlanLine, ...]
    outstanding_minor: int
    carried_into: str = ""


def counted_hands(report: SessionReport) -> list[HandLine]:
    """The hands that count (not voided), in the report's order (entries that are not hands,
    such as a closed pot, included: they move money)."""
    return [h for h in report.hands if not h.voided]


def hands_played(hands: list[HandLine] | tuple[HandLine, ...]) -> int:
    """How many of ``hands`` are hands played (entries that are not hands left out)."""
    return sum(1 for h in hands if not h.not_a_hand)


def running_minor(report: SessionReport) -> dict[str, list[tuple[int, int]]]:
    """Each player's running balance: ``[(0, 0), (hand number, balance after it), ...]`` over
    the counted hands (seat order keys)."""
    running = dict.fromkeys(report.players, 0)
    series: dict[str, list[tuple[int, int]]] = {p: [(0, 0)] for p in report.players}
    for hand in counted_hands(report):
        for player in report.players:
            running[player] += hand.amounts_minor.get(player, 0)
            series[player].append((hand.number, running[player]))
    return series


def plan_lines(report: SessionReport) -> tuple[PlanLine, ...]:
    """The report's settlement, each transfer with the hands that explain it (see
    :class:`PlanLine`). A report whose plan and hands disagree (read while a hand was being
    recorded) gets its lines without reasons rather than wrong ones."""
    try:
        shares = explain(report.settlement, report_events(report))
    except ValueError:
        shares = tuple(() for _ in report.settlement)
    return tuple(plan_line(t, share) for t, share in zip(report.settlement, shares))


def player_statement(
    report: SessionReport, seat: int, plan: tuple[PlanLine, ...] | None = None
) -> PlayerStatement:
    """The statement of the player in ``seat`` (1-based, seat order). ``plan`` (from
    :func:`plan_lines`) may be passed to share one computation across a night pack.

    Raises ``IndexError`` for a seat outside ``1..len(report.players)``.
    """
    if not 1 <= seat <= len(report.players):
        raise IndexError(f"seat must be 1..{len(report.players)}, got {seat}")
    player = report.players[seat - 1]
    plan = plan_lines(report) if plan is None else plan
    balance = 0
    hands = []
    for hand in report.hands:
        if player not in hand.amounts_minor:  # not seated at that hand (sat in later, or left)
            continue
        amount = hand.amounts_minor.get(player, 0)
        if not hand.voided:
            balance += amount
        hands.append(PlayerHand(hand.number, hand.outcome_text, amount, balance, hand.voided, hand.redeal,
                                hand.not_a_hand))
    paid = tuple(t for t in report.payments if t.payer == player)
    received = tuple(t for t in report.payments if t.payee == player)
    left = balance + sum(t.amount_minor for t in paid) - sum(t.amount_minor for t in received)
    return PlayerStatement(
        player=player, seat=seat, hands=tuple(hands), net_minor=report.net_minor.get(player, balance),
        paid=paid, received=received,
        owes=tuple(line for line in plan if line.payer == player),
        owed=tuple(line for line in plan if line.payee == player),
        outstanding_minor=left, carried_into=report.carried_into,
    )
