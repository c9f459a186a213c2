"""What every game gives the ledger: the interface the night, the API and the phone call.

A game is a package of pure domain code (standard library only; no Flask, database or PDF
imports) that exposes one :class:`Game` object. The ledger stores what a game returns and never
asks which game it is: it hands the game the night's seating, stake and the state the previous
hand left (``state``, e.g. Tong-its' pot), and stores the :class:`Scored` result: transfers and
nets in minor units over the players **and the game's accounts** (``accounts``, e.g. ``"pot"``),
which sum to zero, plus the state for the next hand.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ledger.transfers import Transfer


@runtime_checkable
class Scored(Protocol):
    """One scored hand, whatever the game.

    ``kind``: the outcome kind (the game's own words, e.g. ``"knock"``, ``"draw"``);
    ``transfers``: the canonical netted transfers (payer, payee, ``amount_minor`` > 0), parties
    being players or the game's accounts; ``net``: every player (seat order, zeros included)
    and every account of the game, signed minor units, summing to 0; ``winners``: who won (seat
    order; empty when nobody did); ``redeal``: the hand pays nothing and the deal is replayed;
    ``state``: what the next hand needs to be scored (JSON-shaped; ``None`` for a game without
    state, such as Tonk).
    """

    kind: str
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    winners: tuple[str, ...]
    redeal: bool

    @property
    def state(self) -> Mapping[str, Any] | None: ...

    def to_json(self) -> dict[str, Any]:
        """The result in the game's spec shape (RULES.md §8.2, TONGITS.md §8.2)."""
        ...


class Rules(Protocol):
    """A game's complete rule set: a preset plus every toggle's value, frozen."""

    preset: str

    def snapshot(self) -> dict[str, Any]:
        """Every toggle's value with the preset's name: what a night stores, so later edits of a
        preset never re-price old hands."""
        ...


@runtime_checkable
class Game(Protocol):
    """One card game behind the ledger (DESIGN.md "Layers").

    Errors: every call that reads input raises :class:`ledger.games.errors.HandError` (the
    game's subclass, with the game's codes in its spec's §9.1 order); nothing else for bad input.
    """

    #: the registry's key, and a night's ``game``: ``"tonk"``, ``"tongits"``
    name: str
    #: the accounts besides the players that take part in a hand's netting (Tong-its: ``("pot",)``)
    accounts: tuple[str, ...]
    #: the named presets, in the order a table is offered them; each has ``name`` and ``ruleset()``
    presets: Sequence[Any]

    def rules(self, spec: Mapping[str, Any] | None) -> Rules:
        """A rule set from ``{"preset": name, "toggles": {...}}`` (``None`` = the default
        preset); raises ``HandError("invalid_ruleset")``."""
        ...

    def rules_from_snapshot(self, snapshot: Mapping[str, Any]) -> Rules:
        """The rule set a night stored (:meth:`Rules.snapshot`)."""
        ...

    def seat_range(self, rules: Rules) -> range:
        """How many players a table of these rules seats (Tonk 2..4 by default; Tong-its 3, or
        3..4 with ``four_players``)."""
        ...

    def initial_state(self, rules: Rules, carried: Mapping[str, int] | None = None) -> Mapping[str, Any] | None:
        """The state a night's first hand starts from, given the accounts' carried balances in
        minor units (Tong-its: ``{"balance": carried pot, "holder": None, "streak": 0}``);
        ``None`` for a game without state."""
        ...

    def score(
        self,
        rules: Rules,
        *,
        players: Sequence[str],
        stake_minor: int,
        dealer: str | None,
        state: Mapping[str, Any] | None,
        entry: Mapping[str, Any],
    ) -> Scored:
        """Check and score one hand entered at a table: ``entry`` holds the game's
        ``outcome``, ``hands`` (and any game-specific parts, e.g. Tonk's ``side_bets``);
        ``players`` (seat order), ``stake_minor``, ``dealer`` and ``state`` come from the night.
        Raises :class:`~ledger.games.errors.HandError`."""
        ...

    def score_entry(self, entry: Mapping[str, Any]) -> Scored:
        """Score a self-contained entry of the game's spec §8.1 (``ruleset``, ``players``,
        ``stake``, …), as ``POST /api/v1/score`` and the shared vectors do. Raises
        :class:`~ledger.games.errors.HandError`."""
        ...

    def check_seated(self, state: Mapping[str, Any] | None, players: Sequence[str]) -> None:
        """Refuse a state that names a player no longer seated, after a correction re-scored
        the hands to the last one (Tong-its, TONGITS.md §4.9: a pot's streak never stays with
        a player who left; nothing for Tonk or 13-card rummy). Raises
        :class:`~ledger.games.errors.HandError`."""
        ...

    def next_dealer(self, rules: Rules, players: Sequence[str], dealer: str, result: Scored) -> str:
        """Who deals the next hand after ``result`` in this seating (RULES.md §2: the next
        seat; TONGITS.md §2.3: the winner, or the same dealer after a redeal or a wash). The
        ledger adds its own seating rules (who left, who sat in) on top."""
        ...
