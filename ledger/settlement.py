"""Settle a night: the fewest transfers that clear every player's balance.

Pure domain code: standard library only. Every amount is an ``int`` in minor currency units.

The minimum number of transfers that clears ``n`` non-zero balances is ``n - g``, where ``g`` is
the largest number of disjoint zero-sum groups the balances can be split into: a group of ``m``
players can always be cleared with ``m - 1`` transfers, and never with fewer unless it splits into
smaller zero-sum groups. :func:`settle` finds ``g`` exactly when ``n <= exact_limit``: exact
opposites are paired off (which never costs a group), then a branch-and-bound search runs over
the zero-sum groups only (listed by meeting in the middle), with equal balances taken as one value
with a count. Above the limit a fast heuristic gives a plan marked ``minimal=False``.

:func:`cash_out` settles one player who leaves mid-night with the fewest transfers against the
players still seated.
"""
from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ledger.transfers import Transfer

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


def settle(balances: Mapping[str, int], *, exact_limit: int = EXACT_LIMIT) -> SettlementPlan:
    """Return the plan with the fewest transfers that brings every balance to zero.

    ``balances`` maps player name to signed balance in minor units: positive means the player is
    owed money (receives), negative means the player owes (pays). Zero balances are ignored. The
    mapping's iteration order (seat order) is the only tie-breaker, so the same balances in the
    same order always give the same plan.

    With at most ``exact_limit`` non-zero balances the plan is proven minimal (``minimal=True``).
    Above it, exact opposites (``+x`` / ``-x``) are paired off first, then the largest debtor
    repeatedly pays the largest creditor; that plan has at most ``n - 1`` transfers but is not
    proven minimal (``minimal=False``).

    Raises ``ValueError`` if an amount is not an ``int`` (``bool`` included) or ``exact_limit`` is
    not a non-negative ``int``, and :class:`UnbalancedError` if the balances do not sum to zero.
    """
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
        for group in _max_zero_sum_groups(amounts):
            pairs.extend(_greedy(group, amounts))
        minimal = True
    else:
        pairs = _cancel_opposites(amounts)
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
    :func:`settle`); ``payments`` are the money already handed over. When every payment followed
    a line of the plan for ``balances`` (same payer and payee, not more than the line), the
    answer is that plan with those lines reduced, so paying one suggestion never reshuffles the
    others. Otherwise, or when the reduced plan would need more transfers than a fresh plan for
    the outstanding balances, the fresh plan is returned. ``minimal`` is true only when the
    returned plan has as few transfers as the fresh (proven) plan.

    Raises like :func:`settle`; also ``ValueError`` for a payment naming an unknown player.
    """
    outstanding = dict(balances)
    for payment in payments:
        for name in (payment.payer, payment.payee):
            if name not in outstanding:
                raise ValueError(f"payment names {name!r}, who has no balance")
        outstanding[payment.payer] += payment.amount_minor
        outstanding[payment.payee] -= payment.amount_minor
    fresh = settle(outstanding, exact_limit=exact_limit)
    remaining = {(t.payer, t.payee): t.amount_minor for t in settle(balances, exact_limit=exact_limit).transfers}
    for payment in payments:
        line = (payment.payer, payment.payee)
        if remaining.get(line, 0) < payment.amount_minor:
            return fresh
        remaining[line] -= payment.amount_minor
    kept = tuple(Transfer(payer, payee, amount) for (payer, payee), amount in remaining.items() if amount > 0)
    if len(kept) > fresh.transfer_count:
        return fresh
    return SettlementPlan(transfers=kept, minimal=fresh.minimal)


def _max_zero_sum_groups(amounts: Sequence[int]) -> list[list[int]]:
    """Split the indices of ``amounts`` (non-zero, summing to zero) into the largest possible
    number of disjoint zero-sum groups; each group is a list of indices in ascending order.

    Exact, by a search over zero-sum groups only:

    1. Exact opposites are paired first (earliest unpaired partner, as the heuristic does). This
       loses nothing: if ``x`` and ``-x`` sit in different groups of a best split, swapping them
       into ``{x, -x}`` and the rest of both groups keeps the count; if they share a group, taking
       them out as a pair adds one. Afterwards no two balances cancel, so every group left has at
       least three members and at least one payer and one payee.
    2. The rest is a multiset of values (equal balances are interchangeable). A best split is
       made of *minimal* zero-sum groups (a group holding a smaller zero-sum group could be
       split), and the first value still present belongs to one of them; so
       :func:`_best_split` tries each minimal group holding it, smallest first, memoising on
       what is left and stopping at once when the upper bound ``min(players // 3, payers,
       payees)`` is reached.

    Values are taken in seat order and each group takes the earliest-seated balances of its
    values, so the same input always gives the same groups.
    """
    groups: list[list[int]] = [sorted((payer, payee)) for payer, payee, _ in _cancel_opposites(amounts)]
    paired = {i for group in groups for i in group}
    seats: dict[int, list[int]] = {}
    for i, amount in enumerate(amounts):
        if i not in paired:
            seats.setdefault(amount, []).append(i)
    values = tuple(seats)
    counts = tuple(len(seats[v]) for v in values)
    taken = {v: 0 for v in values}
    for vector in _best_split(values, counts):
        group = []
        for value, count in zip(values, vector):
            group.extend(seats[value][taken[value]:taken[value] + count])
            taken[value] += count
        groups.append(sorted(group))
    groups.sort()
    return groups


def _best_split(values: tuple[int, ...], counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The largest split of the multiset ``counts`` of ``values`` (no two values opposite,
    summing to zero) into zero-sum groups, each group a count vector. Exact: see
    :func:`_max_zero_sum_groups`.

    Every zero-sum sub-multiset is listed once (:func:`_zero_sum_parts`); the search then
    branches on the groups that hold the most constrained value of what is left, with two
    bounds. Each value ``v`` has a smallest group ``here[v]`` that still fits in what is left;
    a group of ``m`` members holds ``m`` values whose smallest groups have at most ``m``
    members, so ``sum(1 / here[v])`` bounds the groups still to be had, and so do its payers
    and its payees. And a group leaving fewer than
    ``3 * k`` members cannot be followed by ``k`` more groups, so only small groups are tried
    when many are needed. A branch that cannot beat the best split found so far is cut.

    Counts are packed into one integer (:class:`_Packing`) so that "fits in what is left"
    and "what is left after it" are one subtraction each.
    """
    pack = _Packing(len(values))
    total_members = sum(counts)
    unit = math.lcm(*range(1, total_members + 1))
    payer = [value < 0 for value in values]
    parts: list[tuple[int, int]] = []
    listed = 0  # ``parts`` holds every zero-sum part of at most this many members
    by_value: dict[int, list[tuple[int, int]]] = {}
    minimal: dict[int, bool] = {}
    exact: dict[int, tuple[int, int | None]] = {}
    ceiling: dict[int, int] = {}

    def list_parts(cap: int) -> None:
        """List the zero-sum parts of up to ``cap`` members; a value in none of them has no
        group smaller than ``cap + 1``."""
        nonlocal parts, listed
        parts = _zero_sum_parts(values, counts, pack, cap)
        listed = cap
        by_value.clear()

    def groups_of(index: int) -> list[tuple[int, int]]:
        """The listed zero-sum parts holding ``values[index]``, fewest members first."""
        if index not in by_value:
            field = pack.field(index)
            by_value[index] = [(members, packed) for members, packed in parts if packed & field]
        return by_value[index]

    def is_minimal(members: int, packed: int) -> bool:
        if members > _MINIMAL_CHECK:
            return True  # not checked: a larger non-minimal group only costs a wasted branch
        known = minimal.get(packed)
        if known is None:
            known = minimal[packed] = _is_minimal(values, pack.unpack(packed))
        return known

    def solve(state: int, need: int) -> int:
        """The most groups ``state`` splits into, when that is at least ``need``; otherwise
        a number below ``need`` that is at least that most. Needs every zero-sum part of up
        to ``members - 3 * (need - 1)`` members listed."""
        if state == 0:
            return 0
        known = exact.get(state)
        if known is not None:
            return known[0]
        present = [(i, c) for i, c in enumerate(pack.unpack(state)) if c]
        members = sum(c for _, c in present)
        payers = sum(c for i, c in present if payer[i])
        limit = min(payers, members - payers, ceiling.get(state, members))
        if limit < need:
            return limit
        # the smallest group each value still has here (the rest of the state at worst)
        here = {}
        for i, _ in present:
            here[i] = min(listed + 1, members)
            for size, group in groups_of(i):
                if size >= here[i]:
                    break
                if pack.fits(group, state):
                    here[i] = size
                    break
        limit = min(limit, sum(c * (unit // here[i]) for i, c in present) // unit)
        if limit < need:
            return limit
        best, choice = 1, None  # what is left is zero-sum: one group at least
        if limit > 1:
            pivot = max(present, key=lambda item: (here[item[0]], -item[0]))[0]
            for size, group in groups_of(pivot):
                wanted = max(need, best + 1)
                if size > members - 3 * (wanted - 1):
                    break  # too big to leave room for the groups still wanted
                if not pack.fits(group, state) or size == members or not is_minimal(size, group):
                    continue
                value = 1 + solve(state - group, wanted - 1)
                if value >= wanted:  # below it, ``value`` is only a bound, never a split found
                    best, choice = value, group
                    if best == limit:
                        break
        if best < need:  # every group that could lead to ``need`` was tried
            ceiling[state] = need - 1
            return need - 1
        exact[state] = (best, choice)
        return best

    start = pack.pack(counts)
    payers = sum(c for c, p in zip(counts, payer) if p)
    target = min(total_members // 3, payers, total_members - payers)
    while target > 1:  # from the bound down: the first split found is the largest
        cap = total_members - 3 * (target - 1)
        if cap > listed:
            list_parts(cap)
        if solve(start, target) >= target:
            break
        target -= 1
    if target <= 1:
        exact[start] = (1, None)
    split: list[tuple[int, ...]] = []
    state = start
    while state:
        choice = exact[state][1]
        if choice is None:
            split.append(pack.unpack(state))
            break
        split.append(pack.unpack(choice))
        state -= choice
    return split


class _Packing:
    """Count vectors packed into one integer, :data:`_FIELD` bits a value, the top bit of each
    field a guard: ``fits(part, whole)`` is one subtraction that borrows from no guard."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.guards = sum(1 << (_FIELD * i + _FIELD - 1) for i in range(width))

    def pack(self, counts: Sequence[int]) -> int:
        return sum(c << (_FIELD * i) for i, c in enumerate(counts))

    def unpack(self, packed: int) -> tuple[int, ...]:
        mask = (1 << (_FIELD - 1)) - 1
        return tuple((packed >> (_FIELD * i)) & mask for i in range(self.width))

    def count(self, packed: int, index: int) -> int:
        return (packed >> (_FIELD * index)) & ((1 << (_FIELD - 1)) - 1)

    def field(self, index: int) -> int:
        """The bits of the count of value ``index`` (guard excluded)."""
        return ((1 << (_FIELD - 1)) - 1) << (_FIELD * index)

    def fits(self, part: int, whole: int) -> bool:
        return ((whole | self.guards) - part) & self.guards == self.guards


_FIELD = 8  # bits per packed count: counts up to 127, and a guard bit


def _zero_sum_parts(
    values: tuple[int, ...], counts: tuple[int, ...], pack: _Packing, cap: int
) -> list[tuple[int, int]]:
    """Every non-empty zero-sum sub-multiset of ``counts`` (of ``values``) with at most ``cap``
    members, the whole excepted, as ``(members, packed counts)``, fewest members first. Met in
    the middle: the sums of the sub-multisets of one half of the values are looked up against
    those of the other half."""
    half = len(values) // 2
    lower = _half_parts(values, counts, range(half), pack)
    upper: dict[int, list[tuple[int, int]]] = {}
    for total, members, packed in _half_parts(values, counts, range(half, len(values)), pack):
        upper.setdefault(total, []).append((members, packed))
    for matches in upper.values():
        matches.sort()
    whole = pack.pack(counts)
    found = []
    for total, members, packed in lower:
        for more, other in upper.get(-total, ()):
            if members + more > cap:
                break
            found.append((members + more, packed + other))
    found = [(m, p) for m, p in found if p and p != whole]
    found.sort()
    return found


def _half_parts(
    values: tuple[int, ...], counts: tuple[int, ...], indexes: range, pack: _Packing
) -> list[tuple[int, int, int]]:
    """Every sub-multiset of the values at ``indexes`` as ``(sum, members, packed counts)``."""
    parts = [(0, 0, 0)]
    for index in indexes:
        value, step = values[index], 1 << (_FIELD * index)
        parts = [(total + take * value, members + take, packed + take * step)
                 for total, members, packed in parts for take in range(counts[index] + 1)]
    return parts


_MINIMAL_CHECK = 12


def _is_minimal(values: tuple[int, ...], vector: Sequence[int]) -> bool:
    """Whether the zero-sum group ``vector`` holds no smaller non-empty zero-sum group. A
    proper zero-sum part and its complement are both zero-sum, so it is enough to look at the
    parts that leave out one given member."""
    items = [value for value, count in zip(values, vector) for _ in range(count)]
    if len(items) <= 3:
        return True  # no two members cancel (opposites were paired first)
    reachable: set[int] = set()
    for amount in items[:-1]:
        if -amount in reachable:
            return False
        reachable |= {amount} | {s + amount for s in reachable}
    return True


def _cancel_opposites(amounts: Sequence[int]) -> list[tuple[int, int, int]]:
    """Pair each balance with the earliest earlier unpaired balance of exactly the opposite
    amount; return ``(payer, payee, amount)`` index triples, one per pair."""
    waiting: dict[int, list[int]] = {}
    pairs: list[tuple[int, int, int]] = []
    for i, amount in enumerate(amounts):
        queue = waiting.get(-amount)
        if queue:
            j = queue.pop(0)
            payer, payee = (i, j) if amount < 0 else (j, i)
            pairs.append((payer, payee, abs(amount)))
        else:
            waiting.setdefault(amount, []).append(i)
    return pairs


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
