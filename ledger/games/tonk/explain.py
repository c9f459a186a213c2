"""A rule set in plain words, and worked examples priced by the engine itself.

:func:`rule_lines` turns every toggle that matters into a sentence a player understands
("A caught knocker pays 2× to every player at or below them"). :func:`worked_examples` builds
a handful of typical hands for a given table and scores them with :func:`score_hand` at call
time, so a reference page never shows hand-written numbers.

Every rule is one whole sentence per case, kept as a :class:`~ledger.sentences.Sentence`
(:attr:`RuleLine.sentence`); :attr:`RuleLine.text` is it in the language being written now.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ledger.games.tonk.cards import Card
from ledger.games.tonk.engine import HandResult, score_hand
from ledger.games.tonk.entry import parse_hand
from ledger.games.errors import HandError
from ledger.games.tonk.ruleset import RuleSet
from ledger.sentences import N_, Cards, Sentence


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One rule in words: ``topic`` (outcome or subject), ``sentence``, and the RULES.md section."""

    topic: str
    sentence: Sentence
    section: str

    @property
    def text(self) -> str:
        """The rule in the language being written now."""
        return str(self.sentence)


def rule_lines(rules: RuleSet) -> list[RuleLine]:
    """Everything this rule set pays and allows, in words, outcome by outcome (§4, §3, §1.4).

    Returns :class:`RuleLine` s; each holds one whole :class:`~ledger.sentences.Sentence`."""
    lines: list[RuleLine] = []

    def add(topic: str, template: str, section: str, **params: Any) -> None:
        lines.append(RuleLine(topic, Sentence(template, params), section))

    # deal tonk
    if rules.hand_size == 5:
        m49, m50 = rules.deal_tonk_mult_49, rules.deal_tonk_mult_50
        if m49 == m50:
            add("deal_tonk", N_("A dealt 49 or 50 wins at once: each other player pays {mult}× the stake."), "§4.1",
                mult=m50)
        else:
            add("deal_tonk", N_("A dealt 50 wins at once: each other player pays {mult50}×; a dealt 49 pays {mult49}×."),
                "§4.1", mult50=m50, mult49=m49)
        if rules.deal_tonk_49_timing == "in_turn":
            add("deal_tonk", N_("A 49 counts only if declared at the start of its holder's turn, before anyone drops."),
                "§4.1")
    else:
        add("deal_tonk", N_("With {size}-card deals there is no 49/50 tonk on the deal."), "§4.1", size=rules.hand_size)
    for rule in sorted(rules.low_deal_rules, key=lambda r: r.max_total):
        if rules.low_rules_apply_to == "deal":
            add("deal_tonk", N_("A dealt hand of {total} or less wins: each other player pays {mult}×."), "§4.2",
                total=rule.max_total, mult=rule.mult)
        else:
            add("deal_tonk", N_("A dealt hand of {total} or less wins: each other player pays {mult}× (also on a "
                                "winning knock)."), "§4.2", total=rule.max_total, mult=rule.mult)
    add("deal_tonk", N_("Two or more players winning on the deal: the hand is redealt and nobody pays."), "§4.1")

    # going out
    if rules.tonk_out_double_requires == "any":
        add("tonk_out", N_("Tonk out (all cards laid or hit, no discard): each other player pays 2×."), "§4.3")
    elif rules.tonk_out_double_requires == "new_spread":
        add("tonk_out", N_("Tonk out pays 2× only if the last turn laid a new spread; emptying the hand by hits "
                           "alone pays 1×."), "§4.3")
    else:
        add("tonk_out", N_("Tonk out pays 2× only if all {count} cards were laid as new spreads in the last turn "
                           "with no hits; otherwise 1×."), "§4.3", count=rules.hand_size + 1)
    add("discard_out", N_("Out by discarding the last card: each other player pays 1×."), "§4.4")

    # knock
    add("knock", N_("Knock (drop) with the lowest count: each other player pays 1×."), "§4.5")
    if rules.low_rules_apply_to == "deal_and_knock_win" and rules.low_deal_rules:
        add("knock", N_("A winning knock at or under a low-deal limit pays that rule's multiple instead."), "§4.5")
    caught = {
        "pagat": N_("A caught knocker pays 2× to every player at or below them and 3× to the lowest; every other "
                    "player also pays 1× to the lowest.") if rules.caught_knocker_pays_low_on_top
        else N_("A caught knocker pays 2× to every player at or below them; every other player also pays 1× to "
                "the lowest."),
        "wikipedia": N_("A caught knocker pays 2× to the lowest player and 1× to anyone strictly below the knocker; "
                        "every other player also pays 1× to the lowest."),
        "at_or_below_only": N_("A caught knocker pays 2× to every player at or below them; nobody else pays."),
        "lowest_only": N_("A caught knocker pays 2× to the lowest player only; nobody else pays."),
    }[rules.caught_model]
    add("knock", caught, "§4.6")
    add("knock", N_("Two or more others tied for lowest (a catch tie) are each paid as the lowest."), "§4.6")
    tie = {
        "caught": N_("A knocker who ties the lowest count is caught."),
        "knocker_wins": N_("A knocker who ties the lowest count wins."),
        "tied_players_win_single": N_("A knocker who ties the lowest count pays nothing extra: each tied player "
                                      "collects 1× from everyone else."),
    }[rules.knock_tie_rule]
    add("knock", tie, "§4.7")
    turns = rules.hit_penalty_turns_per_hit
    if turns == 1:
        add("knock", N_("A player whose spread is hit may not knock for 1 turn per hit."), "§3.5")
    elif turns:
        add("knock", N_("A player whose spread is hit may not knock for {count} turns per hit."), "§3.5", count=turns)
    if rules.drop_timing == "start_of_turn":
        add("knock", N_("Knock at the start of your turn, before drawing."), "§6")
    else:
        add("knock", N_("Knock at any point of your turn."), "§6")

    # dry stock
    if rules.dry_stock_tie == "redeal":
        add("dry_stock", N_("Dry stock: the lowest count collects 1× from each other player; a tie for lowest is "
                            "redealt."), "§4.8")
    else:
        add("dry_stock", N_("Dry stock: the lowest count collects 1× from each other player; players tied for "
                            "lowest are each paid 1× by everyone else."), "§4.8")

    if rules.double_double:
        add("double_double", DOUBLE_DOUBLE[(rules.double_double_two_player_only,
                                            rules.double_double_collector == "first_tonker")], "§4.9")
    if rules.spade_side_pot:
        add("side_pot", SPADE_POT[(rules.spade_ace_high, rules.spade_pot_on_redeal == "settle")], "§4.10")

    # cards and spreads
    if rules.jokers:
        if rules.joker_value_mode == "declared":
            add("cards", N_("Two wild jokers; a joker held in hand counts the card it is declared as; a spread "
                            "needs {least} real cards."), "§1.4", least=rules.min_natural_cards_per_spread)
        else:
            add("cards", N_("Two wild jokers; a joker held in hand counts {points} points; a spread needs {least} "
                            "real cards."), "§1.4", points=rules.joker_hand_value,
                least=rules.min_natural_cards_per_spread)
    if rules.ace_in_runs == "high_or_low":
        add("cards", N_("Aces are low or high in runs (A-2-3 and Q-K-A), never wrapping."), "§3.1")
    else:
        add("cards", N_("Aces are low in runs only (A-2-3, not Q-K-A)."), "§3.1")
    if rules.must_lay_spreads:
        if rules.three_aces_exception:
            add("cards", N_("Spreads must be laid down, except a book of aces."), "§3.4")
        else:
            add("cards", N_("Spreads must be laid down."), "§3.4")
    if not rules.held_spreads_count:
        add("cards", N_("Spreads held in hand do not count against you."), "§3.4")
    add("cards", N_("{size} cards each; {least} to {most} players."), "§2",
        size=rules.hand_size, least=rules.min_players, most=rules.max_players)
    return lines


# (two players only, the first tonker collects) → sentence
DOUBLE_DOUBLE = {
    (True, True): N_("Double-double (two players only): the player who tonked out collects 4× from each other "
                     "player."),
    (True, False): N_("Double-double (two players only): the player who could have gone out on the run collects "
                      "4× from each other player."),
    (False, True): N_("Double-double: the player who tonked out collects 4× from each other player."),
    (False, False): N_("Double-double: the player who could have gone out on the run collects 4× from each other "
                       "player."),
}
# (ace high, settled on a redeal) → sentence
SPADE_POT = {
    (True, True): N_("Spade side pot: the highest spade dealt (ace high) takes each player's side stake; settled "
                     "even on a redeal."),
    (True, False): N_("Spade side pot: the highest spade dealt (ace high) takes each player's side stake; void on "
                      "a redeal."),
    (False, True): N_("Spade side pot: the highest spade dealt (ace low) takes each player's side stake; settled "
                      "even on a redeal."),
    (False, False): N_("Spade side pot: the highest spade dealt (ace low) takes each player's side stake; void on "
                       "a redeal."),
}


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A typical hand and what this table's rules pay for it, computed by the engine.
    ``title`` and ``story`` are :class:`~ledger.sentences.Sentence` s (``str()`` them)."""

    title: Sentence
    story: Sentence
    outcome: dict[str, Any]
    hands: dict[str, Any]
    result: HandResult


def _cards(*texts: str) -> Cards:
    return Cards(tuple(Card.parse(t) for t in texts))


def worked_examples(rules: RuleSet, players: Sequence[str], stake_minor: int) -> list[WorkedExample]:
    """Score one typical hand per outcome for this table (``players`` in seat order, stake in
    minor units). An example the rules refuse at this table is left out."""
    p = list(players)
    a, b = p[0], p[1]
    c = p[2] if len(p) > 2 else None
    # every other player holds a different 15 so no card appears twice
    fifteens = [["KD", "5S"], ["QC", "5H"], ["JS", "5D"], ["10H", "5C"]]
    table = {name: {"cards": fifteens[i % len(fifteens)]} for i, name in enumerate(p)}
    candidates: list[tuple[Sentence, Sentence, dict[str, Any], dict[str, Any]]] = []
    if rules.hand_size == 5:
        dealt = ["KS", "QH", "JD", "10C", "KD"]
        candidates.append((
            Sentence(N_("Tonk on the deal")),
            Sentence(N_("{player} is dealt {cards} = {total}."), {"player": a, "cards": _cards(*dealt), "total": 50}),
            {"kind": "deal_tonk", "claimants": [a]}, {a: {"cards": dealt}},
        ))
    candidates.append((Sentence(N_("Tonk out")),
                       Sentence(N_("{player} lays or hits every card and needs no discard."), {"player": b}),
                       {"kind": "tonk_out", "winner": b, "final_turn": {"spread_cards": 3, "hit_cards": 0}},
                       {b: {"cards": []}}))
    candidates.append((Sentence(N_("Out by discard")),
                       Sentence(N_("{player} discards the last card."), {"player": a}),
                       {"kind": "discard_out", "winner": a}, {a: {"cards": []}}))
    candidates.append((Sentence(N_("Knock and win")),
                       Sentence(N_("{knocker} knocks with {count}; everyone else holds {others}."),
                                {"knocker": a, "count": 5, "others": 15}),
                       {"kind": "knock", "knocker": a}, table | {a: {"cards": ["2C", "3H"]}}))
    caught = table | {a: {"cards": ["9S", "8H"]}, b: {"cards": ["2C", "3H"]}}
    if c is None:
        candidates.append((Sentence(N_("Knock, caught")),
                           Sentence(N_("{knocker} knocks with {count}; {low} holds {low_count}."),
                                    {"knocker": a, "count": 17, "low": b, "low_count": 5}),
                           {"kind": "knock", "knocker": a}, caught))
    else:
        candidates.append((Sentence(N_("Knock, caught")),
                           Sentence(N_("{knocker} knocks with {count}; {low} holds {low_count} and {other} "
                                       "{other_count}."),
                                    {"knocker": a, "count": 17, "low": b, "low_count": 5, "other": c,
                                     "other_count": 15}),
                           {"kind": "knock", "knocker": a}, caught))
        candidates.append((Sentence(N_("Catch tie")),
                           Sentence(N_("{knocker} knocks with {count}; {low} and {other} both hold {low_count}."),
                                    {"knocker": a, "count": 17, "low": b, "other": c, "low_count": 7}),
                           {"kind": "knock", "knocker": a},
                           caught | {b: {"cards": ["4S", "3C"]}, c: {"cards": ["2H", "5D"]}}))
    candidates.append((Sentence(N_("Dry stock")),
                       Sentence(N_("The stock runs out; {player} holds the lowest count, {count}."),
                                {"player": b, "count": 3}),
                       {"kind": "dry_stock"}, table | {b: {"cards": ["AC", "2D"]}}))
    out = []
    for title, story, outcome, hands in candidates:
        record = parse_hand(players=tuple(p), stake=stake_minor, outcome=outcome, hands=hands)
        try:
            result = score_hand(rules, record)
        except HandError:
            continue
        out.append(WorkedExample(title, story, outcome, hands, result))
    return out
