"""A night's story beside its hands, for the PDFs: each audit event that changed the seating,
the stake, a name or a hand already played, as a :class:`~ledger.night.report.StoryLine`.

The events are read as stored (:func:`ledger.night.reads.report_source`: action, hand number,
detail as JSON text) and shaped here where the PDF renders; names are the names of then, amounts
``int`` minor units. A correction names the values that changed (:mod:`ledger.night.corrections`,
"Rosa's total 7 → 47") and the amounts that moved. Pure domain code: standard library only.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ledger.night.corrections import entry_changes
from ledger.night.report import StoryLine

#: the audit actions a night's story tells (the hands themselves and payments are told elsewhere)
STORY_ACTIONS = ("player_sat_in", "player_left", "stake_changed", "seats_swapped", "player_renamed",
                 "hand_amended", "hand_voided", "hand_restored")
# one event as read: action, hand number, detail (JSON text)
EventRow = tuple[str, Any, str]


def story_lines(events: Iterable[EventRow]) -> tuple[StoryLine, ...]:
    """The events (oldest first) as story lines; an event of another action, or one whose
    detail is not an object, is left out."""
    lines = []
    for action, number, detail_text in events:
        try:
            detail = json.loads(detail_text) if isinstance(detail_text, str) else dict(detail_text or {})
        except ValueError:
            continue
        if not isinstance(detail, dict):
            continue
        line = _line(action, number, detail)
        if line is not None:
            lines.append(line)
    return tuple(lines)


def _line(action: str, number: int | None, detail: dict[str, Any]) -> StoryLine | None:
    before, after = detail.get("before") or {}, detail.get("after") or {}
    if action == "player_sat_in":
        return StoryLine(action, {"name": str(after.get("name", "?")), "from_hand": after.get("from_hand"),
                                  "returning": bool(after.get("returning"))})
    if action == "player_left":
        cash = after.get("cash_out") or {}
        transfers = [(str(t.get("from", "?")), str(t.get("to", "?")), int(t.get("amount") or 0))
                     for t in cash.get("transfers") or [] if isinstance(t, dict)]
        return StoryLine(action, {
            "name": str(after.get("name", "?")), "as_of_hand": after.get("as_of_hand"),
            "balance_minor": int(after.get("outstanding", after.get("balance")) or 0),
            "transfers": transfers, "paid_now": after.get("settle") != "at_end"})
    if action == "stake_changed":
        return StoryLine(action, {"old_minor": int(before.get("stake_minor") or 0),
                                  "new_minor": int(after.get("stake_minor") or 0), "from_hand": after.get("from_hand")})
    if action == "seats_swapped":
        return StoryLine(action, {"a": str(after.get("a", "?")), "b": str(after.get("b", "?")),
                                  "from_hand": after.get("from_hand"),
                                  "hands": [h.get("number") for h in after.get("hands") or [] if isinstance(h, dict)]})
    if action == "player_renamed":
        return StoryLine(action, {"old": str(before.get("name", "?")), "new": str(after.get("name", "?"))})
    if action == "hand_amended" and detail.get("rescored"):
        return StoryLine("hand_rescored", {"number": number, "because": detail.get("because")})
    if action == "hand_amended":
        old, new = before.get("net") or {}, after.get("net") or {}
        moved = [(str(p), int(old.get(p) or 0), int(new.get(p) or 0)) for p in dict.fromkeys([*old, *new])
                 if int(old.get(p) or 0) != int(new.get(p) or 0) and p != "pot"]
        changes = [(str(c.label), str(c.before), str(c.after))
                   for c in entry_changes(before.get("entry"), after.get("entry"))]
        return StoryLine(action, {"number": number, "changes": changes, "moved": moved,
                                  "dealer": (str(before.get("dealer")), str(after.get("dealer")))
                                  if before.get("dealer") != after.get("dealer") else None})
    if action in ("hand_voided", "hand_restored"):
        return StoryLine(action, {"number": number})
    return None
