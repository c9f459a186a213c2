"""The phone pages of a 13-card rummy night (RUMMY13.md), for now: the rules in force (the preset
and the rules as the night plays them, in whole sentences) and, until the phone has its own rummy
entry (issue 25, "At the table"), a clear way back from the record and correct pages, whose Tonk
questions do not fit a rummy hand: such hands are recorded through the JSON API
(``POST /api/v1/sessions/{id}/hands`` with ``wild_rank``, ``outcome`` and ``hands``)."""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, url_for

from ledger.games.rummy13 import describe as rummy_words
from ledger.i18n import _
from ledger.night import lifecycle as ledger_night
from ledger.sentences import Sentence
from ledger.storage.models import GameSession

RUMMY13 = "rummy13"


def is_rummy(night: GameSession) -> bool:
    """Whether ``night`` is a 13-card rummy night."""
    return (night.game or "tonk") == RUMMY13


def not_on_this_page(night: GameSession) -> Any:
    """Back to the table, saying why: the phone does not yet ask a rummy hand's questions."""
    flash(_("This phone cannot enter 13-card rummy hands yet; for now they are recorded through the ledger's API."),
          "info")
    return redirect(url_for("web.table", session_id=night.id))


def rules_page(night: GameSession, actor: Any) -> Any:
    """The rules in force of a rummy night: its preset and one sentence per rule it plays."""
    rules = ledger_night.rules_of(night)
    return render_template("rules_rummy.html", night=night, actor=actor,
                           game_title=str(Sentence(rummy_words.GAME_TITLE)),
                           preset_title=str(rummy_words.preset_title(rules.preset)),
                           lines=[str(line) for line in rummy_words.rule_lines(rules)])
