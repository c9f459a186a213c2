"""A Tong-its night file (TONGITS.md §8.4) replayed through the engine, trusting none of its figures.

Each hand is scored with the night's ``ruleset``, ``players`` and ``stake``, its own ``outcome``
and ``hands``, the dealer the previous result named (``first_dealer`` for the first), and the pot
state the previous hand left (``{0, null, 0}`` for the first): never the file's own ``pot`` or
``dealer``, which must equal them. Every figure the file claims (each hand's ``expected``, and
the night's ``expected``: ``net``, ``pot_balance``, ``close``, ``net_after_close``,
``hands_recorded``, ``redeals``, ``pot_takes``) must equal the replay's; the first that does not
raises :class:`NightFileMismatch` naming its path (``hands[4].expected.transfers``). Amounts are
int minor units. Pure domain code: standard library and this engine only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.games.tongits.engine import TongitsResult
from ledger.games.tongits.game import TONGITS


class NightFileMismatch(ValueError):
    """The night file says ``claimed`` at ``path`` where the replay gives ``replayed``."""

    def __init__(self, path: str, claimed: Any, replayed: Any) -> None:
        super().__init__(f"{path}: the file says {claimed!r}, the replay gives {replayed!r}")
        self.path, self.claimed, self.replayed = path, claimed, replayed


@dataclass(frozen=True, slots=True)
class ReplayedNight:
    """Each hand's replayed result (file order) and the night's figures: the players' nets, the
    pot after the last hand and the ``end_of_night`` close of that pot."""

    results: tuple[TongitsResult, ...]
    net: dict[str, int]
    pot_balance: int
    close: TongitsResult


def _same(path: str, claimed: Any, replayed: Any) -> None:
    if claimed != replayed:
        raise NightFileMismatch(path, claimed, replayed)


def replay_night(night: Mapping[str, Any]) -> ReplayedNight:
    """Replay ``night`` (a §8.4 night file, loaded JSON) and check every figure it claims (see
    the module docstring). Raises :class:`NightFileMismatch`, or ``HandError`` (§9.1, with the
    hand's own field) for a hand the rules refuse, or ``KeyError`` for a file without the
    night's keys."""
    rules = TONGITS.rules(night.get("ruleset"))
    players = tuple(night["players"])
    stake = night["stake"]
    state: Mapping[str, Any] = TONGITS.initial_state(rules)
    dealer = night.get("first_dealer") or players[0]
    net = dict.fromkeys(players, 0)
    results = []
    for index, hand in enumerate(night["hands"]):
        at = f"hands[{index}]"
        if "pot" in hand:
            _same(f"{at}.pot", hand["pot"], dict(state))
        if "dealer" in hand:
            _same(f"{at}.dealer", hand["dealer"], dealer)
        result = TONGITS.score(rules, players=players, stake_minor=stake, dealer=dealer, state=state,
                               entry={"outcome": hand.get("outcome"), "hands": hand.get("hands")})
        replayed = result.to_json()
        for key, value in (hand.get("expected") or {}).items():
            _same(f"{at}.expected.{key}", value, replayed.get(key))
        for player in players:
            net[player] += result.net[player]
        results.append(result)
        state = result.state
        dealer = result.next_dealer or dealer
    close = TONGITS.score(rules, players=players, stake_minor=stake, dealer=None, state=state,
                          entry={"outcome": {"kind": "close_pot", "reason": "end_of_night"}, "hands": {}})
    figures = {
        "net": net,
        "pot_balance": int(state["balance"]),
        "close": close.to_json(),
        "net_after_close": {p: net[p] + close.net[p] for p in players},
        "hands_recorded": len(results),
        "redeals": sum(1 for r in results if r.redeal),
        "pot_takes": sum(1 for r in results if r.pot.taken_by is not None),
    }
    for key, value in (night.get("expected") or {}).items():
        if key in figures:
            _same(f"expected.{key}", value, figures[key])
    return ReplayedNight(tuple(results), net, int(state["balance"]), close)
