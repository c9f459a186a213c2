"""Hands in words, for history lists and statements ("Rosa knocked with 4 and won").

Works on the JSON forms stored by the ledger (the entry's ``outcome`` and a result's
``winners``, ``redeal`` and ``detail``), so old hands read the same however they were stored.

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

OUTCOME_TITLES = {
    "deal_tonk": "Tonk on the deal",
    "tonk_out": "Tonk out",
    "discard_out": "Out by discard",
    "knock": "Knock (drop)",
    "dry_stock": "Dry stock",
    "double_double": "Double-double",
}


def join_names(names: Sequence[str]) -> str:
    names = list(names)
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _times(mult: Any) -> str:
    return f" ({mult}×)" if isinstance(mult, int) and mult != 1 else ""


def describe_hand(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """One sentence for a recorded hand, e.g. ``"Dee knocked with 7 and was caught by Rosa"``.

    ``outcome`` is the §8.1 outcome object; ``result`` holds ``winners`` (list), ``redeal``
    (bool) and ``detail`` (dict) as produced by the engine.
    """
    kind = outcome.get("kind")
    winners = list(result.get("winners") or [])
    detail = result.get("detail") or {}
    redeal = bool(result.get("redeal"))
    mult = detail.get("mult")
    if kind == "deal_tonk":
        if redeal:
            return f"Deal tonks by {join_names(outcome.get('claimants') or [])}: redeal, nobody pays"
        total = detail.get("total")
        shown = f" with {total}" if isinstance(total, int) else ""
        return f"{join_names(winners)} tonked on the deal{shown}{_times(mult)}"
    if kind == "tonk_out":
        return f"{outcome.get('winner')} tonked out{_times(mult)}"
    if kind == "discard_out":
        return f"{outcome.get('winner')} went out by discard"
    if kind == "knock":
        knocker = outcome.get("knocker")
        count = detail.get("knocker_count")
        with_count = f" with {count}" if isinstance(count, int) else ""
        res = detail.get("result")
        if res == "knocker_wins":
            return f"{knocker} knocked{with_count} and won{_times(mult)}"
        if res == "tie_single":
            return f"{knocker} knocked{with_count} and tied; {join_names(winners)} collect single"
        if detail.get("catch_tie"):
            return f"{knocker} knocked{with_count} and was caught: catch tie between {join_names(winners)}"
        return f"{knocker} knocked{with_count} and was caught by {join_names(winners)}"
    if kind == "dry_stock":
        low = detail.get("low_count")
        if redeal:
            return f"Dry stock, tie for low at {low}: redeal, nobody pays"
        if len(winners) > 1:
            return f"Dry stock: {join_names(winners)} tie for low at {low}"
        return f"Dry stock: {join_names(winners)} lowest with {low}"
    if kind == "double_double":
        return f"Double-double: {join_names(winners)} collects 4×"
    return str(OUTCOME_TITLES.get(str(kind), kind))
