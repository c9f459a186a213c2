"""The Tonk rules engine (RULES.md): cards, spreads, rule sets, payouts. Standard library only.

Typical use::

    from ledger.games.tonk import RuleSet, parse_entry, score_hand, HandError
    result = score_hand(RuleSet.from_spec({"preset": "classic"}), parse_entry(entry))
"""
from ledger.games.tonk import errors as _errors  # noqa: F401  (registers the §9.1 codes)
from ledger.games.tonk.cards import Card, InvalidCard
from ledger.games.tonk.engine import HandResult, score_entry, score_hand
from ledger.games.tonk.entry import HandRecord, parse_entry, parse_hand
from ledger.games.errors import HandError
from ledger.games.tonk.ruleset import PRESETS, Preset, RuleSet, find_preset

__all__ = [
    "Card", "InvalidCard", "HandResult", "score_entry", "score_hand", "HandRecord",
    "parse_entry", "parse_hand", "HandError", "PRESETS", "Preset", "RuleSet", "find_preset",
]
