"""The games the ledger knows: a registry of pure rule packages, independent of each other.

Each game is a :class:`~ledger.games.base.Game` object, a package of pure rules (standard library
only), independent of the others.

    from ledger.games import game
    scored = game("tonk").score_entry(entry)

A night without ``game`` is Tonk (:data:`DEFAULT_GAME`).
"""
from __future__ import annotations

from ledger.games.base import Game, Rules, Scored
from ledger.games.errors import HandError
from ledger.games.tonk.game import TONK
from ledger.games.rummy13.game import RUMMY13
from ledger.games.tongits.game import TONGITS

DEFAULT_GAME = "tonk"

GAMES: dict[str, Game] = {g.name: g for g in (TONK, TONGITS, RUMMY13)}


class UnknownGame(KeyError):
    """``game`` names no registered game; ``name`` is what was asked for."""

    def __init__(self, name: object) -> None:
        super().__init__(name)
        self.name = name


def game(name: str | None) -> Game:
    """The game registered as ``name`` (``None`` = Tonk); raises :class:`UnknownGame`."""
    key = DEFAULT_GAME if name is None else name
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise UnknownGame(name) from None


def game_of_preset(preset: object) -> Game | None:
    """The one game whose presets include ``preset`` (RULES.md §7, TONGITS.md §7, RUMMY13.md §7 name
    them), or ``None`` when no game or more than one has it (``"classic"`` is Tonk's and Tong-its')."""
    found = [g for g in GAMES.values() if any(p.name == preset for p in g.presets)]
    return found[0] if len(found) == 1 else None


__all__ = ["DEFAULT_GAME", "GAMES", "Game", "HandError", "Rules", "Scored", "UnknownGame", "game", "game_of_preset"]
