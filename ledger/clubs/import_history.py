"""What a club export's history tells the import's replay (:mod:`ledger.clubs.import_replay`):
each member's names over time, who held each name when each night started and closed, a
night's renames. A history is the document's too, so anything in it is read warily: an id
that is not a number or a text is none. No database, no Flask."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.names import name_key
from ledger.sentences import N_

def names_over_time(doc: Mapping[str, Any], members: Mapping[int, str]) -> dict[int, set[str]]:
    """Each member's names over time (as :func:`name_key`): now, and in the club's history."""
    had = {member_id: {name_key(name)} for member_id, name in members.items()}
    for event in doc["history"]:
        detail = event["detail"] or {}
        for side in ("before", "after"):
            part = detail.get(side)
            if isinstance(part, dict) and isinstance(part.get("name"), str) and ident(part.get("id")) in had:
                had[part["id"]].add(name_key(part["name"]))
    return had


def rosters_at_nights(doc: Mapping[str, Any], members: Mapping[int, str],
                      names_had: Mapping[int, set[str]]) -> list[list[dict[str, int]]]:
    """For each night, the club's roster (``name_key`` → member id) when it started and when it
    closed, read from the club's history (members created with the club, added, renamed; each
    night started, then carried or settled in cash), so that a seat is held by the member who
    had its name then. The k-th ``night_started`` event is the k-th night (the export lists
    nights in the order they started, and an imported club's history keeps the ids of the
    server it came from); a history that does not tell gives no roster (``[]``)."""
    started = [e for e in doc["history"] if e["action"] == "night_started"]
    if len(started) != len(doc["nights"]):
        return [[] for _ in doc["nights"]]
    night_of = {id_of(e["detail"] or {}): index for index, e in enumerate(started)}
    out: list[list[dict[str, int]]] = [[] for _ in doc["nights"]]
    now: dict[str, int] = {}
    ids = list(members)
    for event in doc["history"]:
        detail = event["detail"] or {}
        after = detail.get("after") if isinstance(detail.get("after"), dict) else {}
        before = detail.get("before") if isinstance(detail.get("before"), dict) else {}
        if event["action"] == "club_created" and isinstance(after.get("members"), list):
            for member_id, name in zip(ids, after["members"]):
                if isinstance(name, str) and name_key(name) in names_had[member_id]:
                    now[name_key(name)] = member_id
        elif event["action"] in ("member_added", "member_renamed") and ident(after.get("id")) in members:
            if isinstance(before.get("name"), str) and now.get(name_key(before["name"])) == after["id"]:
                del now[name_key(before["name"])]
            if isinstance(after.get("name"), str):
                now[name_key(after["name"])] = after["id"]
        elif event["action"] in ("night_started", "night_carried", "night_settled_in_cash"):
            index = night_of.get(ident(after.get("id")))
            if index is not None:
                out[index].append(dict(now))
    return out


def id_of(detail: Mapping[str, Any]) -> Any:
    """The id an event's ``after`` (else ``before``) names, if it names one."""
    for side in ("after", "before"):
        part = detail.get(side)
        if isinstance(part, dict) and "id" in part:
            return ident(part["id"])
    return None


def ident(value: Any) -> int | str | None:
    """``value`` if it can be an id (a number or a text; a history may hold anything), else ``None``."""
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def night_renames(history: Sequence[Mapping[str, Any]]) -> list[tuple[int, str, str]]:
    """The night's renames: ``(event index, old, new)``, oldest first."""
    out = []
    for index, event in enumerate(history):
        detail = event["detail"] if isinstance(event["detail"], dict) else {}
        old, new = (detail.get(side, {}).get("name") if isinstance(detail.get(side), dict) else None
                    for side in ("before", "after"))
        if event["action"] == "player_renamed" and isinstance(old, str) and isinstance(new, str):
            out.append((index, old, new))
    return out


def as_renamed(name: Any, when: int, renames: Sequence[tuple[int, str, str]]) -> Any:
    for index, old, new in renames:
        if index > when and name == old:
            name = new
    return name


# what the night's pages read in each event's detail (ledger.web.log_page, ledger.web.seat_events,
# ledger.web.hand_rows, ledger.clubs.carry.seat_member_ids): a key by that name in ``before`` or
# ``after`` (or in a cash-out, a re-entered hand, a payment inside them) holds that kind, or null
_KINDS = {"net": "amounts", "players": "names", "ruleset": "object", "cash_out": "object", "hands": "objects",
          "payments": "objects", "transfers": "objects", "stake_minor": "amount", "outstanding": "amount",
          "balance": "amount", "amount": "amount"}
NOT_OBJECT, NOT_TEXT, NOT_WHOLE, NOT_LIST = (N_("Not a valid mapping type."), N_("Not a valid string."),
                                             N_("Not a valid integer."), N_("Not a valid list."))


def event_problem(action: str, detail: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """Where a night's history event cannot be read back by the night's pages: ``(path inside
    the event, the sentence saying what it must be)``, or ``None``. ``before`` and ``after``
    are objects; what they hold under the names the pages read (a hand's ``net``, a seating's
    ``players``, a stake, a cash-out's ``transfers``...) is of the kind the pages read (amounts
    whole numbers within ±(2**53 − 1)); a rename names both names."""
    detail = detail or {}
    for side in ("before", "after"):
        part = detail.get(side)
        where = f"detail.{side}"
        if part is None and action != "player_renamed":
            continue
        if not isinstance(part, dict):
            return where, NOT_OBJECT
        if action == "player_renamed" and not isinstance(part.get("name"), str):
            return f"{where}.name", NOT_TEXT
        found = _part_problem(part, where)
        if found:
            return found
    return None


def _part_problem(part: Mapping[str, Any], path: str) -> tuple[str, str] | None:
    for key, value in part.items():
        kind, where = _KINDS.get(key), f"{path}.{key}"
        if kind is None or value is None:
            continue
        if kind == "amount" and not _amount(value):
            return where, NOT_WHOLE
        if kind in ("object", "amounts") and not isinstance(value, dict):
            return where, NOT_OBJECT
        if kind == "amounts":
            bad = next((name for name, amount in value.items() if not _amount(amount)), None)
            if bad is not None:
                return f"{where}.{bad}", NOT_WHOLE
        if kind in ("names", "objects") and not isinstance(value, list):
            return where, NOT_LIST
        for index, item in enumerate(value if kind in ("names", "objects") else []):
            if kind == "names" and not isinstance(item, str):
                return f"{where}[{index}]", NOT_TEXT
            if kind == "objects" and not isinstance(item, dict):
                return f"{where}[{index}]", NOT_OBJECT
            found = _part_problem(item, f"{where}[{index}]") if kind == "objects" else None
            if found:
                return found
        if key == "cash_out":
            found = _part_problem(value, where)
            if found:
                return found
    return None


def _amount(value: Any) -> bool:
    return type(value) is int and abs(value) <= 2**53 - 1
