"""A rule set in plain words, and worked examples priced by the engine itself.

:func:`rule_lines` turns every toggle that matters into a sentence a player understands
("A caught knocker pays 2× to every player at or below them"). :func:`worked_examples` builds
a handful of typical hands for a given table and scores them with :func:`score_hand` at call
time, so a reference page never shows hand-written numbers.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ledger.rules.engine import HandResult, score_hand
from ledger.rules.entry import parse_hand
from ledger.rules.errors import HandError
from ledger.rules.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One rule in words: ``topic`` (outcome or subject), ``text``, and the RULES.md section."""

    topic: str
    text: str
    section: str


def _x(mult: int) -> str:
    return f"{mult}×"


def rule_lines(rules: RuleSet) -> list[RuleLine]:
    """Everything this rule set pays and allows, in words, outcome by outcome (§4, §3, §1.4)."""
    lines: list[RuleLine] = []
    add = lambda topic, text, section: lines.append(RuleLine(topic, text, section))  # noqa: E731

    # deal tonk
    if rules.hand_size == 5:
        if rules.deal_tonk_mult_49 == rules.deal_tonk_mult_50:
            deal = f"A dealt 49 or 50 wins at once: each other player pays {_x(rules.deal_tonk_mult_50)} the stake."
        else:
            deal = (f"A dealt 50 wins at once: each other player pays {_x(rules.deal_tonk_mult_50)}; "
                    f"a dealt 49 pays {_x(rules.deal_tonk_mult_49)}.")
        if rules.deal_tonk_49_timing == "in_turn":
            deal += " A 49 counts only if declared at the start of its holder's turn, before anyone drops."
    else:
        deal = f"With {rules.hand_size}-card deals there is no 49/50 tonk on the deal."
    add("deal_tonk", deal, "§4.1")
    for rule in sorted(rules.low_deal_rules, key=lambda r: r.max_total):
        where = "" if rules.low_rules_apply_to == "deal" else " (also on a winning knock)"
        add("deal_tonk", f"A dealt hand of {rule.max_total} or less wins: each other player pays {_x(rule.mult)}{where}.", "§4.2")
    add("deal_tonk", "Two or more players winning on the deal: the hand is redealt and nobody pays.", "§4.1")

    # going out
    tonk = {
        "any": "Tonk out (all cards laid or hit, no discard): each other player pays 2×.",
        "new_spread": "Tonk out pays 2× only if the last turn laid a new spread; emptying the hand by hits alone pays 1×.",
        "six_card_spread": (f"Tonk out pays 2× only if all {rules.hand_size + 1} cards were laid as new spreads in the "
                            "last turn with no hits; otherwise 1×."),
    }[rules.tonk_out_double_requires]
    add("tonk_out", tonk, "§4.3")
    add("discard_out", "Out by discarding the last card: each other player pays 1×.", "§4.4")

    # knock
    win = "Knock (drop) with the lowest count: each other player pays 1×."
    if rules.low_rules_apply_to == "deal_and_knock_win" and rules.low_deal_rules:
        win += " A winning knock at or under a low-deal limit pays that rule's multiple instead."
    add("knock", win, "§4.5")
    on_top = rules.caught_knocker_pays_low_on_top
    caught = {
        "pagat": ("A caught knocker pays 2× to every player at or below them"
                  + (" and 3× to the lowest" if on_top else "")
                  + "; every other player also pays 1× to the lowest."),
        "wikipedia": ("A caught knocker pays 2× to the lowest player and 1× to anyone strictly below the knocker; "
                      "every other player also pays 1× to the lowest."),
        "at_or_below_only": "A caught knocker pays 2× to every player at or below them; nobody else pays.",
        "lowest_only": "A caught knocker pays 2× to the lowest player only; nobody else pays.",
    }[rules.caught_model]
    add("knock", caught, "§4.6")
    add("knock", "Two or more others tied for lowest (a catch tie) are each paid as the lowest.", "§4.6")
    tie = {
        "caught": "A knocker who ties the lowest count is caught.",
        "knocker_wins": "A knocker who ties the lowest count wins.",
        "tied_players_win_single": "A knocker who ties the lowest count pays nothing extra: each tied player collects 1× from everyone else.",
    }[rules.knock_tie_rule]
    add("knock", tie, "§4.7")
    if rules.hit_penalty_turns_per_hit:
        turns = rules.hit_penalty_turns_per_hit
        add("knock", f"A player whose spread is hit may not knock for {turns} turn{'s' if turns > 1 else ''} per hit.", "§3.5")
    add("knock", "Knock at the start of your turn, before drawing." if rules.drop_timing == "start_of_turn"
        else "Knock at any point of your turn.", "§6")

    # dry stock
    dry = "Dry stock: the lowest count collects 1× from each other player; "
    dry += "a tie for lowest is redealt." if rules.dry_stock_tie == "redeal" else "players tied for lowest are each paid 1× by everyone else."
    add("dry_stock", dry, "§4.8")

    if rules.double_double:
        who = "the player who tonked out" if rules.double_double_collector == "first_tonker" else "the player who could have gone out on the run"
        size = " (two players only)" if rules.double_double_two_player_only else ""
        add("double_double", f"Double-double{size}: {who} collects 4× from each other player.", "§4.9")
    if rules.spade_side_pot:
        ace = "ace high" if rules.spade_ace_high else "ace low"
        redeal = "settled even on a redeal" if rules.spade_pot_on_redeal == "settle" else "void on a redeal"
        add("side_pot", f"Spade side pot: the highest spade dealt ({ace}) takes each player's side stake; {redeal}.", "§4.10")

    # cards and spreads
    if rules.jokers:
        value = ("the card it is declared as" if rules.joker_value_mode == "declared"
                 else f"{rules.joker_hand_value} points")
        add("cards", f"Two wild jokers; a joker held in hand counts {value}; a spread needs "
            f"{rules.min_natural_cards_per_spread} real cards.", "§1.4")
    add("cards", "Aces are low or high in runs (A-2-3 and Q-K-A), never wrapping." if rules.ace_in_runs == "high_or_low"
        else "Aces are low in runs only (A-2-3, not Q-K-A).", "§3.1")
    if rules.must_lay_spreads:
        add("cards", "Spreads must be laid down" + (", except a book of aces." if rules.three_aces_exception else "."), "§3.4")
    if not rules.held_spreads_count:
        add("cards", "Spreads held in hand do not count against you.", "§3.4")
    add("cards", f"{rules.hand_size} cards each; {rules.min_players} to {rules.max_players} players.", "§2")
    return lines


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A typical hand and what this table's rules pay for it, computed by the engine."""

    title: str
    story: str
    outcome: dict[str, Any]
    hands: dict[str, Any]
    result: HandResult


def worked_examples(rules: RuleSet, players: Sequence[str], stake_minor: int) -> list[WorkedExample]:
    """Score one typical hand per outcome for this table (``players`` in seat order, stake in
    minor units). An example the rules refuse at this table is left out."""
    p = list(players)
    a, b = p[0], p[1]
    c = p[2] if len(p) > 2 else None
    # every other player holds a different 15 so no card appears twice
    fifteens = [["KD", "5S"], ["QC", "5H"], ["JS", "5D"], ["10H", "5C"]]
    table = {name: {"cards": fifteens[i % len(fifteens)]} for i, name in enumerate(p)}
    candidates: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
    if rules.hand_size == 5:
        candidates.append((
            "Tonk on the deal", f"{a} is dealt K♠ Q♥ J♦ 10♣ K♦ = 50.",
            {"kind": "deal_tonk", "claimants": [a]}, {a: {"cards": ["KS", "QH", "JD", "10C", "KD"]}},
        ))
    candidates.append(("Tonk out", f"{b} lays or hits every card and needs no discard.",
                       {"kind": "tonk_out", "winner": b, "final_turn": {"spread_cards": 3, "hit_cards": 0}},
                       {b: {"cards": []}}))
    candidates.append(("Out by discard", f"{a} discards the last card.", {"kind": "discard_out", "winner": a}, {a: {"cards": []}}))
    candidates.append(("Knock and win", f"{a} knocks with 5; everyone else holds 15.",
                       {"kind": "knock", "knocker": a}, table | {a: {"cards": ["2C", "3H"]}}))
    caught = table | {a: {"cards": ["9S", "8H"]}, b: {"cards": ["2C", "3H"]}}
    if c is None:
        candidates.append(("Knock, caught", f"{a} knocks with 17; {b} holds 5.", {"kind": "knock", "knocker": a}, caught))
    else:
        candidates.append(("Knock, caught", f"{a} knocks with 17; {b} holds 5 and {c} 15.",
                           {"kind": "knock", "knocker": a}, caught))
        candidates.append(("Catch tie", f"{a} knocks with 17; {b} and {c} both hold 7.",
                           {"kind": "knock", "knocker": a},
                           caught | {b: {"cards": ["4S", "3C"]}, c: {"cards": ["2H", "5D"]}}))
    candidates.append(("Dry stock", f"The stock runs out; {b} holds the lowest count, 3.", {"kind": "dry_stock"},
                       table | {b: {"cards": ["AC", "2D"]}}))
    out = []
    for title, story, outcome, hands in candidates:
        record = parse_hand(players=tuple(p), stake=stake_minor, outcome=outcome, hands=hands)
        try:
            result = score_hand(rules, record)
        except HandError:
            continue
        out.append(WorkedExample(title, story, outcome, hands, result))
    return out
