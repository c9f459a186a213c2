"""Players' names inside stored hands: rename one player, or exchange two (a seat fix).

Works on the JSON forms the ledger stores: a §8.1 entry (``outcome``, ``hands``,
``side_bets``) and an engine result (``transfers``, ``net``, ``winners``, ``counts``...). Only
the places that hold a player's name change (the outcome's winner, knocker, claimed winner,
first tonker, responder and claimants, the ``hands`` keys, the spade bet's ``highest_spade``
keys; a result's payers, payees, ``net`` and ``counts`` keys and ``winners``; and Tong-its'
caller, last drawer and responses, a result's winner, next dealer, pot holder and taker, the
state's holder and the burned players and units of its detail), so a card text or
an outcome kind that happens to equal a name is left alone.

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

OUTCOME_NAME_FIELDS = ("winner", "knocker", "claimed_winner", "first_tonker", "responder",
                       "caller", "last_drawer")  # the last two: a Tong-its draw and stock out (TONGITS.md §8.1)


def _name(value: Any, names: Mapping[str, str]) -> Any:
    return names.get(value, value) if isinstance(value, str) else value


def _keys(value: Any, names: Mapping[str, str]) -> Any:
    if not isinstance(value, Mapping):
        return value
    return {_name(key, names): item for key, item in value.items()}


def rename_entry(entry: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A copy of ``entry`` with every player name ``old`` replaced by ``names[old]``.

    ``names`` may exchange names (``{"Dee": "Marcus", "Marcus": "Dee"}``): every name is
    replaced once, from the original. Parts of an unexpected shape are copied unchanged.
    """
    out = dict(entry)
    outcome = entry.get("outcome")
    if isinstance(outcome, Mapping):
        moved = dict(outcome)
        for field in OUTCOME_NAME_FIELDS:
            if field in moved:
                moved[field] = _name(moved[field], names)
        if isinstance(moved.get("claimants"), list):
            moved["claimants"] = [_name(c, names) for c in moved["claimants"]]
        if "responses" in moved:  # a Tong-its draw: each other player's fight or fold
            moved["responses"] = _keys(moved["responses"], names)
        out["outcome"] = moved
    if "hands" in entry:
        out["hands"] = _keys(entry["hands"], names)
    pool = entry.get("pool")
    if isinstance(pool, Mapping) and "rejoined" in pool:  # a pool rummy hand's rejoins (RUMMY13.md §4.9)
        out["pool"] = dict(pool) | {"rejoined": _names(pool["rejoined"], names)}
    bets = entry.get("side_bets")
    if isinstance(bets, Mapping) and isinstance(bets.get("spade"), Mapping):
        spade = dict(bets["spade"])
        spade["highest_spade"] = _keys(spade.get("highest_spade"), names)
        out["side_bets"] = dict(bets) | {"spade": spade}
    return out


def rename_along(entry: Mapping[str, Any], renames: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A copy of ``entry`` after each ``(old, new)`` of ``renames`` in turn (``Ann`` → ``Bo``
    then ``Bo`` → ``Cy`` makes ``Ann`` ``Cy``), as :func:`rename_entry` does one."""
    out = dict(entry)
    for old, new in renames:
        out = rename_entry(out, {old: new})
    return out


def name_along(name: Any, renames: Sequence[tuple[str, str]]) -> Any:
    """``name`` after each ``(old, new)`` of ``renames`` in turn (anything but a text unchanged)."""
    for old, new in renames:
        name = new if name == old else name
    return name


def rename_result(result: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A copy of a stored engine result with every player name replaced as in
    :func:`rename_entry` (amounts, order and the ``detail`` facts unchanged)."""
    out = dict(result)
    if isinstance(result.get("transfers"), list):
        out["transfers"] = [
            dict(t) | {"from": _name(t.get("from"), names), "to": _name(t.get("to"), names)}
            if isinstance(t, Mapping) else t
            for t in result["transfers"]
        ]
    for field in ("net", "counts"):
        if field in result:
            out[field] = _keys(result[field], names)
    if isinstance(result.get("winners"), list):
        out["winners"] = [_name(w, names) for w in result["winners"]]
    for field in ("winner", "next_dealer"):  # a Tong-its result (TONGITS.md §8.2)
        if field in result:
            out[field] = _name(result[field], names)
    if isinstance(result.get("pot"), Mapping):
        out["pot"] = dict(result["pot"]) | {key: _name(result["pot"][key], names)
                                            for key in ("holder", "taken_by") if key in result["pot"]}
    if isinstance(result.get("state"), Mapping):
        out["state"] = rename_state(result["state"], names)
    for field in ("pool", "pool_end"):  # a pool rummy hand's standing, and the end's shares (RUMMY13.md §4.10)
        part = result.get(field)
        if isinstance(part, Mapping):
            moved = dict(part)
            for key in ("scores", "buy_ins", "shares"):
                if key in moved:
                    moved[key] = _keys(moved[key], names)
            for key in ("eliminated", "remaining", "rejoined", "winners", "still_in"):
                if key in moved:
                    moved[key] = _names(moved[key], names)
            if "winner" in moved:
                moved["winner"] = _name(moved["winner"], names)
            out[field] = moved
    detail = result.get("detail")
    if isinstance(detail, Mapping) and ("burned" in detail or "units" in detail):
        moved = dict(detail)
        if isinstance(detail.get("burned"), (list, tuple)):
            moved["burned"] = [_name(b, names) for b in detail["burned"]]
        if "units" in detail:
            moved["units"] = _keys(detail["units"], names)
        out["detail"] = moved
    return out


def rename_state(state: Mapping[str, Any] | None, names: Mapping[str, str]) -> dict[str, Any] | None:
    """A copy of a game's stored state (Tong-its' pot, TONGITS.md §4.8: ``holder``; a pool rummy
    night's ``scores`` and ``buy_ins``, RUMMY13.md §4.10) with the names replaced; ``None`` stays
    ``None``."""
    if state is None:
        return None
    out = dict(state)
    if "holder" in out:
        out["holder"] = _name(out["holder"], names)
    for field in ("scores", "buy_ins"):  # a pool rummy night's (RUMMY13.md §4.10): kept by name
        if field in out:
            out[field] = _keys(out[field], names)
    return out


def _names(value: Any, names: Mapping[str, str]) -> Any:
    return [_name(item, names) for item in value] if isinstance(value, (list, tuple)) else value
