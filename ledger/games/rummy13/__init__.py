"""The 13-card Indian rummy rules engine (RUMMY13.md), standard library only.

Decks with printed and cut jokers, point values, the meld classification of §3.5, the valid
declaration of §3.6, every outcome of §4 (show, lost counts with the cap, drops, wrong show in
both modes, last player, full count, void, first-turn halving), pool rummy hand by hand (§4.9)
and the end of a pool (§4.10), the toggles (§6) and presets (§7), validation in §9.1 order.

Typical use::

    from ledger.games.rummy13 import score_entry
    result = score_entry(entry).to_json()
"""
from ledger.games.rummy13 import errors as _errors  # noqa: F401  (registers the §9.1 codes)
from ledger.games.rummy13.engine import RummyResult
from ledger.games.rummy13.game import RUMMY13, Rummy13, score_entry
from ledger.games.rummy13.ruleset import PRESETS, Preset, RummyRules
from ledger.games.rummy13.settlement import PoolSettlement

__all__ = ["PRESETS", "RUMMY13", "PoolSettlement", "Preset", "Rummy13", "RummyResult", "RummyRules", "score_entry"]
