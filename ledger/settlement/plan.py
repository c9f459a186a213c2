"""Settle a night: the fewest transfers that clear every player's balance.

Pure domain code: standard library only. Every amount is an ``int`` in minor currency units.

The minimum number of transfers that clears ``n`` non-zero balances is ``n - g``, where ``g`` is
the largest number of disjoint zero-sum groups the balances can be split into: a group of ``m``
players can always be cleared with ``m - 1`` transfers, and never with fewer unless it splits into
smaller zero-sum groups. :func:`settle` finds ``g`` exactly when ``n <= exact_limit``: exact
opposites are paired off (which never costs a group), then a branch-and-bound search over the
zero-sum groups only (:mod:`ledger.settlement.zero_sum_groups`) finds the rest. Above the limit a fast heuristic gives a plan marked ``minimal=False``.

Among the plans with that fewest number of transfers, :func:`settle` takes the one that keeps
the most lines of a plan the players already saw (``prefer``), and :func:`settle_after_payments`
keeps a night's plan that way while people pay, so paying one line never reshuffles the others.

:func:`cash_out` settles one player who leaves mid-night with the fewest transfers against the
players still seated.
"""
from __future__ import annotations

import hashlib
import heapq
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ledger.transfers import Transfer
from ledger.settlement.zero_sum_groups import cancel_opposites, max_zero_sum_groups

EXACT_LIMIT = 24
"""Largest number of non-zero balances settled by exact search (the API's ``/settle`` takes no
more). Up to it a plan is proven minimal; ``bench/bench_settlement.py`` shows the time per size
(18 balances in milliseconds, 24 well under a second, on the reference 2-core machine). Larger
inputs use the heuristic."""


class UnbalancedError(ValueError):
    """The balances do not sum to zero, so no set of transfers can clear them.

    ``total_minor`` is the (non-zero) sum that was found.
    """

    def __init__(self, total_minor: int) -> None:
        self.total_minor = total_minor
        super().__init__(f"balances must sum to zero, but they sum to {total_minor}")


@dataclass(frozen=True, slots=True)
class SettlementPlan:
    """Transfers that clear a set of balances.

    ``transfers`` is sorted by the payer's position in the input (seat) order, then the payee's.
    ``minimal`` is ``True`` only when exact search proved that no plan has fewer transfers.
    """

    transfers: tuple[Transfer, ...]
    minimal: bool

    @property
    def transfer_count(self) -> int:
        """Number of transfers in the plan."""
        return len(self.transfers)

    def to_json(self) -> dict[str, object]:
        """Wire shape: ``{"transfers": [{"from", "to", "amount"}...], "transfer_count": int,
        "minimal": bool}``."""
        return {
            "transfers": [t.to_json() for t in self.transfers],
            "transfer_count": self.transfer_count,
            "minimal": self.minimal,
        }


def settle(
    balances: Mapping[str, int], *, exact_limit: int = EXACT_LIMIT, prefer: Sequence[Transfer] = ()
) -> SettlementPlan:
    """Return the plan with the fewest transfers that brings every balance to zero.

    ``balances`` maps player name to signed balance in minor units: positive means the player is
    owed money (receives), negative means the player owes (pays). Zero balances are ignored. The
    mapping's iteration order (seat order) is the only tie-breaker, so the same balances in the
    same order always give the same plan.

    With at most ``exact_limit`` non-zero balances the plan is proven minimal (``minimal=True``).
    Above it, exact opposites (``+x`` / ``-x``) are paired off first, then the largest debtor
    repeatedly pays the largest creditor; that plan has at most ``n - 1`` transfers but is not
    proven minimal (``minimal=False``).

    ``prefer`` (a plan shown before, e.g. the night's last plan) chooses among the plans with
    that fewest number of transfers: the answer keeps as many of its lines as such a plan can
    (same payer, payee and amount), and settles the rest as above; see :func:`_keep_preferred`.
    It never costs a transfer: the count, and ``minimal``, are those of the plan without it.
    Lines naming someone without a balance, or that cannot be part of a plan for ``balances``,
    are simply not kept.

    Raises ``ValueError`` if an amount is not an ``int`` (``bool`` included) or ``exact_limit`` is
    not a non-negative ``int``, and :class:`UnbalancedError` if the balances do not sum to zero.
    """
    fresh = _settle(balances, exact_limit)
    if not prefer or not fresh.transfers:
        return fresh
    return _keep_preferred(balances, fresh, prefer, exact_limit)


def _settle(balances: Mapping[str, int], exact_limit: int) -> SettlementPlan:
    """:func:`settle` without ``prefer``."""
    if type(exact_limit) is not int or exact_limit < 0:
        raise ValueError(f"exact_limit must be a non-negative int, got {exact_limit!r}")
    for name, amount in balances.items():
        if type(amount) is not int:
            raise ValueError(f"balance of {name!r} must be an int in minor units, got {amount!r}")
    total = sum(balances.values())
    if total != 0:
        raise UnbalancedError(total)

    position = {name: i for i, name in enumerate(balances)}
    names = [name for name, amount in balances.items() if amount != 0]
    amounts = [balances[name] for name in names]

    if len(amounts) <= exact_limit:
        pairs: list[tuple[int, int, int]] = []
        for group in max_zero_sum_groups(amounts):
            pairs.extend(_greedy(group, amounts))
        minimal = True
    else:
        pairs = cancel_opposites(amounts)
        paired = {i for payer, payee, _ in pairs for i in (payer, payee)}
        rest = [i for i in range(len(amounts)) if i not in paired]
        pairs.extend(_greedy(rest, amounts))
        minimal = False

    transfers = [Transfer(names[payer], names[payee], amount) for payer, payee, amount in pairs]
    transfers.sort(key=lambda t: (position[t.payer], position[t.payee]))
    return SettlementPlan(transfers=tuple(transfers), minimal=minimal)


def settle_after_payments(
    balances: Mapping[str, int], payments: Sequence[Transfer], *, exact_limit: int = EXACT_LIMIT
) -> SettlementPlan:
    """The plan for what is still owed after ``payments``, kept stable while people pay.

    ``balances`` are the night's balances before any payment (minor units, as for
    :func:`settle`); ``payments`` are the money already handed over, oldest first. The plan is
    the one the players saw, followed payment by payment: it starts as ``settle(balances)``, and
    after each payment it is ``settle(what is owed now, prefer=the plan before)``, where a payment
    that followed a line of the plan before (same payer and payee, not more than the line) has
    taken that line down by what was paid first. So paying a line, whole or in part, changes that
    line only, whenever a plan with the fewest transfers allows it; a payment off the plan keeps
    as many lines as such a plan can. The answer always has the fewest transfers (as
    :func:`settle`), and ``minimal`` is :func:`settle`'s for what is owed now.

    It is a function of the balances and the payments alone, so the plan shown before a payment
    (when no hand changed the balances since) is this function of the payments before it: nothing
    needs to be stored. The plans it followed are remembered in memory (:data:`FOLLOWED_KEPT`),
    so the next call, one payment later, takes one step. Raises like :func:`settle`; also
    ``ValueError`` for a payment naming an unknown player.
    """
    for payment in payments:
        for name in (payment.payer, payment.payee):
            if name not in balances:
                raise ValueError(f"payment names {name!r}, who has no balance")
    running = hashlib.blake2b(repr((list(balances.items()), exact_limit)).encode(), digest_size=20)
    keys = [running.digest()]
    for payment in payments:
        running.update(repr((payment.payer, payment.payee, payment.amount_minor)).encode())
        keys.append(running.digest())
    done = len(payments)
    while done >= 0 and keys[done] not in _FOLLOWED:
        done -= 1
    outstanding = dict(balances)
    for payment in payments[:max(done, 0)]:
        outstanding[payment.payer] += payment.amount_minor
        outstanding[payment.payee] -= payment.amount_minor
    if done < 0:
        plan = settle(outstanding, exact_limit=exact_limit)
        _remember(keys[0], plan)
        done = 0
    else:
        plan = _FOLLOWED[keys[done]]
    for index in range(done, len(payments)):
        payment = payments[index]
        outstanding[payment.payer] += payment.amount_minor
        outstanding[payment.payee] -= payment.amount_minor
        plan = settle(outstanding, exact_limit=exact_limit, prefer=_paid_down(plan.transfers, payment))
        _remember(keys[index + 1], plan)
    return plan


FOLLOWED_KEPT = 4096
"""How many followed plans :func:`settle_after_payments` remembers (by a digest of the balances
and the payments up to each), so that the next request of a night, one payment later, takes one
step instead of following every payment again. What is remembered is what the function would
compute anyway: the answer never depends on it."""
_FOLLOWED: dict[bytes, SettlementPlan] = {}
_FOLLOWED_LOCK = threading.Lock()


def _remember(key: bytes, plan: SettlementPlan) -> None:
    with _FOLLOWED_LOCK:
        _FOLLOWED[key] = plan
        while len(_FOLLOWED) > FOLLOWED_KEPT:
            del _FOLLOWED[next(iter(_FOLLOWED))]  # the oldest first


def _paid_down(lines: Sequence[Transfer], payment: Transfer) -> list[Transfer]:
    """``lines`` after ``payment``: the line it followed (same payer and payee, not less than
    the payment) reduced by it, or gone when paid in full; ``lines`` as they were for a payment
    off the plan."""
    out = list(lines)
    for i, line in enumerate(out):
        if (line.payer, line.payee) == (payment.payer, payment.payee) and line.amount_minor >= payment.amount_minor:
            left = line.amount_minor - payment.amount_minor
            if left:
                out[i] = Transfer(line.payer, line.payee, left)
            else:
                del out[i]
            break
    return out


PREFER_LOOKS = 20_000
PREFER_WORK = 256
"""Most sets of lines :func:`_keep_preferred` looks at, and most work it spends settling what
they leave (1 for a rest of up to 12 balances, 16 up to 18, 64 above: the exact search's cost
grows with the balances left), before it answers the plan without preference (still the fewest
transfers). Sets are tried largest first, so keeping every line, or all but a few, is always
tried; every plan of up to 8 lines is searched whole."""


def _rest_cost(nonzero: int) -> int:
    return 1 if nonzero <= 12 else 16 if nonzero <= 18 else 64


def _keep_preferred(
    balances: Mapping[str, int], fresh: SettlementPlan, prefer: Sequence[Transfer], exact_limit: int
) -> SettlementPlan:
    """The plan with ``fresh``'s number of transfers that keeps the most lines of ``prefer``.

    A line can be kept when it goes from someone who owes to someone owed, and the kept lines
    together take no one past what they owe or are owed (so every player still only pays or
    only receives). A set ``K`` of such lines is part of a plan with the fewest transfers exactly
    when ``len(K)`` plus the fewest transfers that clear what ``K`` leaves (:func:`settle` of the
    rest) is the fewest for ``balances``: any plan holding ``K`` clears the rest with its other
    lines. Sets are tried largest first, then in the order of ``prefer`` (the earliest lines
    win a tie), each first against a quick lower bound on the rest (everyone who still pays, or
    everyone still owed, needs a line of their own), within :data:`PREFER_LOOKS` and
    :data:`PREFER_WORK`; the first that fits wins. Deterministic: the same input gives the
    same plan.
    """
    position = {name: i for i, name in enumerate(balances)}
    candidates: list[Transfer] = []
    pairs: set[tuple[str, str]] = set()
    for line in prefer:
        owes, owed = -balances.get(line.payer, 0), balances.get(line.payee, 0)
        pair = (line.payer, line.payee)
        if pair in pairs or not 0 < line.amount_minor <= min(owes, owed):
            continue  # two lines of one pair are never both in a fewest plan (they would merge)
        pairs.add(pair)
        candidates.append(line)
    target = fresh.transfer_count
    looks = work = 0
    for size in range(min(len(candidates), target), 0, -1):
        for kept in combinations(candidates, size):
            looks += 1
            if looks > PREFER_LOOKS:
                return fresh
            rest = dict(balances)
            for line in kept:
                rest[line.payer] += line.amount_minor
                rest[line.payee] -= line.amount_minor
            if any(rest[line.payer] > 0 or rest[line.payee] < 0 for line in kept):
                continue  # together they take someone past what they owe or are owed
            payers = sum(1 for amount in rest.values() if amount < 0)
            payees = sum(1 for amount in rest.values() if amount > 0)
            if size + max(payers, payees) > target:
                continue
            work += _rest_cost(payers + payees)
            if work > PREFER_WORK:
                return fresh
            others = _settle(rest, exact_limit).transfers
            kept_pairs = {(t.payer, t.payee) for t in kept}
            if size + len(others) > target or any((t.payer, t.payee) in kept_pairs for t in others):
                continue
            transfers = sorted((*kept, *others), key=lambda t: (position[t.payer], position[t.payee]))
            return SettlementPlan(transfers=tuple(transfers), minimal=fresh.minimal)
    return fresh


def _greedy(indices: Sequence[int], amounts: Sequence[int]) -> list[tuple[int, int, int]]:
    """Clear the zero-sum balances at ``indices`` by letting the largest debtor pay the largest
    creditor until all are clear (ties go to the earliest index). Each transfer clears at least
    one player and the last clears two, so ``m`` players need at most ``m - 1`` transfers.
    Returns ``(payer, payee, amount)`` index triples."""
    debtors = [(amounts[i], i) for i in indices if amounts[i] < 0]  # most negative first
    creditors = [(-amounts[i], i) for i in indices if amounts[i] > 0]  # most positive first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    pairs: list[tuple[int, int, int]] = []
    while debtors and creditors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        amount = min(-debt, -credit)
        pairs.append((payer, payee, amount))
        if -debt > amount:
            heapq.heappush(debtors, (debt + amount, payer))
        if -credit > amount:
            heapq.heappush(creditors, (credit + amount, payee))
    return pairs


CASH_OUT_SEARCH_LIMIT = 8
"""Most counterparts for which :func:`cash_out` compares every fewest-transfer choice by the
plan left for the others (a table seats at most 8); above it the largest balances are taken."""


@dataclass(frozen=True, slots=True)
class CashOut:
    """What settles a player who leaves mid-night (``leaver``).

    ``transfers`` move money between the leaver and the seated players only (each from a
    debtor to a creditor, never more than either is owed or owes); ``remaining_minor`` is the
    leaver's balance left after them (0 unless the seated players together cannot cover it,
    e.g. because an earlier leaver still owes): positive still owed, negative still owing.
    """

    leaver: str
    transfers: tuple[Transfer, ...]
    remaining_minor: int = 0

    def to_json(self) -> dict[str, object]:
        """Wire shape: ``{"transfers": [{"from", "to", "amount"}...], "remaining": int}``."""
        return {"transfers": [t.to_json() for t in self.transfers], "remaining": self.remaining_minor}


def cash_out(
    outstanding: Mapping[str, int], leaver: str, seated: Sequence[str] | None = None,
    *, exact_limit: int = EXACT_LIMIT,
) -> CashOut:
    """The fewest transfers that clear ``leaver``'s balance now, without touching anyone's net.

    ``outstanding`` maps every player to what they are still owed (positive) or still owe
    (negative) after the payments made so far, minor units, summing to zero. The counterparts
    are the players in ``seated`` (default: everyone else) on the other side: those who owe
    when the leaver is owed, those owed when the leaver owes. The fewest of them that cover the
    leaver's balance are chosen; each pays (or receives) at most their own balance, so nobody
    ends up owing the other way. Among equally few choices (all of them but one clearing their
    own balance), the one that leaves the remaining players the shortest final plan
    (:func:`settle`) wins, then the earliest seats (order of ``seated``). Paying these transfers leaves every other balance's sign unchanged.

    Raises ``ValueError`` for an amount that is not an ``int`` or a leaver without a balance,
    :class:`UnbalancedError` when ``outstanding`` does not sum to zero.
    """
    for name, amount in outstanding.items():
        if type(amount) is not int:
            raise ValueError(f"balance of {name!r} must be an int in minor units, got {amount!r}")
    if leaver not in outstanding:
        raise ValueError(f"{leaver!r} has no balance")
    total = sum(outstanding.values())
    if total != 0:
        raise UnbalancedError(total)
    balance = outstanding[leaver]
    if balance == 0:
        return CashOut(leaver, ())
    owed = balance > 0  # the leaver receives; counterparts are the seated debtors
    order = [p for p in (outstanding if seated is None else seated) if p != leaver and p in outstanding]
    room = {p: (-outstanding[p] if owed else outstanding[p]) for p in order}
    counterparts = [p for p in order if room[p] > 0]
    target = abs(balance)

    def transfers(amounts: Mapping[str, int]) -> tuple[Transfer, ...]:
        made = [Transfer(p, leaver, amounts[p]) if owed else Transfer(leaver, p, amounts[p])
                for p in counterparts if amounts.get(p, 0) > 0]
        return tuple(made)

    if sum(room[p] for p in counterparts) <= target:  # everyone able pays all they can
        paid = {p: room[p] for p in counterparts}
        left = target - sum(paid.values())
        return CashOut(leaver, transfers(paid), left if owed else -left)

    largest = sorted(counterparts, key=lambda p: (-room[p], counterparts.index(p)))
    fewest, covered = 0, 0
    while covered < target:
        covered += room[largest[fewest]]
        fewest += 1
    if len(counterparts) > CASH_OUT_SEARCH_LIMIT:
        chosen = largest[:fewest]
        paid = {p: room[p] for p in chosen[:-1]}
        paid[chosen[-1]] = target - sum(paid.values())
        return CashOut(leaver, transfers(paid))

    best: tuple[int, dict[str, int]] | None = None
    for group in combinations(counterparts, fewest):
        if sum(room[p] for p in group) < target:
            continue
        for partial in reversed(group):  # the later seat pays the rest, by preference
            paid = {p: room[p] for p in group if p != partial}
            rest = target - sum(paid.values())
            if not 0 < rest <= room[partial]:
                continue
            paid[partial] = rest
            after = dict(outstanding)
            after[leaver] = 0
            for p, amount in paid.items():
                after[p] += amount if owed else -amount
            count = settle(after, exact_limit=exact_limit).transfer_count
            if best is None or count < best[0]:
                best = (count, paid)
    assert best is not None, "the largest balances cover the leaver, so some group does"
    return CashOut(leaver, transfers(best[1]))
