"""The rules reference page of a night: what each outcome pays under the rules frozen into
this session, in words (:func:`ledger.rules.explain.rule_lines`) and with worked examples that
the engine prices when the page is requested (never hand-written numbers)."""
from __future__ import annotations

from typing import Any

from flask import render_template

from ledger import night as ledger_night
from ledger.rules import PRESETS
from ledger.rules.describe import OUTCOME_TITLES
from ledger.rules.explain import rule_lines, worked_examples
from ledger.web.access import authorised
from ledger.web.blueprint import bp

TOPIC_TITLES = OUTCOME_TITLES | {"side_pot": "Spade side pot", "cards": "Cards and spreads"}


@bp.get("/s/<session_id>/rules")
def rules(session_id: str) -> Any:
    night, actor = authorised(session_id)
    ruleset = ledger_night.rules_of(night)
    grouped: dict[str, list[str]] = {}
    for line in rule_lines(ruleset):
        grouped.setdefault(TOPIC_TITLES.get(line.topic, line.topic), []).append(line.text)
    preset = PRESETS.get(ruleset.preset)
    return render_template(
        "rules.html",
        night=night,
        actor=actor,
        preset_title=preset.title if preset else ruleset.preset,
        changed=ruleset.differences(),
        grouped=grouped,
        examples=worked_examples(ruleset, night.players, night.stake_minor),
    )
