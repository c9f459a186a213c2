"""The rules in words: the reference page of a night, and the live summary of the start form.

``/s/<id>/rules`` shows what each outcome pays under the rules frozen into this session, in
words (:func:`ledger.games.tonk.explain.rule_lines`), which toggles the table changed from its
preset, and worked examples that the engine prices when the page is requested (never
hand-written numbers), with every player's net.

``GET /rules/summary`` is the small JSON endpoint behind the start form's live summary: it reads
the same fields as the form (``preset``, ``rules_base``, ``rule-<toggle>``) and answers with
the rule lines, the changes from the preset, the values to put back in the controls, and any
refusal keyed by control (422). A GET changes nothing, so it needs no CSRF token.

A Tong-its night's page is :mod:`ledger.web.tongits_rules`'s.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify, render_template, request

from ledger.night import lifecycle as ledger_night
from ledger.i18n import _
from ledger.games.tonk import PRESETS
from ledger.games.tonk.explain import worked_examples
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web import rummy_pages, tongits_rules
from ledger.web.formatting import engine_words
from ledger.web.house_rules import RulesChoice, changes_from_preset, grouped_lines, summary_lines

MAX_QUERY = 4000


@bp.get("/s/<session_id>/rules")
def rules(session_id: str) -> Any:
    night, actor = authorised(session_id)
    if rummy_pages.is_rummy(night):
        return rummy_pages.rules_page(night, actor)
    if (night.game or "tonk") == "tongits":
        return render_template("rules_tongits.html", night=night, actor=actor, **tongits_rules.context(night))
    ruleset = ledger_night.rules_of(night)
    preset = PRESETS.get(ruleset.preset)
    examples = []
    for example in worked_examples(ruleset, night.players, night.stake_minor):
        examples.append({
            "title": engine_words(example.title),
            "story": engine_words(example.story),
            "redeal": example.result.redeal,
            "transfers": [(t.payer, t.payee, t.amount_minor) for t in example.result.transfers],
            "net": [(p, example.result.net.get(p, 0)) for p in night.players],
        })
    return render_template(
        "rules.html",
        night=night,
        actor=actor,
        preset_title=engine_words(preset.title) if preset else ruleset.preset,
        preset_description=engine_words(preset.description) if preset else "",
        changes=changes_from_preset(ruleset),
        grouped=grouped_lines(summary_lines(ruleset)),
        examples=examples,
    )


@bp.get("/rules/summary")
def rules_summary() -> Any:
    """What a preset plus house-rule controls pay, in words (JSON; 422 with ``errors``)."""
    if len(request.query_string) > MAX_QUERY:
        return jsonify({"ok": False, "errors": {"form": _("Too many settings in one request.")}}), 400
    choice = RulesChoice.from_form(request.args)
    return jsonify(choice.to_json()), (200 if choice.valid else 422)
