"""The end of a pool (RUMMY13.md §4.10, §8.4): the pot, the winner's share or a split (equal or by
drops, leftover units to the lowest scores), nets and the simple canonical transfers.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.games.rummy13.entry import players_shaped, read_players, read_stake
from ledger.games.rummy13.errors import SPLIT_NEEDS_TWO, refuse
from ledger.games.rummy13.ruleset import RummyRules
from ledger.transfers import Transfer


@dataclass(slots=True)
class PoolSettlement:
    """The end of a pool (§4.10, §8.4): ``pot`` and ``shares`` in minor units, ``transfers`` and
    ``net`` (share − entry fee × buy-ins)."""

    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    pot: int
    shares: dict[str, int]
    kind: str = "pool_end"
    redeal: bool = False

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(n for n, s in self.shares.items() if s > 0)

    @property
    def state(self) -> None:
        return None

    def to_json(self) -> dict[str, Any]:
        return {"transfers": [t.to_json() for t in self.transfers], "net": dict(self.net), "pot": self.pot,
                "shares": dict(self.shares)}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape(data: Mapping[str, Any]) -> None:
    if not players_shaped(data.get("players")):
        refuse("invalid_entry", "players")
    settlement = data.get("pool_settlement")
    if not isinstance(settlement, Mapping):
        refuse("invalid_entry", "pool_settlement")
    for key in ("buy_ins", "final_scores", "end"):
        if not isinstance(settlement.get(key), Mapping):
            refuse("invalid_entry", f"pool_settlement.{key}")
    end = settlement["end"]
    if end.get("kind") == "winner":
        if not isinstance(end.get("winner"), str):
            refuse("invalid_entry", "pool_settlement.end.winner")
    elif end.get("kind") == "split":
        if end.get("method") not in ("equal", "by_drops"):
            refuse("invalid_entry", "pool_settlement.end.method")
    else:
        refuse("invalid_entry", "pool_settlement.end.kind")
    for name in data["players"]:
        count = settlement["buy_ins"].get(name)
        if not _is_int(count) or count < 1:
            refuse("invalid_entry", f"pool_settlement.buy_ins.{name}")


def _equal(amount: int, among: list[str], scores: Mapping[str, int], players: list[str]) -> dict[str, int]:
    """``amount`` shared equally; the leftover units one each to the lowest scores (ties by seat)."""
    share, left = divmod(amount, len(among))
    out = dict.fromkeys(among, share)
    for name in sorted(among, key=lambda n: (scores[n], players.index(n)))[:left]:
        out[name] += 1
    return out


def settle(rules: RummyRules, data: Mapping[str, Any]) -> PoolSettlement:
    """Check and pay a pool settlement entry in §9.1's order for it; raises ``HandError``."""
    _shape(data)
    players = list(read_players(data, rules))
    fee = read_stake(data.get("entry_fee"), "entry_fee")
    settlement = data["pool_settlement"]
    buy_ins, final, end = settlement["buy_ins"], settlement["final_scores"], settlement["end"]
    seated = set(players)
    for part, names in (("buy_ins", buy_ins), ("final_scores", final)):
        for name in names:
            if name not in seated:
                refuse("unknown_player", f"pool_settlement.{part}.{name}", name=str(name))
    if end["kind"] == "winner" and end["winner"] not in seated:
        refuse("unknown_player", "pool_settlement.end.winner", name=end["winner"])
    if not rules.is_pool:
        refuse("feature_disabled", "pool_settlement")
    for name, score in final.items():
        if not _is_int(score) or score < 0:
            refuse("pool_state_missing", f"pool_settlement.final_scores.{name}", name=name)
    for name, score in final.items():
        if score >= rules.pool_limit:
            refuse("eliminated_player", f"pool_settlement.final_scores.{name}", name=name)
    pot = fee * sum(buy_ins[n] for n in players)
    still_in = [n for n in players if n in final]
    if end["kind"] == "winner":
        if len(still_in) > 1:
            refuse("pool_not_over", "pool_settlement.final_scores")
        if still_in != [end["winner"]]:
            refuse("claim_mismatch", "pool_settlement.end.winner", name=end["winner"])
        shares = {end["winner"]: pot}
    else:
        if len(still_in) < 2:
            refuse("claim_mismatch", "pool_settlement.final_scores", SPLIT_NEEDS_TWO)
        if end["method"] == "equal":
            shares = _equal(pot, still_in, final, players)
        else:
            first = rules.first_drop_points
            drops = {n: max(0, (rules.pool_limit - 1 - final[n]) // first) if first else 0 for n in still_in}
            least = min(drops.values())
            ahead = {n: (drops[n] - least) * fee for n in still_in}
            rest = pot - sum(ahead.values())
            if rest < fee:
                refuse("split_not_allowed", "pool_settlement.end")
            equal = _equal(rest, still_in, final, players)
            shares = {n: ahead[n] + equal[n] for n in still_in}
    net = {n: shares.get(n, 0) - fee * buy_ins[n] for n in players}
    assert sum(net.values()) == 0
    return PoolSettlement(_simple_transfers(players, net), net, pot, shares)


def _simple_transfers(players: list[str], net: Mapping[str, int]) -> tuple[Transfer, ...]:
    """§4.10: payers in seat order pay receivers in seat order, as much as both allow."""
    owed = [[n, -net[n]] for n in players if net[n] < 0]
    due = [[n, net[n]] for n in players if net[n] > 0]
    out: list[Transfer] = []
    i = j = 0
    while i < len(owed) and j < len(due):
        amount = min(owed[i][1], due[j][1])
        out.append(Transfer(owed[i][0], due[j][0], amount))
        owed[i][1] -= amount
        due[j][1] -= amount
        if owed[i][1] == 0:
            i += 1
        if due[j][1] == 0:
            j += 1
    return tuple(out)
