"""Tong-its hands in words, for history lists and statements ("Dodong called a draw (laban);
Marisol won", "Ligaya was burned (sunog)").

Works on the JSON forms the ledger stores (the entry's ``outcome`` and the §8.2 result, with
the engine's ``detail`` when kept), so old hands read the same however they were stored. Each
description is one whole sentence per case, a :class:`~ledger.sentences.Sentence`: ``str()``
it to read it in the current language. Filipino tables' words (tong-its, laban, sunog) stay.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.sentences import N_, Sentence

OUTCOME_TITLE_TEMPLATES: dict[str, str] = {
    "tongits": N_("Tong-its"),
    "draw": N_("Draw (laban)"),
    "stock_out": N_("Stock out"),
    "redeal": N_("Redeal"),
    "close_pot": N_("Pot closed"),
}

CLOSED = {
    "split": N_("The pot was split among the players"),
    "carry": N_("The pot is carried to the next night"),
    "keep": N_("The pot is kept for the new seating"),
}


def outcome_title(kind: str) -> Sentence:
    """The title of outcome ``kind`` (the kind itself if unknown)."""
    template = OUTCOME_TITLE_TEMPLATES.get(kind)
    return Sentence(template) if template else Sentence("{kind}", {"kind": str(kind)})


def describe_hand(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> Sentence:
    """One sentence for a scored hand. ``outcome``: the §8.1 outcome; ``result``: the §8.2
    result (``winner``, ``pot``...), optionally with ``detail`` (``contested``, ``rule``) and
    ``points`` (player → points) from :class:`~ledger.games.tongits.engine.TongitsResult`."""
    kind = outcome.get("kind")
    winner = result.get("winner")
    detail = result.get("detail") or {}
    if kind == "tongits":
        return Sentence(N_("{winner} went out: tong-its"), {"winner": str(winner)})
    if kind == "draw":
        caller = str(outcome.get("caller"))
        responses = outcome.get("responses") or {}
        fought = detail.get("contested", any(a == "fight" for a in responses.values()))
        if not fought:
            return Sentence(N_("{caller} called a draw (laban) and nobody fought"), {"caller": caller})
        if winner == caller:
            return Sentence(N_("{caller} called a draw (laban) and won the fight"), {"caller": caller})
        return Sentence(N_("{caller} called a draw (laban); {winner} won"), {"caller": caller, "winner": str(winner)})
    if kind == "stock_out":
        if winner is None:
            return Sentence(N_("Stock out with nobody opened: washed, the antes stay in the pot"))
        count = (result.get("points") or {}).get(winner)
        if isinstance(count, int):
            return Sentence(N_("Stock out: {winner} won with {points}"), {"winner": str(winner), "points": count})
        return Sentence(N_("Stock out: {winner} won"), {"winner": str(winner)})
    if kind == "redeal":
        return Sentence(N_("Misdeal: redeal, nobody pays"))
    if kind == "close_pot":
        pot = result.get("pot") or {}
        rule = detail.get("rule") or ("split" if pot.get("split") else
                                      "carry" if outcome.get("reason") == "end_of_night" else "keep")
        return Sentence(CLOSED.get(rule, CLOSED["split"]))
    return outcome_title(str(kind))


def describe_lines(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> list[Sentence]:
    """:func:`describe_hand`, then one sentence per burned player (when ``detail`` holds
    ``burned``) and one for a pot take."""
    lines = [describe_hand(outcome, result)]
    detail = result.get("detail") or {}
    for player in detail.get("burned") or ():
        lines.append(Sentence(N_("{player} was burned (sunog)"), {"player": str(player)}))
    taken_by = (result.get("pot") or {}).get("taken_by")
    if taken_by is not None:
        lines.append(Sentence(N_("{winner} took the pot"), {"winner": str(taken_by)}))
    return lines
