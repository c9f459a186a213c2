"""Pool rummy kept over a night (RUMMY13.md §4.9–§4.10): the running scores, who is out, who
buys in again, and the end of the pool that pays the pot.

The night's state (``GameSession.game_state``, handed from hand to hand by the ledger) is
``{"scores": {name: int}, "buy_ins": {name: int}}`` plus ``"ended": true`` once the pot was paid:
a player without a score is at 0, without a buy-in count has bought in once. Each hand is dealt to
the seated players still in (score below ``pool_limit``) and to those who rejoin with it
(``pool.rejoined``: out, they buy in again and come back at the highest staying score + 1, §4.9);
the engine checks the hand, the scores before it and the rejoin (its §9.1 codes). A pool hand
moves no money. The end (an entry of kind ``pool_end``, :func:`end_pool`) pays the pot, entry fee
× buy-ins, to the one player still in, or splits it among those still in (``equal`` or
``by_drops``), as §4.10 and :func:`ledger.games.rummy13.settlement.settle` say.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.games.rummy13.engine import RummyResult, score
from ledger.games.rummy13.entry import read_entry
from ledger.games.rummy13.errors import refuse
from ledger.games.rummy13.ruleset import RummyRules
from ledger.games.rummy13.settlement import PoolSettlement, settle
from ledger.sentences import N_

END_KIND = "pool_end"
SPLITS = ("equal", "by_drops")
POOL_OVER = N_("The pool is over: {winner} is the last one in. End the pool to pay the pot.")
POOL_ENDED = N_("The pool is over and its pot was paid: start a new night for a new pool.")


def scores_of(state: Mapping[str, Any] | None) -> dict[str, int]:
    return {str(k): int(v) for k, v in ((state or {}).get("scores") or {}).items()}


def buy_ins_of(state: Mapping[str, Any] | None, players: Sequence[str]) -> dict[str, int]:
    kept = (state or {}).get("buy_ins") or {}
    return {name: int(kept.get(name, 1)) for name in players}


def pot_of(entry_fee_minor: int, state: Mapping[str, Any] | None, players: Sequence[str]) -> int:
    """§4.10: the pot, entry fee × everyone's buy-ins, minor units."""
    return entry_fee_minor * sum(buy_ins_of(state, players).values())


def still_in(rules: RummyRules, players: Sequence[str], state: Mapping[str, Any] | None) -> list[str]:
    """The seated players whose score is below the limit, in seat order."""
    scores = scores_of(state)
    return [name for name in players if scores.get(name, 0) < rules.pool_limit]


@dataclass(slots=True)
class PoolEnd(PoolSettlement):
    """:class:`PoolSettlement` as a night's entry: the state it leaves (the pool ended)."""

    after: dict[str, Any] = field(default_factory=dict)
    end: dict[str, Any] = field(default_factory=dict)

    @property  # type: ignore[override]
    def state(self) -> dict[str, Any]:
        return dict(self.after)

    def to_json(self) -> dict[str, Any]:
        return PoolSettlement.to_json(self) | {"pool_end": dict(self.end)}


def score_pool_hand(rules: RummyRules, players: Sequence[str], state: Mapping[str, Any] | None,
                    entry: Mapping[str, Any]) -> RummyResult:
    """One hand of a pool night: dealt to the players still in and the rejoiners; the result's
    ``pool`` block holds every seated player's score after it (``scores``), ``buy_ins``, and the
    engine's ``eliminated``, ``remaining``, ``over`` and ``winner`` among those dealt in. Raises
    ``HandError`` (§9.1), and ``invalid_entry`` (field ``outcome``) once the pool has ended."""
    if (state or {}).get("ended"):
        refuse("invalid_entry", "outcome", POOL_ENDED)
    given = entry.get("pool") if isinstance(entry.get("pool"), Mapping) else {}
    rejoined = given.get("rejoined") or []
    if not isinstance(rejoined, list) or not all(isinstance(name, str) for name in rejoined):
        refuse("invalid_entry", "pool.rejoined")
    scores = scores_of(state)
    staying = still_in(rules, players, state)
    if len(staying) < 2:  # one player left: the pool is over, its end pays the pot
        refuse("invalid_entry", "outcome", POOL_OVER, winner=staying[0] if staying else "")
    dealt = [name for name in players if name in staying or name in rejoined]
    before = {name: scores.get(name, 0) for name in dealt}
    top = max((before[name] for name in staying), default=0)
    for name in rejoined:
        if name in before and name not in staying:
            before[name] = top + 1  # §4.9: back at the highest staying score + 1
    data = {"players": dealt, "stake": 1, "wild_rank": entry.get("wild_rank"), "outcome": entry.get("outcome"),
            "hands": entry.get("hands", {}), "pool": {"scores_before": before, "rejoined": list(rejoined)}}
    result = score(rules, read_entry(data, rules))
    assert result.pool is not None
    buy_ins = buy_ins_of(state, players)
    for name in rejoined:
        buy_ins[name] += 1
    every = {name: scores.get(name, 0) for name in players} | dict(result.pool["scores"])
    return replace(result, pool=dict(result.pool) | {"scores": every, "buy_ins": buy_ins,
                                                      "rejoined": list(rejoined)})


def end_pool(rules: RummyRules, players: Sequence[str], entry_fee_minor: int, state: Mapping[str, Any] | None,
             outcome: Mapping[str, Any]) -> PoolEnd:
    """The end of the pool at this night: ``outcome`` ``{"kind": "pool_end"}`` pays the one player
    still in; with ``"split": "equal" | "by_drops"`` the players still in share the pot (§4.10).
    Raises ``HandError`` ``pool_not_over`` (two or more still in and no split), ``claim_mismatch``
    (a split with fewer than two still in), ``split_not_allowed``, ``invalid_entry``."""
    if (state or {}).get("ended"):
        refuse("invalid_entry", "outcome", POOL_ENDED)
    split = outcome.get("split")
    if split is not None and split not in SPLITS:
        refuse("invalid_entry", "outcome.split")
    staying = still_in(rules, players, state)
    scores = scores_of(state)
    if split is None and len(staying) != 1:
        refuse("pool_not_over", "outcome.split")
    end = {"kind": "split", "method": split} if split is not None else {"kind": "winner", "winner": staying[0]}
    data = {"players": list(players), "entry_fee": entry_fee_minor,
            "pool_settlement": {"buy_ins": buy_ins_of(state, players),
                                "final_scores": {name: scores.get(name, 0) for name in staying}, "end": end}}
    paid = settle(rules, data)
    after = {"scores": scores, "buy_ins": buy_ins_of(state, players), "ended": True}
    return PoolEnd(paid.transfers, paid.net, paid.pot, paid.shares, END_KIND, False, after, end)
