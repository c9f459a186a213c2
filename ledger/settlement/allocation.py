"""Why each settle-up line: the payer's losses allocated to their lines, so that every line is
explained by exactly its amount and no loss is used twice.

Pure domain code: standard library only. Every amount is an ``int`` in minor units.

The rule, in two steps (the same for a night, where the losses are hands, and for a club, where
they are the nights carried into its balances):

1. **What a payer owes is explained by their most recent losses.** The payer's debt is the sum
   of their lines (what they still owe after every hand and payment). Walking back from their
   newest loss, each loss is taken whole while the losses taken stay within the debt, and the
   next one in part, for what is left. Their gains (hands won, money they paid) are thereby
   counted against their *earliest* losses: this is exactly what remains when each gain pays off
   the oldest loss still open (first in, first out), and it needs no gain to be read at all.
   Money a payer *received* beyond what they were owed (a payment recorded with ``confirm``)
   raised their debt after every hand, so it counts as their newest loss.
2. **Their lines take those losses in order.** The losses, oldest first, fill the payer's
   lines in the plan's order: the first line takes the oldest until its amount is reached (the
   loss that passes it is split, the rest going to the next line), then the next line.

So the losses given to a payer's lines sum exactly to those lines, each part is positive, and
across the payer's lines no loss is given more than it was. A loss given in part says so
(:attr:`Loss.partial`): "$1.00 of hand 5's $2.00". The allocation always exists: a payer owes
no more than all they lost (their gains only lower the debt).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ledger.transfers import Transfer

Event = tuple[str, "int | str", Mapping[str, int]]
"""One thing that moved the balances: ``(kind, key, nets)``. ``kind`` names what it is
(``"hand"``, ``"payment"``, ``"night"``), ``key`` which one (a hand number, a payment id, a
night's id); ``nets`` maps players to their signed share of it in minor units (negative: they
lost or received that much). A payment from A to B is ``{A: +amount, B: -amount}``."""


@dataclass(frozen=True, slots=True)
class Loss:
    """The part of one loss that explains a line: ``amount_minor`` (> 0) of the ``whole_minor``
    (>= ``amount_minor``) the payer lost in ``kind`` ``key`` (see :data:`Event`)."""

    kind: str
    key: int | str
    amount_minor: int
    whole_minor: int

    @property
    def partial(self) -> bool:
        """Whether only part of the loss explains this line."""
        return self.amount_minor < self.whole_minor

    def to_json(self, key_name: str | None = None) -> dict[str, int | str]:
        """Wire shape: ``{<kind or key_name>: key, "amount": int}``, e.g. ``{"hand": 5,
        "amount": 100}``; ``key_name`` renames the key of this kind (a club's nights are
        ``session_id``)."""
        return {key_name or self.kind: self.key, "amount": self.amount_minor}


def recent_losses(debts: Mapping[str, int], newest_first: Iterable[Event]) -> dict[str, list[Loss]]:
    """Each payer's most recent losses that make up their debt (step 1 of the module's rule),
    oldest first: ``debts`` maps payers to what they owe (> 0; zero or less is left out), and
    ``newest_first`` gives the events newest first. The events are read only until every debt
    is made up, so a caller may read them lazily, newest first, in batches.

    Raises ``ValueError`` for a debt that is not an ``int``, or when the events end before a
    debt is made up (the debts and the events do not belong together)."""
    left: dict[str, int] = {}
    for payer, debt in debts.items():
        if type(debt) is not int:
            raise ValueError(f"debt of {payer!r} must be an int in minor units, got {debt!r}")
        if debt > 0:
            left[payer] = debt
    found: dict[str, list[Loss]] = {payer: [] for payer in left}
    if not left:
        return found
    for kind, key, nets in newest_first:
        for payer, amount in nets.items():
            need = left.get(payer, 0)
            if amount >= 0 or need == 0:
                continue
            taken = min(-amount, need)
            found[payer].append(Loss(kind, key, taken, -amount))
            left[payer] = need - taken
            if left[payer] == 0:
                del left[payer]
        if not left:
            break
    if left:
        payer = next(iter(left))
        raise ValueError(f"the losses of {payer!r} do not make up what they owe ({left[payer]} short)")
    for losses in found.values():
        losses.reverse()
    return found


def allocate(lines: Sequence[Transfer], losses: Mapping[str, Sequence[Loss]]) -> tuple[tuple[Loss, ...], ...]:
    """Step 2 of the module's rule: each line's share of its payer's ``losses`` (oldest first,
    as :func:`recent_losses` gives them), in the order of ``lines``; each share sums to its
    line's ``amount_minor``.

    Raises ``ValueError`` when a payer's lines and losses do not sum to the same amount."""
    queues = {payer: list(found) for payer, found in losses.items()}
    out = []
    for line in lines:
        queue = queues.get(line.payer, [])
        need = line.amount_minor
        share = []
        while need:
            if not queue:
                raise ValueError(f"the losses of {line.payer!r} do not make up their lines")
            first = queue[0]
            taken = min(first.amount_minor, need)
            share.append(Loss(first.kind, first.key, taken, first.whole_minor))
            need -= taken
            if taken == first.amount_minor:
                queue.pop(0)
            else:
                queue[0] = Loss(first.kind, first.key, first.amount_minor - taken, first.whole_minor)
        out.append(tuple(share))
    extra = next((payer for payer in {line.payer for line in lines} if queues.get(payer)), None)
    if extra is not None:
        raise ValueError(f"the losses of {extra!r} are more than their lines")
    return tuple(out)


def explain(lines: Sequence[Transfer], newest_first: Iterable[Event]) -> tuple[tuple[Loss, ...], ...]:
    """Why each of ``lines`` (a settle-up plan in which every payer only pays): each line's
    losses, by the module's rule, from the events that moved the balances, newest first.
    Raises ``ValueError`` as :func:`recent_losses` and :func:`allocate`."""
    debts: dict[str, int] = {}
    for line in lines:
        debts[line.payer] = debts.get(line.payer, 0) + line.amount_minor
    return allocate(lines, recent_losses(debts, newest_first))
