"""Canonical transfers of one hand (RULES.md §8.3): pairwise netting in seat order.

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Iterable, Protocol, Sequence

from ledger.transfers import Transfer


class _Payment(Protocol):
    payer: str
    payee: str
    amount_minor: int


def net_payments(
    players: Sequence[str], payments: Iterable[_Payment]
) -> tuple[tuple[Transfer, ...], dict[str, int]]:
    """Net gross payments pairwise (§8.3).

    Returns ``(transfers, net)``: one :class:`Transfer` per pair with a non-zero flow, from the
    net payer to the net payee, sorted by payer seat then payee seat; ``net`` maps every player
    (zero included, seat order) to received minus paid, in minor units.
    """
    seat = {name: index for index, name in enumerate(players)}
    flow: dict[tuple[str, str], int] = {}
    net = dict.fromkeys(players, 0)
    for p in payments:
        # each pair is kept in seat order (a, b); a positive flow means a pays b
        if seat[p.payer] <= seat[p.payee]:
            pair, amount = (p.payer, p.payee), p.amount_minor
        else:
            pair, amount = (p.payee, p.payer), -p.amount_minor
        flow[pair] = flow.get(pair, 0) + amount
        net[p.payer] -= p.amount_minor
        net[p.payee] += p.amount_minor
    transfers = [
        Transfer(a, b, amount) if amount > 0 else Transfer(b, a, -amount)
        for (a, b), amount in flow.items()
        if amount != 0
    ]
    transfers.sort(key=lambda t: (seat[t.payer], seat[t.payee]))
    return tuple(transfers), net
