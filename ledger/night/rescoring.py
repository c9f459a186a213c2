"""Corrections re-score what they change (issue 21): for a game whose hands are scored from the
state the hands before left, and whose dealer rule reads them (Tong-its: the pot, and "the
winner deals", TONGITS.md §2.3, §4.8), a void, restore, amend or undo of hand n changes the input
of every later counted hand. :func:`rechain` re-derives, in number order, the state (and where the
dealer rule gave the dealer, the dealer) of each later counted hand, and stores a new version of
exactly those whose result or dealer changed, with their figures, pot account and an audit event,
inside the correction's own write transaction (all or nothing: a later hand the game now refuses
refuses the correction). Tonk keeps no state: nothing here runs for it.

Cost: a correction reads the hands after the one it changes (what it may have to re-score), never
the night's first ones; recording a new hand reads none of this. Amounts are ``int`` minor units.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select as core_select
from sqlmodel import Session, select

from ledger.night import figures
from ledger.access.roles import Actor
from ledger.night.audit import audit
from ledger.games import game
from ledger.storage.models import GameSession, Hand
from ledger.night.reads import rules_of
from ledger.night.recording import stored_result, store_version
from ledger.night.submission import Submission

HANDS = Hand.__table__  # type: ignore[attr-defined]
# the last counted entry before a number: one row, read backwards along uq_hand_session_number_version
_COUNTED_BEFORE = (core_select(HANDS.c.dealer, HANDS.c.result)
                   .where(HANDS.c.session_id == bindparam("night"), HANDS.c.status == "counted",
                          HANDS.c.number < bindparam("number"))
                   .order_by(HANDS.c.number.desc()).limit(1))


@dataclass(frozen=True, slots=True)
class Before:
    """What a hand is scored from: ``state`` (the game state the counted hands before it left)
    and ``next_dealer`` (who the dealer rule said deals it; ``None`` before the first hand)."""

    state: dict[str, Any] | None
    next_dealer: str | None


def before(db: Session, night: GameSession, number: int) -> Before:
    """The state and the rule's dealer for hand ``number``, from the last counted entry before it
    (one indexed read), or the game's first state when none counts."""
    row = db.connection().execute(_COUNTED_BEFORE, {"night": night.id, "number": number}).first()
    if row is None:
        return Before(figures.first_state(db, night), None)
    return Before(_state_of(row.result), following(row.dealer, row.result))


def following(dealer: str, result: dict[str, Any]) -> str:
    """Who the dealer rule said deals after a stored entry: its result's ``next_dealer``, or for an
    entry that deals nobody (a closed pot, stored with the dealer who deals next) its dealer."""
    return str(result.get("next_dealer") or dealer)


def _state_of(result: dict[str, Any]) -> dict[str, Any] | None:
    state = result.get("state")
    return None if state is None else dict(state)


def rechain(
    db: Session, night: GameSession, after: int, start: Before, old_next: str | None, actor: Actor,
) -> list[Hand]:
    """Re-score the counted hands after number ``after`` in order, from ``start`` (what the hand
    just after ``after`` is now scored from), inside the caller's write transaction after
    :func:`ledger.night.figures.lock`. ``old_next`` is who the dealer rule named for that hand before the
    correction: a later hand dealt by the rule's dealer (its dealer was the rule's then) gets the
    rule's dealer of now; one whose table chose another dealer keeps it. A ``close_pot`` entry
    (the end of the night, or a seat change: TONGITS.md §4.9) is re-scored like a hand, at the
    seating it was closed at, so its split follows the pot it now closes and the hands after it
    start from its cleared streak. Each hand whose result or
    dealer changes gets a new version (the old one superseded), the figures and accounts move by
    the difference, and an audit ``hand_amended`` event with ``rescored: true`` says so. The
    night's state becomes the one the last counted hand leaves. Returns the new versions. Raises
    :class:`~ledger.games.errors.HandError` when the game refuses a later hand in its new place,
    or the state the last one leaves (:meth:`ledger.games.base.Game.check_seated`: a pot's streak
    with a player who has left since); the caller's transaction is then rolled back: nothing changed."""
    chosen = game(night.game or None)
    rules = rules_of(night)
    state, new_next = start.state, start.next_dealer
    later = list(db.exec(select(Hand).where(Hand.session_id == night.id, Hand.status == "counted",
                                            Hand.number > after)  # type: ignore[operator]
                         .order_by(Hand.number).execution_options(populate_existing=True)))
    replaced: list[Hand] = []
    for hand in later:
        stored_next = following(hand.dealer, hand.result)
        dealer = hand.dealer
        # a closed pot deals nobody but is stored with the dealer of the next hand: it follows the rule too,
        # so the hands after a seat change's close go on from the right dealer
        if new_next is not None and hand.dealer == old_next and new_next in hand.players:
            dealer = new_next
        old_next = stored_next
        submission = Submission.of_entry(hand.entry)
        result = chosen.score(rules, players=tuple(hand.players), stake_minor=hand.stake_minor,
                              dealer=None if hand.kind in figures.NOT_A_HAND else dealer, state=state,
                              entry=submission.entry())
        state = None if result.state is None else dict(result.state)
        if stored_result(result) != hand.result or dealer != hand.dealer:
            new = _replace(db, night, hand, dealer, submission, result, actor, after)
            replaced.append(new)
            new_next = following(new.dealer, new.result)
        else:
            new_next = stored_next
    chosen.check_seated(state, night.players)  # what the next hand starts from names only the seated
    figures.state_changed(db, night, state)
    return replaced


def replace_version(db: Session, night: GameSession, hand: Hand, dealer: str, result: Any, actor: Actor,
                    because: int) -> Hand:
    """Store ``result`` as the next version of counted ``hand`` (re-scored from a new state
    because hand ``because`` changed), with its figures and an audit event."""
    submission = Submission.of_entry(hand.entry)
    return _replace(db, night, hand, dealer, submission, result, actor, because)


def _replace(db: Session, night: GameSession, hand: Hand, dealer: str, submission: Submission, result: Any,
             actor: Actor, because: int) -> Hand:
    before_net = hand.result.get("net")
    hand.status = "superseded"
    db.add(hand)
    db.flush()
    new = store_version(db, night, hand.number, hand.version + 1, dealer, submission, result,
                        players=hand.players, stake_minor=hand.stake_minor)
    figures.hands_replaced(db, night, [hand], [new])
    audit(db, night, actor, "hand_amended", hand_number=hand.number,
          before={"version": hand.version, "dealer": hand.dealer, "entry": hand.entry, "net": before_net},
          after={"version": new.version, "dealer": dealer, "entry": new.entry, "net": result.net,
                 "state": result.state},
          rescored=True, because=because)
    return new
