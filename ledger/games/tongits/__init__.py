"""The Tong-its rules engine (TONGITS.md), standard library only.

Cards without jokers, melds and the best meld choice, the toggles and four presets, validation in §9.1 order, payouts with burned players, bonuses and
the pot. Standard library only; independent of every other game.

Typical use::

    from ledger.games.tongits import score_entry
    result = score_entry(entry).to_json()
"""
from ledger.games.tongits import errors as _errors  # noqa: F401  (registers the §9.1 codes)
from ledger.games.tongits.engine import TongitsResult, score, score_entry
from ledger.games.tongits.game import TONGITS, Tongits
from ledger.games.tongits.points import points
from ledger.games.tongits.ruleset import PRESETS, Preset, TongitsRules

__all__ = ["TONGITS", "PRESETS", "Preset", "Tongits", "TongitsResult", "TongitsRules", "points", "score",
           "score_entry"]
