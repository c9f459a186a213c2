"""Checking a Tong-its entry (TONGITS.md §9.1, in its exact order, with the readings of §8.5):
the raw JSON entry in, a checked :class:`~ledger.games.tongits.entry.Entry` out, or the first
failing code as :class:`~ledger.games.errors.HandError` with the field at fault.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.games.cards import Card
from ledger.games.errors import HandError
from ledger.games.tongits.cards import IsAJoker, NotACard, read_card
from ledger.games.tongits.entry import (
    CLOSE_REASONS, KINDS, PLAYED_KINDS, POT, RESPONSES, Entry, Outcome, PlayerHand, PotState,
)
from ledger.games.tongits.melds import count_rank, escaleras_exposed, escaleras_in_hand, fours_lying_together, is_meld
from ledger.games.tongits.points import points
from ledger.games.tongits.ruleset import TongitsRules
from ledger.games.tongits.showdown import decide
from ledger.sentences import N_, Cards

_OBJECT = (dict, Mapping)
MAX_TOTAL = 120  # 12 cards × 10 (§3.3)
_REQUIRED_NAME = {"tongits": "winner", "draw": "caller", "stock_out": "last_drawer"}
_SAY_WHO = {
    "winner": N_("Say who went out."),
    "caller": N_("Say who called the draw."),
    "last_drawer": N_("Say who drew the last card from the stock."),
}


def _int(value: Any) -> bool:
    """A JSON integer: ``true``/``false`` and ``500.0`` are not (§8.5 #7)."""
    return type(value) is int


def read_entry(data: Any, rules: TongitsRules | None = None) -> tuple[TongitsRules, Entry]:
    """Check a §8.1 entry; ``rules`` given (a night's) or read from ``data["ruleset"]``.

    Returns ``(rules, entry)``. Raises ``HandError`` with the first failing §9.1 code."""
    if not isinstance(data, _OBJECT):  # §8.5 #8, before any other check
        raise HandError("invalid_outcome", N_("The entry must be an object."), None)
    if rules is None:
        rules = TongitsRules.from_spec(data.get("ruleset"))  # 1
    players = _players(data.get("players"), rules)  # 2, 3, 4
    stake = data.get("stake")
    if not _int(stake) or stake <= 0:  # 5
        raise HandError("invalid_stake", N_("The stake must be a positive whole number of minor units; got {shown}."),
                        "stake", shown=repr(stake))
    raw_outcome, raw_hands, raw_pot = data.get("outcome"), data.get("hands"), data.get("pot")
    dealer = data.get("dealer")
    _unknown_players(players, raw_outcome, raw_hands, raw_pot, dealer)  # 6
    outcome = _outcome(players, raw_outcome, data)  # 7
    raw_hands = {} if raw_hands is None else raw_hands
    pot = _pot(players, raw_pot)  # 8
    cards = {p: _cards(p, raw_hands[p]) for p in players if p in raw_hands}  # 9
    _duplicates(players, cards)  # 10
    _missing(players, outcome, raw_hands, cards)  # 11
    _card_counts(players, outcome, raw_hands, cards)  # 12
    _totals(players, raw_hands, cards)  # 13
    _spreads(players, cards)  # 14
    _opened(players, raw_hands, cards)  # 15
    hands = {p: _hand(p, raw_hands[p], cards[p], rules) for p in players if p in raw_hands}  # 16
    opened = {p: _is_opened(hands.get(p), outcome.responses.get(p)) for p in players}
    entry = Entry(players, stake, dealer, pot, outcome, hands, opened)
    return rules, _outcome_checks(rules, entry)  # 17


# -- 2 to 4: the seating -------------------------------------------------------------------------
def _players(value: Any, rules: TongitsRules) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise HandError("too_few_players", N_("players must be a list of names in seat order."), "players")
    if len(value) < 3:
        raise HandError("too_few_players", N_("Tong-its needs {least} players at this table; {count} given."),
                        "players", least=3, count=len(value))
    if len(value) > rules.max_players:
        raise HandError("too_many_players", N_("These rules seat at most {most} players; {count} given."),
                        "players", most=rules.max_players, count=len(value))
    for index, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise HandError("invalid_player_name", N_("A player must be named by a non-empty text."),
                            f"players[{index}]")
        if name.strip().casefold() == POT:
            raise HandError("invalid_player_name", N_("No player may be called {name}: the pot takes that name."),
                            f"players[{index}]", name=name)
    seen: set[str] = set()
    for index, name in enumerate(value):
        if name in seen:  # exact comparison (§8.5 #5)
            raise HandError("duplicate_player", N_("{name} is seated twice."), f"players[{index}]", name=name)
        seen.add(name)
    return tuple(value)


# -- 6: names that are not seated ----------------------------------------------------------------
def _unknown_players(players: tuple[str, ...], outcome: Any, hands: Any, pot: Any, dealer: Any) -> None:
    named: list[tuple[str, Any]] = []
    if isinstance(outcome, _OBJECT):
        for key in ("winner", "caller", "last_drawer", "claimed_winner"):
            named.append((f"outcome.{key}", outcome.get(key)))
        responses = outcome.get("responses")
        if isinstance(responses, _OBJECT):
            named += [(f"outcome.responses.{k}", k) for k in responses]
    if isinstance(hands, _OBJECT):
        named += [(f"hands.{k}", k) for k in hands]
    if isinstance(pot, _OBJECT):
        named.append(("pot.holder", pot.get("holder")))
    named.append(("dealer", dealer))
    for path, name in named:
        if isinstance(name, str) and name not in players:
            raise HandError("unknown_player", N_("{name} is not seated at this table."), path, name=name)


def check_seated(state: Any, players: Sequence[str]) -> None:
    """§4.9: the pot's streak never stays with a player who left the table. A correction that
    re-scores the hands to the last one and would leave it with ``state["holder"]``, no longer
    among ``players``, is refused: ``HandError("unknown_player")``, field ``pot.holder``."""
    holder = state.get("holder") if isinstance(state, _OBJECT) else None
    if isinstance(holder, str) and holder not in players:
        raise HandError("unknown_player", N_("This change would leave the pot's streak with {name}, who has "
                                             "left the table, so it was not made."), "pot.holder", name=holder)


# -- 7: the outcome's shape ----------------------------------------------------------------------
def _bad_outcome(template: str, field: str | None, **params: Any) -> HandError:
    return HandError("invalid_outcome", template, field, **params)


def _outcome(players: tuple[str, ...], raw: Any, data: Mapping[str, Any]) -> Outcome:
    if not isinstance(raw, _OBJECT):
        raise _bad_outcome(N_("The outcome must be an object."), "outcome")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise _bad_outcome(N_("The outcome kind must be one of {kinds}; got {kind}."), "outcome.kind",
                           kinds=", ".join(KINDS), kind=repr(kind))
    required = _REQUIRED_NAME.get(kind)
    if required is not None and not isinstance(raw.get(required), str):
        raise _bad_outcome(_SAY_WHO[required], f"outcome.{required}")
    responses: dict[str, str] = {}
    locked = False
    if kind == "draw":
        caller = raw["caller"]
        given = raw.get("responses")
        if not isinstance(given, _OBJECT):
            raise _bad_outcome(N_("The answers to the draw must be an object of player: fight, fold or auto_fold."),
                               "outcome.responses")
        others = [p for p in players if p != caller]
        if set(given) != set(others):
            raise _bad_outcome(N_("Every player but the caller answers the draw: {names}."), "outcome.responses",
                               names=tuple(others))
        for player in others:
            if given[player] not in RESPONSES:
                raise _bad_outcome(N_("{player}'s answer must be fight, fold or auto_fold; got {value}."),
                                   f"outcome.responses.{player}", player=player, value=repr(given[player]))
        responses = {p: given[p] for p in others}
        locked = raw.get("caller_locked", False)
        if not isinstance(locked, bool):
            raise _bad_outcome(N_("caller_locked must be true or false."), "outcome.caller_locked")
    if kind == "close_pot" and raw.get("reason") not in CLOSE_REASONS:
        raise _bad_outcome(N_("A pot close needs its reason: end_of_night or seat_change."), "outcome.reason")
    if "claimed_winner" in raw and raw["claimed_winner"] is not None and not isinstance(raw["claimed_winner"], str):
        raise _bad_outcome(N_("claimed_winner must be a player's name or null."), "outcome.claimed_winner")
    if "dealer" in data and data["dealer"] is not None and not isinstance(data["dealer"], str):
        raise _bad_outcome(N_("dealer must be a player's name or null."), "dealer")
    hands = data.get("hands")
    if hands is not None:
        if not isinstance(hands, _OBJECT):
            raise _bad_outcome(N_("hands must be an object."), "hands")
        for player in players:
            if player in hands and not isinstance(hands[player], _OBJECT):
                raise _bad_outcome(N_("{player}'s hand must be an object."), f"hands.{player}", player=player)
    return Outcome(
        kind=kind,
        winner=raw.get("winner") if kind == "tongits" else None,
        caller=raw.get("caller") if kind == "draw" else None,
        responses=responses,
        caller_locked=locked,
        last_drawer=raw.get("last_drawer") if kind == "stock_out" else None,
        reason=raw.get("reason") if kind == "close_pot" else None,
        claimed="claimed_winner" in raw,
        claimed_winner=raw.get("claimed_winner"),
    )


# -- 8: the pot state ----------------------------------------------------------------------------
def _pot(players: tuple[str, ...], raw: Any) -> PotState:
    if raw is None:  # §8.5 #4
        return PotState()
    if not isinstance(raw, _OBJECT):
        raise HandError("invalid_pot_state", N_("The pot must be an object with balance, holder and streak."), "pot")
    balance, holder, streak = raw.get("balance", 0), raw.get("holder"), raw.get("streak", 0)
    for key, value in (("balance", balance), ("streak", streak)):
        if not _int(value) or value < 0:
            raise HandError("invalid_pot_state", N_("{what} must be a whole number of at least {minimum}."),
                            f"pot.{key}", what=f"pot.{key}", minimum=0)
    if holder is not None and not (isinstance(holder, str) and holder in players):
        raise HandError("invalid_pot_state", N_("The pot's holder must be a seated player or null."), "pot.holder")
    if holder is None and streak != 0:
        raise HandError("invalid_pot_state", N_("A pot with no holder has a streak of 0; got {streak}."),
                        "pot.streak", streak=streak)
    if holder is not None and streak == 0:
        raise HandError("invalid_pot_state", N_("{name} holds the pot's streak, so it must be at least 1."),
                        "pot.streak", name=holder)
    return PotState(balance, holder, streak)


# -- 9 and 10: the cards -------------------------------------------------------------------------
Parsed = tuple[tuple[Card, ...] | None, tuple[tuple[Card, ...], ...] | None]


def _read(player: str, text: Any, field: str, in_melds: bool) -> Card:
    try:
        return read_card(text)
    except IsAJoker:
        raise HandError("invalid_card", N_("{player}'s hand or melds hold a joker, but Tong-its is played without "
                                           "jokers."), field, player=player) from None
    except NotACard:
        template = (N_("{player}'s melds list {text}, which is not a card (write it like 10H, QD, A♠).") if in_melds
                    else N_("{player}'s hand lists {text}, which is not a card (write it like 10H, QD, A♠)."))
        raise HandError("invalid_card", template, field, player=player, text=repr(text)) from None


def _cards(player: str, raw: Mapping[str, Any]) -> Parsed:
    cards = raw.get("cards")
    if cards is not None:
        if not isinstance(cards, list):
            raise HandError("invalid_card", N_("Cards must be given as a list."), f"hands.{player}.cards")
        cards = tuple(_read(player, t, f"hands.{player}.cards[{i}]", False) for i, t in enumerate(cards))
    melds = raw.get("melds")
    if melds is not None:
        if not isinstance(melds, list) or not all(isinstance(m, list) for m in melds):
            raise HandError("invalid_card", N_("Melds must be given as a list of card lists."), f"hands.{player}.melds")
        melds = tuple(
            tuple(_read(player, t, f"hands.{player}.melds[{m}][{i}]", True) for i, t in enumerate(meld))
            for m, meld in enumerate(melds)
        )
    return cards, melds


def _duplicates(players: tuple[str, ...], cards: Mapping[str, Parsed]) -> None:
    seen: dict[str, str] = {}
    for player in players:
        if player not in cards:
            continue
        held, melds = cards[player]
        placed = [(c, f"hands.{player}.cards[{i}]") for i, c in enumerate(held or ())]
        placed += [(c, f"hands.{player}.melds[{m}][{i}]") for m, meld in enumerate(melds or ()) for i, c in enumerate(meld)]
        for card, field in placed:
            first = seen.get(str(card))
            if first == player:
                raise HandError("duplicate_card", N_("The {card} appears twice in {player}'s hand and melds; a deck "
                                                     "has only one."), field, card=card, player=player)
            if first is not None:
                raise HandError("duplicate_card", N_("The {card} appears in {first}'s hand or melds and in {player}'s; "
                                                     "a deck has only one."), field, card=card, first=first,
                                player=player)
            seen[str(card)] = player


# -- 11: hands the payout needs ------------------------------------------------------------------
def _given(raw: Mapping[str, Any], key: str) -> bool:
    return raw.get(key) is not None


def _missing(players: tuple[str, ...], outcome: Outcome, hands: Mapping[str, Any], cards: Mapping[str, Parsed]) -> None:
    def has_points(p: str) -> bool:
        return p in hands and (_given(hands[p], "cards") or _given(hands[p], "total"))

    if outcome.kind == "draw":
        showdown = [p for p in players if p == outcome.caller or outcome.responses.get(p) == "fight"]
        if len(showdown) > 1:
            for p in showdown:
                if not has_points(p):
                    raise HandError("missing_hand", N_("The draw was fought: enter {name}'s cards or total."),
                                    f"hands.{p}", name=p)
    if outcome.kind == "stock_out":
        for p in players:
            if p not in hands:
                raise HandError("missing_hand", N_("A stock out is paid on every hand: enter {name}'s hand."),
                                f"hands.{p}", name=p)
            melds = cards[p][1]
            opened = hands[p].get("opened")
            is_open = bool(melds) if melds is not None else (opened if isinstance(opened, bool) else True)
            if is_open and not has_points(p):
                raise HandError("missing_hand", N_("{name} is opened: enter {name}'s cards or total."),
                                f"hands.{p}", name=p)


# -- 12 and 13: card counts and totals -----------------------------------------------------------
def _card_counts(players: tuple[str, ...], outcome: Outcome, hands: Mapping[str, Any],
                 cards: Mapping[str, Parsed]) -> None:
    winner = outcome.winner if outcome.kind == "tongits" else None
    held = {p: cards[p][0] for p in players if p in cards and cards[p][0] is not None}
    for p, cs in held.items():
        most = 13 if p == winner else 12
        if len(cs) > most:
            raise HandError("too_many_cards", N_("{player}'s hand shows {count} cards; at most {most} can be held at "
                                                 "the end of a hand."), f"hands.{p}.cards", player=p, count=len(cs),
                            most=most)
    if outcome.kind in PLAYED_KINDS:
        for p, cs in held.items():
            if not cs and p != winner:
                raise HandError("empty_hand", N_("{player} holds no cards, but only the player who went out can have "
                                                 "an empty hand."), f"hands.{p}.cards", player=p)
    if winner is not None and winner in hands:
        cs = held.get(winner)
        if cs is not None and points(cs) > 0:
            raise HandError("tongits_winner_has_cards", N_("{player} went out (tong-its), so {player}'s cards must "
                                                           "count 0, not {count}."), f"hands.{winner}.cards",
                            player=winner, count=points(cs))
        total = hands[winner].get("total")
        if total is not None and not (_int(total) and total == 0):
            raise HandError("tongits_winner_has_cards", N_("{player} went out (tong-its), so {player}'s total must "
                                                           "be 0."), f"hands.{winner}.total", player=winner)


def _totals(players: tuple[str, ...], hands: Mapping[str, Any], cards: Mapping[str, Parsed]) -> None:
    given = [p for p in players if p in hands and _given(hands[p], "total")]
    for p in given:
        total = hands[p]["total"]
        if not _int(total) or not 0 <= total <= MAX_TOTAL:
            raise HandError("total_out_of_range", N_("{player}'s total must be a whole number from 0 to {most}; got "
                                                     "{total}."), f"hands.{p}.total", player=p, most=MAX_TOTAL,
                            total=repr(total))
    for p in given:
        held = cards[p][0]
        if held is not None and points(held) != hands[p]["total"]:
            template = (N_("{player}'s cards ({cards}) count {count}, not {total}.") if held
                        else N_("{player}'s cards (no cards) count {count}, not {total}."))
            raise HandError("total_mismatch", template, f"hands.{p}.total", player=p, cards=Cards(held),
                            count=points(held), total=hands[p]["total"])


# -- 14 to 16: melds, opened, bonus counts -------------------------------------------------------
def _spreads(players: tuple[str, ...], cards: Mapping[str, Parsed]) -> None:
    for p in players:
        for m, meld in enumerate((cards[p][1] or ()) if p in cards else ()):
            if not is_meld(meld):
                raise HandError("invalid_spread", N_("{player}'s meld {cards} is not valid: a meld is 3 or 4 cards of "
                                                     "one rank, or a run of 3 or more in one suit (ace low)."),
                                f"hands.{p}.melds[{m}]", player=p, cards=Cards(meld))


def _opened(players: tuple[str, ...], hands: Mapping[str, Any], cards: Mapping[str, Parsed]) -> None:
    for p in players:
        if p not in hands or not _given(hands[p], "opened"):
            continue
        opened = hands[p]["opened"]
        if not isinstance(opened, bool):
            raise HandError("opened_mismatch", N_("{player}'s opened must be true or false."), f"hands.{p}.opened",
                            player=p)
        melds = cards[p][1]
        if melds is not None and opened != bool(melds):
            template = (N_("{player} has exposed melds, so {player} is opened.") if melds
                        else N_("{player} has no exposed meld, so {player} is not opened."))
            raise HandError("opened_mismatch", template, f"hands.{p}.opened", player=p)


_COUNT_MISMATCH = {
    "aces": N_("{player} declares {declared} as the number of aces, but the cards and melds hold {count}."),
    "kings": N_("{player} declares {declared} as the number of kings, but the cards and melds hold {count}."),
    "escaleras": N_("{player} declares {declared} as the number of escaleras, but the cards and melds hold {count}."),
}


def _hand(player: str, raw: Mapping[str, Any], parsed: Parsed, rules: TongitsRules) -> PlayerHand:
    counts: dict[str, int | None] = {}
    for key in ("aces", "kings", "escaleras", "secrets"):
        value = raw.get(key)
        if value is not None and (not _int(value) or value < 0):
            raise HandError("bonus_mismatch", N_("{what} must be a whole number of at least {minimum}."),
                            f"hands.{player}.{key}", what=f"hands.{player}.{key}", minimum=0)
        counts[key] = value
    held, melds = parsed
    if held is not None and melds is not None:
        area = list(held) + [c for meld in melds for c in meld]
        computed = {
            "aces": count_rank(area, 1),
            "kings": count_rank(area, 13),
            "escaleras": escaleras_in_hand(held, rules.escalera_length)
            + escaleras_exposed(melds, rules.escalera_length),
        }
        for key, count in computed.items():
            if counts[key] is not None and counts[key] != count:
                raise HandError("bonus_mismatch", _COUNT_MISMATCH[key], f"hands.{player}.{key}", player=player,
                                count=count, declared=counts[key])
            counts[key] = count
        fours = fours_lying_together(held, melds)
        if (counts["secrets"] or 0) > fours:
            raise HandError("bonus_mismatch", N_("{player} declares {declared} as the number of secrets, but the "
                                                 "fours of a kind lying together number {count}."), f"hands.{player}.secrets", player=player,
                            declared=counts["secrets"], count=fours)
    return PlayerHand(
        cards=held, melds=melds, total=raw.get("total"), opened=raw.get("opened"),
        aces=counts["aces"], kings=counts["kings"], escaleras=counts["escaleras"], secrets=counts["secrets"] or 0,
    )


def _explicitly_opened(hand: PlayerHand | None) -> bool | None:
    """§4.5 steps 1 and 2: from ``melds``, else ``opened``; ``None`` when neither is given."""
    if hand is None:
        return None
    if hand.melds is not None:
        return bool(hand.melds)
    return hand.opened


def _is_opened(hand: PlayerHand | None, response: str | None) -> bool:
    """§4.5: melds, else opened, else an ``auto_fold`` answer is not opened, else opened."""
    explicit = _explicitly_opened(hand)
    if explicit is not None:
        return explicit
    return response != "auto_fold"


# -- 17: the outcome's own checks ----------------------------------------------------------------
def _outcome_checks(rules: TongitsRules, entry: Entry) -> Entry:
    outcome = entry.outcome
    if outcome.kind == "draw":
        caller = outcome.caller
        assert caller is not None
        if not entry.opened[caller]:
            raise HandError("caller_not_opened", N_("{player} has no exposed meld, so {player} cannot call a draw."),
                            "outcome.caller", player=caller)
        if outcome.caller_locked:
            raise HandError("caller_locked", N_("{player} is locked (sapaw) and may not call a draw this turn."),
                            "outcome.caller_locked", player=caller)
        for p, answer in outcome.responses.items():
            explicit = _explicitly_opened(entry.hands.get(p))
            if answer == "auto_fold" and explicit is True:
                raise HandError("invalid_response", N_("{player} is opened, so {player} folds rather than auto-folds."),
                                f"outcome.responses.{p}", player=p)
            if answer == "fold" and explicit is False:
                raise HandError("invalid_response", N_("{player} has no exposed meld, so {player} is auto-folded rather "
                                                       "than folding."), f"outcome.responses.{p}", player=p)
        for p, answer in outcome.responses.items():
            if answer == "fight" and not entry.opened[p]:
                if rules.secret_allows_fight and entry.hand(p).secrets >= 1:
                    entry.opened[p] = True  # a secret fighter shows the secret: not burned (§4.2)
                    continue
                raise HandError("burned_cannot_fight", N_("{player} has no exposed meld (sunog) and cannot fight the "
                                                          "draw."), f"outcome.responses.{p}", player=p)
    if outcome.claimed and outcome.kind in PLAYED_KINDS:
        winner = decide(entry).winner
        claimed = outcome.claimed_winner
        if claimed != winner:
            if winner is None:
                template = N_("The entry says {claimed} won, but nobody wins this hand.")
            elif claimed is None:
                template = N_("The entry says nobody won, but the rules make {winner} the winner.")
            else:
                template = N_("The entry says {claimed} won, but the rules make {winner} the winner.")
            raise HandError("claim_mismatch", template, "outcome.claimed_winner", claimed=claimed, winner=winner)
    return entry
