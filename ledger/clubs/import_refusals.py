"""The refusals of a club import (:mod:`ledger.clubs.import_replay`): the sentences, and the
422 :class:`~ledger.errors.NightError` naming the path where the document disagrees, with the
document's figure and the replay's (``import_mismatch``), found by :func:`first_difference`.
No database, no Flask."""
from __future__ import annotations

import json
from typing import Any

from ledger.errors import NightError
from ledger.sentences import N_

MISSING = "—"  # shown for a part one side has and the other lacks
MISMATCH = N_("The document says {claimed} here, but replaying it gives {replayed}.")
REPEATED = N_("{value} is given twice here; it must be unique.")
HAND_MISSING = N_("Hand {number} is missing: a night's hands are numbered from 1 without gaps.")
VERSION_MISSING = N_("Hand {number} has no version {version}: a hand's versions are numbered from 1 without gaps.")
LATEST_ONLY = N_("Only the latest version of hand {number} counts or is void; its earlier versions are superseded.")
VOIDED_AT = N_("A voided hand or payment says when it was voided, and a counted one does not.")
OPEN_NIGHT = N_("An open night has not closed: it has no closing time, carries nothing and says carried null.")
CLOSED_NIGHT = N_("A closed night says when it closed and whether it carried: true or false.")
NOT_ROSTERED = N_("{name} is seated but not on the night's roster.")
SEAT_NAME = N_("The seat {name} is not a name the member {member} has had.")
SEAT_THEN = N_("At this night {name} was the club member {other}, not {member}.")
NO_SEAT = N_("{name} sat at this night but holds no member's seat.")
NOT_RECORDED = N_("The history records no payment for this one; every payment is recorded there when it is made.")


def mismatch(path: str, claimed: Any, replayed: Any) -> NightError:
    """The 422 ``import_mismatch`` for a figure at ``path``: the document's and the replay's."""
    return NightError(422, "import_mismatch", MISMATCH, path, None, claimed=_shown(claimed),
                      replayed=_shown(replayed))


def _shown(value: Any) -> str:
    if value is MISSING:
        return MISSING
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return text if len(text) <= 80 else text[:79] + "…"


def refuse(path: str, template: str, code: str = "invalid_entry", **params: Any) -> NightError:
    return NightError(422, code, template, path, None, **params)


def first_difference(claimed: Any, replayed: Any, path: str) -> tuple[str, Any, Any] | None:
    """The first ``(path, claimed part, replayed part)`` where ``claimed`` differs from
    ``replayed`` (objects key by key in ``claimed``'s order, then the keys it lacks; lists item
    by item; ``True`` is not ``1``), or ``None`` when they are equal."""
    if isinstance(claimed, dict) and isinstance(replayed, dict):
        for key, value in claimed.items():
            where = f"{path}.{key}"
            if key not in replayed:
                return where, value, MISSING
            found = first_difference(value, replayed[key], where)
            if found:
                return found
        for key, value in replayed.items():
            if key not in claimed:
                return f"{path}.{key}", MISSING, value
        return None
    if isinstance(claimed, list) and isinstance(replayed, list):
        for index in range(max(len(claimed), len(replayed))):
            where = f"{path}[{index}]"
            if index >= len(claimed):
                return where, MISSING, replayed[index]
            if index >= len(replayed):
                return where, claimed[index], MISSING
            found = first_difference(claimed[index], replayed[index], where)
            if found:
                return found
        return None
    if type(claimed) is not type(replayed) or claimed != replayed:
        return path, claimed, replayed
    return None


def same(claimed: Any, replayed: Any, path: str) -> None:
    found = first_difference(claimed, replayed, path)
    if found:
        raise mismatch(*found)
