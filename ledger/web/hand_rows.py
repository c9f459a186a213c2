"""Hands as the pages show them: one row per hand number (its current version), and on the
history page the versions a correction replaced and who recorded, corrected or voided each
(read from the audit history: role, which phone, when).

Rows are plain dicts for the templates (``_macros.hand_row``). Amounts are the stored
engine results in ``int`` minor units; nothing is recomputed here.
"""
from __future__ import annotations

from typing import Any, Iterable

from sqlmodel import Session

from ledger import night as ledger_night
from ledger.models import AuditEvent, GameSession, Hand
from ledger.rules.describe import describe_hand


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
        "description": describe_hand(hand.entry.get("outcome", {}), hand.result),
        "amounts": [(p, int(net.get(p, 0))) for p in hand.players or night.players],  # its own seating
        "voided": hand.status == "voided",
        "redeal": hand.redeal,
        "created_at": hand.created_at,
        "cards": shown_cards(hand),
    }


def history_rows(db: Session, night: GameSession) -> list[dict[str, Any]]:
    """Every hand number, newest first: its current version (counted or voided) with
    ``recorded`` and ``voided_by`` stamps, and ``earlier``: the versions it replaced, oldest
    first, each with who recorded it and who replaced it."""
    versions: dict[int, list[Hand]] = {}
    for hand in ledger_night.hands_of(db, night, all_versions=True):
        versions.setdefault(hand.number, []).append(hand)
    made, voided = _hand_events(ledger_night.history(db, night))
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
