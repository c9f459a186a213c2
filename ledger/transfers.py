"""The one money movement type shared by the rules engine, the settlement and the ledger.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment of ``amount_minor`` (a positive ``int`` in minor currency units) from
    ``payer`` to ``payee`` (player names).

    Raises ``ValueError`` if the amount is not a positive ``int`` or payer equals payee.
    ``to_json()`` gives the wire shape ``{"from": str, "to": str, "amount": int}`` fixed by
    RULES.md §8.2 and the ``/api/v1`` contract.
    """

    payer: str
    payee: str
    amount_minor: int

    def __post_init__(self) -> None:
        if type(self.amount_minor) is not int or self.amount_minor <= 0:
            raise ValueError(f"transfer amount must be a positive int, got {self.amount_minor!r}")
        if self.payer == self.payee:
            raise ValueError(f"a transfer needs two different players, got {self.payer!r} twice")

    def to_json(self) -> dict[str, str | int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount_minor}
