"""The phone pages of a 13-card rummy night (RUMMY13.md) besides recording and correcting a hand
(:mod:`ledger.web.rummy_record`): the rules in force (the preset and the rules as the night plays
them, in whole sentences)."""
from __future__ import annotations

from typing import Any

from flask import render_template

from ledger.games.rummy13 import describe as rummy_words
from ledger.night import lifecycle as ledger_night
from ledger.sentences import Sentence
from ledger.storage.models import GameSession

RUMMY13 = "rummy13"


def is_rummy(night: GameSession) -> bool:
    """Whether ``night`` is a 13-card rummy night."""
    return (night.game or "tonk") == RUMMY13


def rules_page(night: GameSession, actor: Any) -> Any:
    """The rules in force of a rummy night: its preset and one sentence per rule it plays."""
    rules = ledger_night.rules_of(night)
    return render_template("rules_rummy.html", night=night, actor=actor,
                           game_title=str(Sentence(rummy_words.GAME_TITLE)),
                           preset_title=str(rummy_words.preset_title(rules.preset)),
                           lines=[str(line) for line in rummy_words.rule_lines(rules)])
