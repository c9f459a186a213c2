"""The seating and stake a record form was filled against (its hidden ``seats`` and
``seen_stake`` fields), read back for every game's record flow."""
from __future__ import annotations

import json
from typing import Any

from ledger.storage.models import GameSession


def seen_table(values: Any, night: GameSession) -> tuple[tuple[str, ...], int | None]:
    """The seating and the stake (minor units) the form was filled against, as its hidden
    ``seat`` and ``seen_stake`` fields say, so that its seat numbers are read as the people the
    phone showed (``seats``: a JSON list of the names in seat order); a form without them (kept
    from before they were sent) or with a list that is no seating is read against the night's
    seating, and its stake is not checked."""
    try:
        seats = json.loads(values.get("seats") or "null")
    except ValueError:
        seats = None
    stake = values.get("seen_stake") or ""
    if (not isinstance(seats, list) or not 0 < len(seats) <= 64 or len(set(map(str, seats))) != len(seats)
            or any(not isinstance(s, str) or not 0 < len(s) <= 80 for s in seats)):
        return tuple(night.players), None
    return tuple(seats), int(stake) if stake.isdecimal() and len(stake) <= 10 else None
