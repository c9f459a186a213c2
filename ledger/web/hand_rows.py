"""Hands as the pages show them: one row per hand number (its current version), and on the
history page the versions a correction replaced and who recorded, corrected or voided each
(read from the audit history: role, which phone, when).

Rows are plain dicts for the templates (``_macros.hand_row``). Amounts are the stored
engine results in ``int`` minor units; nothing is recomputed here.
"""
from __future__ import annotations

from typing import Any, Iterable

from flask import url_for
from sqlalchemy import bindparam
from sqlmodel import Session, select

from ledger.storage.models import AuditEvent, GameSession, Hand
from ledger.night.reads import describe_stored


def stamp(event: AuditEvent | None) -> dict[str, Any] | None:
    """Who did something and when: ``{"role", "device", "at"}`` (``None`` if unknown)."""
    if event is None:
        return None
    return {"role": event.actor_role, "device": event.device, "at": event.created_at}


def shown_cards(hand: Hand) -> list[tuple[str, list[str]]]:
    """``(player, card texts)`` of every hand entered with cards (knock, dry stock, a deal
    tonk's claimants, a tonk out's losers when entered...), in seat order, as stored."""
    hands = hand.entry.get("hands") or {}
    order = list(hand.players or []) + [p for p in hands if p not in (hand.players or [])]
    out = []
    for player in order:
        cards = (hands.get(player) or {}).get("cards") if isinstance(hands.get(player), dict) else None
        if isinstance(cards, list) and cards:
            out.append((player, [str(c) for c in cards]))
    return out


def hand_row(night: GameSession, hand: Hand) -> dict[str, Any]:
    """One version of a hand: number, version, dealer, description, the amount of each player
    seated at that hand (seat order), and the cards entered (``cards``: ``[(player, cards)]``)."""
    net = hand.result.get("net", {})
    return {
        "number": hand.number,
        "version": hand.version,
        "status": hand.status,
        "dealer": hand.dealer,
        "description": str(describe_stored(hand.entry.get("outcome", {}), hand.result)),  # its game's, in the request's language
        "amounts": [(p, int(net.get(p, 0))) for p in hand.players or night.players],  # its own seating
        "voided": hand.status == "voided",
        "redeal": hand.redeal,
        "created_at": hand.created_at,
        "cards": shown_cards(hand),
    }


PER_PAGE = 50


def page_count(night: GameSession) -> int:
    """How many pages of :data:`PER_PAGE` hand numbers the history has (at least one)."""
    return pages_of(night.last_hand_number)


def history_at(night: GameSession, number: int) -> str:
    """The address of the history page that shows hand ``number``, at its row (a void or a
    correction made from an older page goes back to that page, not to the newest)."""
    page = max(1, (night.last_hand_number - number) // PER_PAGE + 1)
    return url_for("web.history", session_id=night.id, **({"page": page} if page > 1 else {})) + f"#hand-{number}"


def pages_of(hands: int) -> int:
    """How many history pages ``hands`` hand numbers fill (at least one)."""
    return max(1, -(-hands // PER_PAGE))


def history_rows(db: Session, night: GameSession, page: int = 1) -> list[dict[str, Any]]:
    """The hand numbers of history page ``page`` (1 is the newest :data:`PER_PAGE`), newest
    first: each one's current version (counted or voided) with ``recorded`` and ``voided_by``
    stamps, and ``earlier``: the versions it replaced, oldest first, each with who recorded it
    and who replaced it. Only that page's hands and audit events are read."""
    high = night.last_hand_number - (page - 1) * PER_PAGE
    return rows_between(db, night, max(1, high - PER_PAGE + 1), high)


# a page of the history, prepared once (the history page polls them): each by an index of the
# night's hand numbers, whatever the length of the night
PAGE_HANDS = (select(Hand).where(Hand.session_id == bindparam("night"), Hand.number >= bindparam("low"),
                                 Hand.number <= bindparam("high"))  # type: ignore[operator]
              .order_by(Hand.number, Hand.version))  # type: ignore[arg-type]
PAGE_EVENTS = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"),
                                        AuditEvent.hand_number >= bindparam("low"),  # type: ignore[operator]
                                        AuditEvent.hand_number <= bindparam("high"))  # type: ignore[operator]
               .order_by(AuditEvent.id))  # type: ignore[arg-type]
# a seat fix is one event for every hand it re-entered (no hand number): the night's few, by
# ix_audit_event_session_action
SEAT_FIXES = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"),
                                       AuditEvent.action == "seats_swapped")
              .order_by(AuditEvent.id))  # type: ignore[arg-type]


def rows_between(db: Session, night: GameSession, low: int, high: int) -> list[dict[str, Any]]:
    """:func:`history_rows` of the hand numbers ``low`` to ``high`` (newest first)."""
    if high < low or high < 1:
        return []
    versions: dict[int, list[Hand]] = {}
    between = {"night": night.id, "low": low, "high": high}
    for hand in db.exec(PAGE_HANDS, params=between):
        versions.setdefault(hand.number, []).append(hand)
    made, voided = _hand_events(db.exec(PAGE_EVENTS, params=between))
    for fix in db.exec(SEAT_FIXES, params={"night": night.id}):  # who re-entered a hand at fixed seats
        for entry in (fix.detail.get("after") or {}).get("hands") or []:
            number, version = entry.get("number"), entry.get("version")
            if isinstance(number, int) and isinstance(version, int) and low <= number <= high:
                made[(number, version)] = fix
    rows = []
    for number in sorted(versions, reverse=True):
        chain = versions[number]
        current = chain[-1]
        row = hand_row(night, current)
        row["recorded"] = stamp(made.get((number, current.version)))
        row["voided_by"] = stamp(voided.get(number)) if row["voided"] else None
        row["earlier"] = [
            hand_row(night, old) | {"recorded": stamp(made.get((number, old.version))),
                                    "replaced": stamp(made.get((number, old.version + 1)))}
            for old in chain[:-1]
        ]
        rows.append(row)
    return rows


# the table page's reads, prepared once (the live table polls them)
_LATEST = (select(Hand).where(Hand.session_id == bindparam("night"), Hand.status != "superseded")
           .order_by(Hand.number.desc()).limit(bindparam("count")))  # type: ignore[attr-defined]
_LAST_COUNTED = (select(Hand).where(Hand.session_id == bindparam("night"), Hand.status == "counted")
                 .order_by(Hand.number.desc()).limit(1))  # type: ignore[attr-defined]


def latest_hands(db: Session, night: GameSession, count: int) -> list[Hand]:
    """The current versions of the ``count`` highest-numbered hands, newest first."""
    return list(db.exec(_LATEST, params={"night": night.id, "count": count}))


def last_counted(db: Session, night: GameSession) -> Hand | None:
    """The hand "undo" would void: the highest-numbered one that counts."""
    return db.exec(_LAST_COUNTED, params={"night": night.id}).first()


def _hand_events(
    events: Iterable[AuditEvent],
) -> tuple[dict[tuple[int, int], AuditEvent], dict[int, AuditEvent]]:
    """``(number, version) → the event that made that version`` and ``number → its void``."""
    made: dict[tuple[int, int], AuditEvent] = {}
    voided: dict[int, AuditEvent] = {}
    for event in events:
        if event.hand_number is None:
            continue
        if event.action == "hand_recorded":
            made[(event.hand_number, 1)] = event
        elif event.action == "hand_amended":
            version = (event.detail.get("after") or {}).get("version")
            if isinstance(version, int):
                made[(event.hand_number, version)] = event
        elif event.action == "hand_voided":
            voided[event.hand_number] = event
    return made, voided
