"""Who pays whom for each way a hand can end (RULES.md §4), with the outcome checks of §9.1
item 14. Payments are gross here; :mod:`ledger.games.netting` nets them (§8.3).

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ledger.games.tonk.cards import Card
from ledger.games.errors import HandError
from ledger.games.tonk.spreads import is_run
from ledger.games.tonk.validation import CheckedHand, check_stake, describe_cards, hand_points
from ledger.sentences import N_


@dataclass(slots=True)
class Payment:
    """One gross payment of ``amount_minor`` (positive int) from ``payer`` to ``payee``."""

    payer: str
    payee: str
    amount_minor: int


@dataclass(slots=True)
class Payout:
    """Gross result of the main hand: ``payments``, ``winners`` (in seat order), ``redeal``
    for a no-pay draw, and ``detail`` facts for describing the hand (``mult``, ``caught``...)."""

    payments: list[Payment] = field(default_factory=list)
    winners: tuple[str, ...] = ()
    redeal: bool = False
    detail: dict[str, object] = field(default_factory=dict)

    def pay(self, payer: str, payee: str, amount_minor: int) -> None:
        if amount_minor > 0 and payer != payee:
            self.payments.append(Payment(payer, payee, amount_minor))


def main_payout(hand: CheckedHand) -> Payout:
    """The main-game payout of a checked hand (§4.1–§4.9). Raises :class:`HandError` for the
    outcome checks of §9.1 item 14 (``not_a_deal_tonk``, ``claim_mismatch``...)."""
    kind = hand.record.outcome.kind
    return _KINDS[kind](hand)


# -- §4.1/§4.2 deal tonk -------------------------------------------------------------------------
def _deal_claim(hand: CheckedHand, player: str) -> tuple[str, int] | None:
    """``("auto" | "in_turn", mult)`` if ``player``'s dealt hand qualifies, else ``None``."""
    rules = hand.rules
    cards = hand.hands[player].cards
    if cards is None or len(cards) != rules.hand_size:
        return None
    total = hand_points(cards, rules)
    claims: list[tuple[str, int]] = []
    if rules.hand_size == 5 and total == 50:
        claims.append(("auto", rules.deal_tonk_mult_50))
    if rules.hand_size == 5 and total == 49:
        timing = "auto" if rules.deal_tonk_49_timing == "immediate" else "in_turn"
        claims.append((timing, rules.deal_tonk_mult_49))
    low = rules.low_deal_mult(total)
    if low is not None:
        claims.append(("auto", low))
    if not claims:
        return None
    autos = [m for how, m in claims if how == "auto"]
    return ("auto", max(autos)) if autos else claims[0]


def _deal_tonk(hand: CheckedHand) -> Payout:
    rules = hand.rules
    outcome = hand.record.outcome
    claims: dict[str, tuple[str, int]] = {}
    for name in outcome.claimants:
        claim = _deal_claim(hand, name)
        if claim is None:
            cards = hand.hands[name].cards or ()
            total = hand_points(cards, rules)
            limit = max((r.max_total for r in rules.low_deal_rules), default=None)
            if rules.hand_size != 5:
                template = N_("{player}'s dealt hand ({cards}) counts {total}: with {size}-card deals only the "
                              "low-deal house rules can win on the deal.")
            elif limit is None:
                template = N_("{player}'s dealt hand ({cards}) counts {total}: a deal tonk needs 49 or 50.")
            else:
                template = N_("{player}'s dealt hand ({cards}) counts {total}: a deal tonk needs 49 or 50 "
                              "(or {limit} or less under this table's low-deal rule).")
            raise HandError(
                "not_a_deal_tonk", template, f"hands.{name}.cards",
                player=name, cards=describe_cards(cards), total=total, size=rules.hand_size, limit=limit,
            )
        claims[name] = claim
    for name in hand.players:
        if name in claims or name not in hand.hands:
            continue
        claim = _deal_claim(hand, name)
        if claim is not None and claim[0] == "auto":
            raise HandError(
                "unclaimed_deal_tonk",
                N_("{player}'s dealt hand also wins on the deal but was not claimed: decide whether the "
                   "hand is redealt, or leave {player}'s forfeited hand out of the entry."),
                f"hands.{name}", player=name,
            )
    autos = [n for n, (how, _) in claims.items() if how == "auto"]
    in_turn = [n for n, (how, _) in claims.items() if how == "in_turn"]
    if len(autos) >= 2:
        return Payout(redeal=True, detail={"reason": "several_deal_tonks"})
    if autos:
        winner = autos[0]
    else:
        if len(in_turn) >= 2:
            raise HandError(
                "ambiguous_claim",
                N_("Two players claim an in-turn 49: enter only the player who declared first."),
                "outcome.claimants",
            )
        winner = in_turn[0]
        if outcome.declared_before_any_drop is not True:
            raise HandError(
                "deal_tonk_preempted",
                N_("{player}'s 49 counts only if declared at the start of their turn before anyone "
                   "dropped; enter the hand as the knock that happened."),
                "outcome.declared_before_any_drop", player=winner,
            )
    payout = _everyone_pays(hand, winner, claims[winner][1])
    payout.detail["total"] = hand_points(hand.hands[winner].cards or (), rules)
    return payout


# -- §4.3/§4.4 going out ---------------------------------------------------------------------------
def _tonk_out(hand: CheckedHand) -> Payout:
    rules = hand.rules
    outcome = hand.record.outcome
    winner = outcome.winner
    assert winner is not None
    mode = rules.tonk_out_double_requires
    turn = outcome.final_turn
    if mode == "any":
        mult = 2
    elif turn is None:
        raise HandError(
            "missing_final_turn",
            N_("At this table a tonk out pays double only in some cases: say how many cards the "
               "final turn laid as new spreads and how many it used to hit."),
            "outcome.final_turn",
        )
    elif mode == "new_spread":
        mult = 2 if turn.spread_cards >= 3 else 1
    else:
        mult = 2 if turn.spread_cards == rules.hand_size + 1 and turn.hit_cards == 0 else 1
    return _everyone_pays(hand, winner, mult)


def _discard_out(hand: CheckedHand) -> Payout:
    assert hand.record.outcome.winner is not None
    return _everyone_pays(hand, hand.record.outcome.winner, 1)


def _everyone_pays(hand: CheckedHand, winner: str, mult: int) -> Payout:
    payout = Payout(winners=(winner,))
    for name in hand.players:
        payout.pay(name, winner, mult * hand.stake)
    payout.detail["mult"] = mult
    return payout


# -- §4.5–§4.7 knock --------------------------------------------------------------------------------
def _knock(hand: CheckedHand) -> Payout:
    rules = hand.rules
    outcome = hand.record.outcome
    knocker = outcome.knocker
    assert knocker is not None
    stake = hand.stake
    lock = outcome.knocker_lock_turns or 0
    if rules.hit_penalty_turns_per_hit > 0 and lock > 0:
        raise HandError(
            "knock_while_locked",
            N_("{player} was hit and may not drop for 1 more turn.") if lock == 1
            else N_("{player} was hit and may not drop for {count} more turns."),
            "outcome.knocker_lock_turns", player=knocker, count=lock,
        )
    count = hand.counts
    k_count = count[knocker]
    others = [p for p in hand.players if p != knocker]  # in seat order, and so is every list below
    low = min([count[p] for p in others])
    lows = [p for p in others if count[p] == low]
    payout = Payout()
    payout.detail.update(knocker_count=k_count, low_count=low)

    if k_count < low or (k_count == low and rules.knock_tie_rule == "knocker_wins"):
        mult = 1
        if rules.low_rules_apply_to == "deal_and_knock_win":
            mult = rules.low_deal_mult(k_count) or 1
        for name in others:
            payout.pay(name, knocker, mult * stake)
        payout.winners = (knocker,)
        payout.detail.update(result="knocker_wins", mult=mult, tie=k_count == low)
    elif k_count == low and rules.knock_tie_rule == "tied_players_win_single":
        for winner in lows:
            for name in hand.players:
                if name not in lows:
                    payout.pay(name, winner, stake)
        payout.winners = tuple(lows)
        payout.detail.update(result="tie_single")
    else:
        _caught(hand, payout, knocker, k_count, others, lows)
        payout.winners = tuple(lows)
        payout.detail.update(result="knocker_caught", catch_tie=len(lows) > 1)

    claimed = outcome.claimed_result
    actual = "knocker_wins" if payout.detail["result"] == "knocker_wins" else "knocker_caught"
    if claimed is not None and claimed != actual:
        raise HandError(
            "claim_mismatch",
            N_("The entry says {player} won, but {player} counts {count} and the lowest "
               "other count is {low}.") if claimed == "knocker_wins"
            else N_("The entry says {player} was caught, but {player} counts {count} and the lowest "
                    "other count is {low}."),
            "outcome.claimed_result", player=knocker, count=k_count, low=low,
        )
    return payout


def _caught(
    hand: CheckedHand, payout: Payout, knocker: str, k_count: int, others: list[str], lows: list[str]
) -> None:
    rules = hand.rules
    stake = hand.stake
    model = rules.caught_model
    at_or_below = [p for p in others if hand.counts[p] <= k_count]
    if model == "pagat":
        for name in at_or_below:
            on_top = rules.caught_knocker_pays_low_on_top and name in lows
            payout.pay(knocker, name, (3 if on_top else 2) * stake)
        for name in others:
            for low_player in lows:
                # catch-tie members pay each other too; netting cancels those (§4.6(a) 3)
                payout.pay(name, low_player, stake)
    elif model == "wikipedia":
        for low_player in lows:
            payout.pay(knocker, low_player, 2 * stake)
        for name in others:
            if name not in lows and hand.counts[name] < k_count:
                payout.pay(knocker, name, stake)
        for name in others:
            if name not in lows:
                for low_player in lows:
                    payout.pay(name, low_player, stake)
    elif model == "at_or_below_only":
        for name in at_or_below:
            payout.pay(knocker, name, 2 * stake)
    else:  # lowest_only
        for low_player in lows:
            payout.pay(knocker, low_player, 2 * stake)


# -- §4.8 dry stock -----------------------------------------------------------------------------
def _dry_stock(hand: CheckedHand) -> Payout:
    rules = hand.rules
    outcome = hand.record.outcome
    count = hand.counts
    low = min([count[p] for p in hand.players])
    lows = [p for p in hand.players if count[p] == low]
    payout = Payout()
    if len(lows) == 1:
        payout.winners = (lows[0],)
        for name in hand.players:
            payout.pay(name, lows[0], hand.stake)
    elif rules.dry_stock_tie == "redeal" or len(lows) == len(hand.players):
        # under all_lows_paid a tie of every player leaves nobody outside the tie to pay the
        # lows: the hand is a draw, as under redeal (§4.8)
        payout.redeal = True
        payout.detail["reason"] = "dry_stock_tie"
    else:
        payout.winners = tuple(lows)
        for name in hand.players:
            if name not in lows:
                for low_player in lows:
                    payout.pay(name, low_player, hand.stake)
    payout.detail["low_count"] = low
    claimed = outcome.claimed_winner
    if claimed is not None and payout.winners != (claimed,):
        raise HandError(
            "claim_mismatch",
            N_("The entry says {player} won, but the lowest count ({low}) belongs to {lowest}."),
            "outcome.claimed_winner", player=claimed, low=low, lowest=list(lows),
        )
    return payout


# -- §4.9 double-double -------------------------------------------------------------------------
def _double_double(hand: CheckedHand) -> Payout:
    rules = hand.rules
    outcome = hand.record.outcome
    if rules.double_double_two_player_only and len(hand.players) != 2:
        raise HandError(
            "double_double_needs_two_players",
            N_("Double-double is played between two players at this table."),
            "outcome.kind",
        )
    tonker, responder = outcome.first_tonker, outcome.responder
    assert tonker is not None and responder is not None
    if tonker == responder:
        raise HandError(
            "not_a_double_double",
            N_("The first tonker and the responder must be two different players."),
            "outcome.responder",
        )
    run = hand.final_spread
    if not is_run(run, rules):
        raise HandError(
            "not_a_double_double",
            N_("The final spread {run} is not a run.") if run else N_("The final spread holds no cards, so it is not a run."),
            "outcome.tonker_final_spread", run=describe_cards(run),
        )
    remaining: tuple[Card, ...] = hand.hands[responder].cards or ()
    if not is_run(run + remaining, rules):
        raise HandError(
            "not_a_double_double",
            N_("{player}'s {cards} cannot all go out on the run {run}.") if remaining
            else N_("{player} holds no cards to go out on the run {run}."),
            f"hands.{responder}.cards", player=responder, cards=describe_cards(remaining), run=describe_cards(run),
        )
    collector = tonker if rules.double_double_collector == "first_tonker" else responder
    return _everyone_pays(hand, collector, 4)


_KINDS = {
    "deal_tonk": _deal_tonk,
    "tonk_out": _tonk_out,
    "discard_out": _discard_out,
    "knock": _knock,
    "dry_stock": _dry_stock,
    "double_double": _double_double,
}


# -- §4.10 spade side pot -----------------------------------------------------------------------
def spade_rank(card: Card, ace_high: bool) -> int:
    return 14 if (card.rank == 1 and ace_high) else card.rank


def side_pot_payments(hand: CheckedHand, redeal: bool) -> list[Payment]:
    """Payments of the spade side pot (§4.10), validated; ``[]`` if no bet, void or no spade.

    Raises :class:`HandError` ``invalid_side_bet`` for a bad stake or declaration: not a
    spade, declared twice, or (on a deal tonk, whose dealt hands the entry shows) shown in
    another player's hand or spreads, or not the declarer's highest dealt spade.
    """
    bet = hand.record.spade_bet
    if bet is None:
        return []
    rules = hand.rules
    stake = check_stake(bet.side_stake, "side_bets.spade.side_stake", "invalid_side_bet", "side_stake")
    seen: dict[Card, str] = {}
    for name, card in hand.spade_declarations.items():
        field = f"side_bets.spade.highest_spade.{name}"
        if card is None:
            continue
        if card.is_joker or card.suit != "S":
            raise HandError("invalid_side_bet", N_("{player} shows the {card}, which is not a spade."), field,
                            player=name, card=card)
        if card in seen:
            raise HandError(
                "invalid_side_bet", N_("{player} and {other} both show the {card}."), field,
                player=name, other=seen[card], card=card,
            )
        seen[card] = name
    if hand.record.outcome.kind == "deal_tonk":
        # §4.10: only a deal tonk's entry shows the dealt hands; after play a dealt spade may
        # have been discarded and drawn, or laid off, by another player (§1.3), so it stands
        for name, card in hand.spade_declarations.items():
            holder = hand.shown_with(card) if card is not None else None
            if holder is not None and holder != name:
                raise HandError(
                    "invalid_side_bet",
                    N_("{player} declared the {card} as highest spade, but the entry shows the {card} in "
                       "{other}'s hand."),
                    f"side_bets.spade.highest_spade.{name}", player=name, card=card, other=holder,
                )
            dealt = hand.hands.get(name)
            if dealt is None or dealt.cards is None:
                continue
            spades = [c for c in dealt.cards if not c.is_joker and c.suit == "S"]
            highest = max(spades, key=lambda c: spade_rank(c, rules.spade_ace_high)) if spades else None
            if highest != card:
                if card is None:
                    template = N_("{player} declared no spade as highest spade, but the dealt hand shows the {actual}.")
                elif highest is None:
                    template = N_("{player} declared the {card} as highest spade, but the dealt hand shows no spade.")
                else:
                    template = N_("{player} declared the {card} as highest spade, but the dealt hand shows the "
                                  "{actual}.")
                raise HandError(
                    "invalid_side_bet", template, f"side_bets.spade.highest_spade.{name}",
                    player=name, card=card, actual=highest,
                )
    if redeal and rules.spade_pot_on_redeal == "void":
        return []
    declared = {n: c for n, c in hand.spade_declarations.items() if c is not None}
    if not declared:
        return []
    winner = max(declared, key=lambda n: spade_rank(declared[n], rules.spade_ace_high))
    return [Payment(name, winner, stake) for name in hand.spade_declarations if name != winner]
