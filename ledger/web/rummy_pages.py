"""The phone pages of a 13-card rummy night (RUMMY13.md) besides recording a hand
(:mod:`ledger.web.rummy_record`): the rules in force (the preset and the rules as the night plays
them, in whole sentences) and, until the phone corrects a rummy hand itself, a clear way back from
the correct page, whose Tonk questions do not fit a rummy hand: a correction is made through the
JSON API (``POST /api/v1/sessions/{id}/hands/{n}/amend`` with ``wild_rank``, ``outcome``, ``hands``)."""
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
    """Back to the table, saying why: the phone does not yet correct a rummy hand."""
    flash(_("This phone cannot correct 13-card rummy hands yet; for now a correction is made through the ledger's "
            "API."), "info")
    return redirect(url_for("web.table", session_id=night.id))


def rules_page(night: GameSession, actor: Any) -> Any:
    """The rules in force of a rummy night: its preset and one sentence per rule it plays."""
    rules = ledger_night.rules_of(night)
    return render_template("rules_rummy.html", night=night, actor=actor,
                           game_title=str(Sentence(rummy_words.GAME_TITLE)),
                           preset_title=str(rummy_words.preset_title(rules.preset)),
                           lines=[str(line) for line in rummy_words.rule_lines(rules)])
