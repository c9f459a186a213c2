"""The rules page of a Tong-its night (``/s/<id>/rules``): the preset frozen into the night
(TONGITS.md §7) and worked examples of each way a hand ends (§4), priced by the engine when the
page is asked for with this night's players and stake, from an empty pot, in the engine's own
sentences. Amounts are minor units."""
from __future__ import annotations

from typing import Any

from ledger.night import lifecycle as ledger_night
from ledger.games import game
from ledger.games.tongits import PRESETS
from ledger.games.tongits.describe import describe_lines
from ledger.storage.models import GameSession
from ledger.web.formatting import engine_words
from ledger.web.tongits_form import outcome_title
from ledger.web.tongits_page import transfer_words


def examples(night: GameSession) -> list[dict[str, Any]]:
    """Tong-its, a burned loser (where the rules charge it), an uncontested and a fought draw,
    a stock out, and a second win in a row (the pot taken, where the rules play one)."""
    chosen = game("tongits")
    rules = ledger_night.rules_of(night)
    seated = list(night.players)
    first, second = seated[0], seated[1]
    others = {p: "fold" for p in seated if p != first}
    entries: list[tuple[str, dict[str, Any]]] = [
        ("tongits", {"outcome": {"kind": "tongits", "winner": first}, "hands": {}}),
        ("tongits", {"outcome": {"kind": "tongits", "winner": first}, "hands": {second: {"opened": False}}}),
        ("draw", {"outcome": {"kind": "draw", "caller": first, "responses": others}, "hands": {}}),
        ("draw", {"outcome": {"kind": "draw", "caller": first, "responses": others | {second: "fight"}},
                  "hands": {first: {"total": 10}, second: {"total": 5}}}),
        ("stock_out", {"outcome": {"kind": "stock_out", "last_drawer": first},
                       "hands": {p: {"total": points} for p, points in zip(seated, (8, 3, 12, 15))}}),
    ]
    out = []
    state = chosen.initial_state(rules)
    for kind, entry in entries:
        result = chosen.score(rules, players=seated, stake_minor=night.stake_minor, dealer=first, state=state,
                              entry=entry)
        out.append(_example(kind, entry, result, seated))
    # two wins in a row: the second is scored from the pot the first left
    win = {"outcome": {"kind": "tongits", "winner": first}, "hands": {}}
    once = chosen.score(rules, players=seated, stake_minor=night.stake_minor, dealer=first, state=state, entry=win)
    twice = chosen.score(rules, players=seated, stake_minor=night.stake_minor, dealer=first, state=once.state,
                         entry=win)
    if twice.pot.taken_by is not None:
        out.append(_example("tongits", win, twice, seated))
    return out


def _example(kind: str, entry: dict[str, Any], result: Any, seated: list[str]) -> dict[str, Any]:
    stored = result.to_json() | {"detail": result.detail, "points": result.points}
    return {
        "title": outcome_title(kind),
        "lines": [str(line) for line in describe_lines(entry["outcome"], stored)],
        "redeal": result.redeal,
        "transfers": [(transfer_words(t), t.amount_minor) for t in result.transfers],
        "net": [(p, result.net.get(p, 0)) for p in seated],
        "pot_after": result.pot.balance_after,
    }


def context(night: GameSession) -> dict[str, Any]:
    """What ``templates/rules_tongits.html`` shows."""
    ruleset = ledger_night.rules_of(night)
    preset = PRESETS.get(ruleset.preset)
    return {
        "preset_title": engine_words(preset.title) if preset else ruleset.preset,
        "preset_description": engine_words(preset.description) if preset else "",
        "examples": examples(night),
    }
