"""The replay of a club night of a game whose hands are scored from the state the hands before left
(Tong-its: the pot's balance, holder and streak, TONGITS.md §4.8), for a club import.

Every hand version of the night is scored again through its game (:meth:`ledger.games.base.Game.score`)
at its seating, stake and dealer, and must give exactly the result the document stores (as
:func:`ledger.night.recording.stored_result` writes it). The state a **counted** version is scored from
is never read from the document: it is the state the counted hands before it left, in number
order, from the game's first state (the chain the live ledger keeps, re-derived on every
correction). A voided or superseded version moved no money; it is scored from the state its own
stored result says it started from (the pot's ``balance_before``; the holder and streak before it
as far as they decide anything: a winner on a streak of s > 1 held it at s − 1, a first win
scores alike from any holder, a hand with no winner leaves them as they were), so that its result
too is one the engine gives. The first disagreement is a :class:`~ledger.errors.NightError` 422
naming its path (``nights[1].hands[7].result.pot.balance_after``): ``import_mismatch``, or the
game's own §9.1 code. Pure: no database, no Flask.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ledger.clubs.import_refusals import mismatch, same
from ledger.errors import NightError
from ledger.games import Game, HandError
from ledger.night.recording import stored_result
from ledger.night.submission import Submission

NOT_A_HAND_KINDS = frozenset({"close_pot", "pool_end"})  # scored with no dealer (TONGITS.md §4.9, RUMMY13.md §4.10)


def replay_chain(chosen: Game, rules: Any, hands: Sequence[Mapping[str, Any]], where: str,
                 opening: int = 0) -> list[dict[str, Any]]:
    """The replayed result (JSON-ready) of each of ``hands`` (the document's order), checked
    against the document's own; see the module docstring. ``opening`` is what the night's pot
    opened with (minor units: the club's pot it took, TONGITS.md §4.8), the first state's balance."""
    order = sorted(range(len(hands)), key=lambda i: (hands[i]["number"], hands[i]["version"]))
    state = _json(chosen.initial_state(rules, {"pot": opening} if opening else None))
    results: list[dict[str, Any]] = [{} for _ in hands]
    for index in order:
        hand = hands[index]
        at = f"{where}.hands[{index}]"
        counted = hand["status"] == "counted"
        start = state if counted else _claimed_start(hand["result"], f"{at}.result")
        results[index] = _scored(chosen, rules, hand, start, at)
        if counted:
            state = results[index].get("state")
    return results


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _claimed_start(result: Any, at: str) -> dict[str, Any]:
    """The state a voided or superseded version started from, as far as its own result tells
    (see the module docstring); ``import_mismatch`` when it tells nothing readable."""
    pot = result.get("pot") if isinstance(result, Mapping) else None
    if not isinstance(pot, Mapping) or not all(key in pot for key in ("balance_before", "holder", "streak")):
        raise mismatch(f"{at}.pot", pot, "balance_before, holder, streak")
    winner, holder, streak = result.get("winner"), pot["holder"], pot["streak"]
    if winner is None:  # no winner: holder and streak unchanged (a close clears them, whatever they were)
        before = (holder, streak) if holder is not None else (None, 0)
    elif holder == winner and isinstance(streak, int) and not isinstance(streak, bool) and streak > 1:
        before = (winner, streak - 1)
    else:  # a first win in a row: the holder before decides nothing
        before = (None, 0)
    return {"balance": pot["balance_before"], "holder": before[0], "streak": before[1]}


def _scored(chosen: Game, rules: Any, hand: Mapping[str, Any], start: Any, at: str) -> dict[str, Any]:
    entry = hand["entry"]
    submission = Submission.of_entry(entry)
    closing = hand["kind"] in NOT_A_HAND_KINDS
    try:
        submission = submission.normalised()
        same(entry, submission.entry(), f"{at}.entry")
        result = chosen.score(rules, players=tuple(hand["players"]), stake_minor=hand["stake"],
                              dealer=None if closing else hand["dealer"], state=start, entry=submission.entry())
    except HandError as err:  # the game's own refusal, its field found inside this hand
        field = err.field or "entry"
        inside = field.split(".")[0].split("[")[0] in ("outcome", "hands", "side_bets", "pot")
        raise NightError(422, err.code, err.template, f"{at}.{'entry.' if inside else ''}{field}", None,
                         **err.params) from None
    replayed: dict[str, Any] = _json(stored_result(result))
    same(hand["kind"], result.kind, f"{at}.kind")
    same(hand["redeal"], result.redeal, f"{at}.redeal")
    same(hand["result"], replayed, f"{at}.result")
    return replayed
