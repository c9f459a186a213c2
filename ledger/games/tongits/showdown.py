"""Who wins a Tong-its hand (TONGITS.md §4.1, §4.3, §4.4, §4.7): the tong-its winner, the draw's
showdown with its tie order (caller last), the stock-out's lowest opened player from the last
drawer; a washed stock-out has no winner.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ledger.games.tongits.entry import Entry


@dataclass(frozen=True, slots=True)
class Decision:
    """``winner`` (``None``: washed, redeal, close); ``showdown``: the players whose points were
    compared (a challenged draw's caller and fighters, a stock-out's opened players), in seat
    order; ``contested``: a draw somebody fought."""

    winner: str | None
    showdown: tuple[str, ...] = ()
    contested: bool = False


def turn_order_from(players: Sequence[str], first: str) -> list[str]:
    """The seats in turn order starting with ``first`` (§0: wrapping round)."""
    i = list(players).index(first)
    return list(players[i:]) + list(players[:i])


def lowest_first(order: Sequence[str], points: dict[str, int]) -> str:
    """The first player in ``order`` with the lowest points (the tie-breaks of §4.7)."""
    low = min(points[p] for p in order)
    return next(p for p in order if points[p] == low)


def decide(entry: Entry) -> Decision:
    """The winner of ``entry`` (§4): needs the points of the showdown players (checked present
    before this is called, §9.1 #11)."""
    outcome = entry.outcome
    players = entry.players
    if outcome.kind == "tongits":
        return Decision(outcome.winner)
    if outcome.kind == "draw":
        caller = outcome.caller
        assert caller is not None
        fighters = [p for p in players if outcome.responses.get(p) == "fight"]
        if not fighters:
            return Decision(caller, (caller,), contested=False)
        showdown = [p for p in players if p == caller or p in fighters]
        order = turn_order_from(players, caller)
        order = order[1:] + order[:1]  # after the caller first, the caller last
        scores = {p: _points(entry, p) for p in showdown}
        return Decision(lowest_first([p for p in order if p in scores], scores), tuple(showdown), contested=True)
    if outcome.kind == "stock_out":
        opened = [p for p in players if entry.opened[p]]
        if not opened:
            return Decision(None)
        assert outcome.last_drawer is not None
        order = [p for p in turn_order_from(players, outcome.last_drawer) if p in opened]
        scores = {p: _points(entry, p) for p in opened}
        return Decision(lowest_first(order, scores), tuple(opened))
    return Decision(None)


def _points(entry: Entry, player: str) -> int:
    value = entry.points_of(player)
    assert value is not None, "the showdown's points are checked before the winner is decided"
    return value
