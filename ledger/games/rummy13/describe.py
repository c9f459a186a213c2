"""13-card rummy hands in words, for history lists and statements ("Anoop made a valid show",
"Chacko dropped at once (first drop)", "Bindu is out of the pool").

Works on the JSON forms the ledger stores (the entry's ``outcome`` and ``hands``, the §8.2
result), so old hands read the same however they were stored. Each description is one whole
sentence, a :class:`~ledger.sentences.Sentence`: ``str()`` it to read it in the current language.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.sentences import N_, Sentence

OUTCOME_TITLE_TEMPLATES: dict[str, str] = {
    "show": N_("Show"),
    "last_player": N_("Last player in"),
    "wrong_show": N_("Wrong show"),
    "void": N_("Void hand"),
    "pool_end": N_("End of the pool"),
}

RESULT_TEMPLATES: dict[str, str] = {
    "first_drop": N_("{player} dropped at once (first drop)"),
    "middle_drop": N_("{player} dropped mid-hand (middle drop)"),
    "wrong_show": N_("{player} showed wrongly"),
    "full_count": N_("{player} gave up the cards: full count"),
}


def outcome_title(kind: str) -> Sentence:
    """The title of outcome ``kind`` (the kind itself if unknown)."""
    template = OUTCOME_TITLE_TEMPLATES.get(kind)
    return Sentence(template) if template else Sentence("{kind}", {"kind": str(kind)})


def describe_hand(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> Sentence:
    """One sentence for a scored hand: ``outcome`` is the RUMMY13.md §8.1 outcome, ``result`` the
    §8.2 result (``points``: player → points charged)."""
    kind = outcome.get("kind")
    points = result.get("points") or {}
    if kind == "show":
        winner = str(outcome.get("winner"))
        total = sum(v for v in points.values() if isinstance(v, int))
        return Sentence(N_("{winner} made a valid show and collects {points} points"),
                        {"winner": winner, "points": total})
    if kind == "last_player":
        return Sentence(N_("{winner} won as the last player in"), {"winner": str(outcome.get("winner"))})
    if kind == "wrong_show":
        return Sentence(N_("{shower} showed wrongly and pays each player still in"),
                        {"shower": str(outcome.get("shower"))})
    if kind == "void":
        return Sentence(N_("The stock ran out: a void hand, nobody pays"))
    if kind == "pool_end":  # §4.10: the pot paid (amounts are the ledger's to write: a count of shares here)
        shares = [name for name, share in (result.get("shares") or {}).items() if share]
        if (outcome.get("split") or None) is None and len(shares) == 1:
            return Sentence(N_("The pool ended: {winner} takes the pot"), {"winner": shares[0]})
        return Sentence(N_("The pool ended: {count} players still in share the pot"), {"count": len(shares)})
    return outcome_title(str(kind))


def describe_lines(outcome: Mapping[str, Any], hands: Mapping[str, Any] | None,
                   result: Mapping[str, Any]) -> list[Sentence]:
    """:func:`describe_hand`, then one sentence per player who dropped, showed wrongly or gave a
    full count (seat order of ``result["points"]``; none for a void hand), and one per player
    the hand put out of a pool (``result["pool"]["eliminated"]``)."""
    lines = [describe_hand(outcome, result)]
    hands = hands or {}
    if outcome.get("kind") != "void":
        for player in result.get("points") or {}:
            hand = hands.get(player)
            template = RESULT_TEMPLATES.get(hand.get("result")) if isinstance(hand, Mapping) else None
            if template is not None:
                lines.append(Sentence(template, {"player": str(player)}))
    for player in (result.get("pool") or {}).get("eliminated") or ():
        lines.append(Sentence(N_("{player} is out of the pool"), {"player": str(player)}))
    pool = result.get("pool") or {}
    if pool.get("over") and pool.get("winner") is not None:
        lines.append(Sentence(N_("{winner} is the last one in the pool"), {"winner": str(pool["winner"])}))
    return lines


GAME_TITLE = N_("13-card rummy")

PRESET_TITLE_TEMPLATES: dict[str, str] = {
    "points_rummy": N_("Points rummy"),
    "pool_101": N_("Pool rummy to 101"),
    "pool_201": N_("Pool rummy to 201"),
    "home_table": N_("Home table"),
}


def preset_title(name: str) -> Sentence:
    """The title of preset ``name`` (RUMMY13.md §7; the name itself for one without a title)."""
    template = PRESET_TITLE_TEMPLATES.get(name)
    return Sentence(template) if template else Sentence("{name}", {"name": str(name)})


def rule_lines(rules: Any) -> list[Sentence]:
    """The points-format rules a night plays, one whole sentence each, from its rule set (a
    :class:`~ledger.games.rummy13.ruleset.RummyRules`; RUMMY13.md §4.1–§4.4, §6): the cap, the
    drops, the wrong show, a loser's melds. Points, never money: each is charged times the rate."""
    lines = [
        Sentence(N_("A loser pays their count times the rate, at most {cap} points."), {"cap": rules.count_cap})
        if rules.count_cap is not None else Sentence(N_("A loser pays their count times the rate, with no cap.")),
        Sentence(N_("A first drop costs {first} points and a middle drop {middle} points."),
                 {"first": rules.first_drop_points, "middle": rules.middle_drop_points}),
    ]
    if rules.wrong_show_mode == "ends_hand":
        lines.append(Sentence(N_("A wrong show ends the hand and pays {points} points to each player still in."),
                              {"points": rules.wrong_show_points}))
    else:
        lines.append(Sentence(N_("A wrong show costs {points} points, paid to the winner, and play goes on."),
                              {"points": rules.wrong_show_points}))
    if rules.loser_melds_rule == "pure_first":
        lines.append(Sentence(N_("A loser's pure sequence always counts in their favour.")))
    else:
        lines.append(Sentence(N_("A loser's melds count only with two sequences, one of them pure.")))
    return lines
