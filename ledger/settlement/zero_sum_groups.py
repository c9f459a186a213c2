"""The exact part of settling: the largest number of disjoint zero-sum groups a set of balances
splits into (each group then clears with one transfer fewer than its members).

Used by :mod:`ledger.settlement.plan`, which turns the groups into transfers. Exact opposites are paired
first; the rest is a branch-and-bound search over the zero-sum groups only, listed by meeting in
the middle, with equal balances taken as one value with a count (see :func:`max_zero_sum_groups`).

Pure domain code: standard library only. Amounts are ``int`` minor units.
"""
from __future__ import annotations

import math
from collections.abc import Sequence


def cancel_opposites(amounts: Sequence[int]) -> list[tuple[int, int, int]]:
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


def max_zero_sum_groups(amounts: Sequence[int]) -> list[list[int]]:
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
    groups: list[list[int]] = [sorted((payer, payee)) for payer, payee, _ in cancel_opposites(amounts)]
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
    :func:`max_zero_sum_groups`.

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
