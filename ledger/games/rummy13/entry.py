"""Reading a 13-card rummy hand entry (RUMMY13.md §8.1) in the order of §9.1: each step is checked
for every player before the next step begins, and the first failure is raised.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.games.cards import Card, InvalidCard
from ledger.games.rummy13.cards import MAX_COUNT, read_card, read_wild_rank
from ledger.games.rummy13.errors import CARD_IN_HAND, HAND_SHAPE, WRONG_SHOW_ENDS_HAND, refuse
from ledger.games.rummy13.melds import analyse, classify, shown_declares, shown_raw
from ledger.games.rummy13.ruleset import RummyRules

KINDS = ("show", "last_player", "wrong_show", "void")
RESULTS = ("lost", "first_drop", "middle_drop", "wrong_show", "full_count")
DROPS = ("first_drop", "middle_drop")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(slots=True)
class Hand:
    """One player's checked hand: ``result`` (or ``None``), the cards in ``cards`` (flat) or
    ``melds`` + ``deadwood`` (``form`` ``"cards"``/``"melds"``/``None``), the stated ``points``."""

    result: str | None = None
    form: str | None = None
    cards: list[Card] = field(default_factory=list)
    melds: list[list[Card]] = field(default_factory=list)
    deadwood: list[Card] = field(default_factory=list)
    points: Any = None
    has_points: bool = False
    finish: list[Card] = field(default_factory=list)  # the finish card, counted for copies only

    def all_cards(self) -> list[Card]:
        return self.cards + [c for m in self.melds for c in m] + self.deadwood


@dataclass(slots=True)
class Entry:
    """A checked hand entry: seat order ``players``, ``stake`` (minor units; 0 in pool format),
    the ``wild`` rank, the outcome ``kind`` with ``winner`` or ``shower``, ``first_turn_show``,
    every hand given, the pool's ``scores_before`` and ``rejoined``."""

    players: tuple[str, ...]
    stake: int
    wild: int | None
    kind: str
    winner: str | None
    shower: str | None
    first_turn_show: bool
    hands: dict[str, Hand]
    scores_before: dict[str, int] = field(default_factory=dict)
    rejoined: tuple[str, ...] = ()

    def result_of(self, player: str) -> str | None:
        hand = self.hands.get(player)
        return None if hand is None else hand.result


def read_players(data: Mapping[str, Any], rules: RummyRules) -> tuple[str, ...]:
    """``players`` (§9.1 steps 0–2; the type is step 0, checked by the caller first)."""
    players = data.get("players")
    if len(players) < rules.min_players:
        refuse("too_few_players", "players", least=rules.min_players, count=len(players))
    if len(players) > rules.max_players:
        refuse("too_many_players", "players", most=rules.max_players, count=len(players))
    counts = Counter(players)
    for name in players:
        if counts[name] > 1:
            refuse("duplicate_player", "players", name=name)
    return tuple(players)


def players_shaped(players: Any) -> bool:
    return isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players)


def read_stake(value: Any, field_name: str) -> int:
    if not _is_int(value) or value <= 0:
        refuse("invalid_stake", field_name)
    return value


def _shape(data: Any, rules: RummyRules) -> None:
    """§9.1 step 0, ``invalid_entry``."""
    if not isinstance(data, Mapping):
        refuse("invalid_entry", None)
    if not players_shaped(data.get("players")):
        refuse("invalid_entry", "players")
    outcome = data.get("outcome")
    if not isinstance(outcome, Mapping) or outcome.get("kind") not in KINDS:
        refuse("invalid_entry", "outcome")
    kind = outcome["kind"]
    actor_key = {"show": "winner", "last_player": "winner", "wrong_show": "shower"}.get(kind)
    if actor_key is not None and not isinstance(outcome.get(actor_key), str):
        refuse("invalid_entry", f"outcome.{actor_key}")
    if "first_turn_show" in outcome and not isinstance(outcome["first_turn_show"], bool):
        refuse("invalid_entry", "outcome.first_turn_show")
    hands = data.get("hands", {})
    if not isinstance(hands, Mapping):
        refuse("invalid_entry", "hands")
    actor = outcome.get(actor_key) if actor_key else None
    for name, hand in hands.items():
        where = f"hands.{name}"
        if not isinstance(hand, Mapping):
            refuse("invalid_entry", where, HAND_SHAPE, name=str(name))
        if "result" in hand:
            if name == actor or hand["result"] not in RESULTS:
                refuse("invalid_entry", f"{where}.result", HAND_SHAPE, name=str(name))
        if "cards" in hand and ("melds" in hand or "deadwood" in hand):
            refuse("invalid_entry", where, HAND_SHAPE, name=str(name))
        if "cards" in hand and not isinstance(hand["cards"], list):
            refuse("invalid_entry", f"{where}.cards", HAND_SHAPE, name=str(name))
        if "melds" in hand and not (isinstance(hand["melds"], list)
                                    and all(isinstance(m, list) for m in hand["melds"])):
            refuse("invalid_entry", f"{where}.melds", HAND_SHAPE, name=str(name))
        if "deadwood" in hand and not isinstance(hand["deadwood"], list):
            refuse("invalid_entry", f"{where}.deadwood", HAND_SHAPE, name=str(name))
    if rules.is_pool:
        pool = data.get("pool")
        if not isinstance(pool, Mapping) or not isinstance(pool.get("scores_before"), Mapping):
            refuse("invalid_entry", "pool")
        rejoined = pool.get("rejoined", [])
        if not isinstance(rejoined, list) or not all(isinstance(p, str) for p in rejoined):
            refuse("invalid_entry", "pool.rejoined")


def read_entry(data: Any, rules: RummyRules) -> Entry:
    """Check a §8.1 hand entry against ``rules`` in §9.1 order; raises ``HandError``."""
    _shape(data, rules)
    players = read_players(data, rules)
    stake = read_stake(data.get("stake"), "stake") if not rules.is_pool else 0
    outcome = data["outcome"]
    kind = outcome["kind"]
    winner = outcome.get("winner") if kind in ("show", "last_player") else None
    shower = outcome.get("shower") if kind == "wrong_show" else None
    raw_hands: Mapping[str, Any] = data.get("hands", {})
    pool = (data.get("pool") or {}) if rules.is_pool else {}
    rejoined = tuple(pool.get("rejoined", [])) if rules.is_pool else ()
    seated = set(players)
    # step 4
    for where, name in (("outcome.winner", winner), ("outcome.shower", shower)):
        if name is not None and name not in seated:
            refuse("unknown_player", where, name=name)
    for name in raw_hands:
        if name not in seated:
            refuse("unknown_player", f"hands.{name}", name=str(name))
    if rules.is_pool:
        for name in pool["scores_before"]:
            if name not in seated:
                refuse("unknown_player", f"pool.scores_before.{name}", name=str(name))
        for name in rejoined:
            if name not in seated:
                refuse("unknown_player", "pool.rejoined", name=name)
    # step 5
    if kind == "wrong_show" and rules.wrong_show_mode == "continue":
        refuse("feature_disabled", "outcome.kind")
    if rules.wrong_show_mode == "ends_hand":
        for name, hand in raw_hands.items():
            if hand.get("result") == "wrong_show":
                refuse("feature_disabled", f"hands.{name}.result", WRONG_SHOW_ENDS_HAND, name=name)
    wild = _read_wild(data.get("wild_rank"))
    hands = {name: _read_cards(name, raw_hands[name]) for name in players if name in raw_hands}
    _check_copies(hands, rules)
    entry = Entry(players, stake, wild, kind, winner, shower, outcome.get("first_turn_show", False) is True,
                  hands, {}, rejoined)
    _check_hands(entry, rules)
    if rules.is_pool:
        entry.scores_before = _pool_scores(entry, pool["scores_before"], rules)
    return entry


def _read_wild(value: Any) -> int | None:
    try:
        return read_wild_rank(value)
    except InvalidCard:
        refuse("invalid_card", "wild_rank", text=_shown(value))


def _shown(value: Any) -> str:
    """A refused card as typed, cut short (a long text must not fill the sentence)."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 12 else text[:11] + "…"


def _parse(text: Any, where: str, name: str) -> Card:
    try:
        return read_card(text)
    except InvalidCard:
        refuse("invalid_card", where, CARD_IN_HAND, text=_shown(text), name=name)


def _read_cards(name: str, raw: Mapping[str, Any]) -> Hand:
    """Step 6: every card of one hand parsed."""
    where = f"hands.{name}"
    hand = Hand(result=raw.get("result"), points=raw.get("points"), has_points="points" in raw)
    if "cards" in raw:
        hand.form = "cards"
        hand.cards = [_parse(t, f"{where}.cards[{i}]", name) for i, t in enumerate(raw["cards"])]
    elif "melds" in raw or "deadwood" in raw:
        hand.form = "melds"
        hand.melds = [[_parse(t, f"{where}.melds[{i}][{j}]", name) for j, t in enumerate(group)]
                      for i, group in enumerate(raw.get("melds", []))]
        hand.deadwood = [_parse(t, f"{where}.deadwood[{i}]", name) for i, t in enumerate(raw.get("deadwood", []))]
    if "finish_card" in raw:
        hand.finish = [_parse(raw["finish_card"], f"{where}.finish_card", name)]
    return hand


def _check_copies(hands: Mapping[str, Hand], rules: RummyRules) -> None:
    """Steps 7 and 8."""
    everything = {name: hand.all_cards() + hand.finish for name, hand in hands.items()}
    for name, cards in everything.items():
        if rules.printed_jokers_per_deck == 0 and any(c.is_joker for c in cards):
            refuse("joker_not_allowed", f"hands.{name}", name=name)
    counts = Counter(c.identity for cards in everything.values() for c in cards)
    for card, count in counts.items():
        most = rules.decks * rules.printed_jokers_per_deck if card == "JK" else rules.decks
        if count > most:
            refuse("too_many_copies", "hands", card=card, count=count)


def _check_hands(entry: Entry, rules: RummyRules) -> None:
    """Steps 9 to 14 for one hand entry."""
    hands, kind = entry.hands, entry.kind
    if kind in ("show", "last_player"):
        for name in entry.players:  # step 9
            if name == entry.winner:
                continue
            hand = hands.get(name)
            if hand is None or hand.result is None:
                refuse("missing_hand", f"hands.{name}", name=name)
            if hand.result == "lost" and not hand.has_points and hand.form is None:
                refuse("missing_hand", f"hands.{name}", name=name)
    for name, hand in hands.items():  # step 10
        if hand.result in DROPS or hand.form is None:
            continue
        count = len(hand.all_cards())
        if count != 13:
            refuse("wrong_card_count", f"hands.{name}", name=name, count=count)
    for name, hand in hands.items():  # step 11
        if hand.form != "melds" or hand.result in DROPS or hand.result == "wrong_show":
            continue
        if name == entry.shower or (kind == "last_player" and name == entry.winner):
            continue
        for i, group in enumerate(hand.melds):
            if classify(group, entry.wild, rules) is None:
                refuse("invalid_spread", f"hands.{name}.melds[{i}]", name=name)
    if kind in ("show", "last_player"):
        lost = [n for n in entry.players if entry.result_of(n) == "lost"]
        for name in lost:  # step 12
            hand = hands[name]
            if hand.has_points and (not _is_int(hand.points) or not 0 <= hand.points <= MAX_COUNT):
                refuse("total_out_of_range", f"hands.{name}.points", name=name)
        for name in lost:
            hand = hands[name]
            if hand.has_points and hand.form is not None:
                raw, final = raw_and_count(hand, entry.wild, rules)
                if hand.points not in (raw, final):
                    refuse("total_mismatch", f"hands.{name}.points", name=name, points=hand.points, count=raw)
    if kind == "show" and entry.winner in hands and hands[entry.winner].form is not None:  # step 13
        code = declaration_fault(hands[entry.winner], entry.wild, rules)
        if code is not None:
            refuse(code, f"hands.{entry.winner}", name=entry.winner)
    # step 14
    if kind == "last_player":
        for name in entry.players:
            if entry.result_of(name) in ("lost", "full_count"):
                refuse("claim_mismatch", f"hands.{name}.result", name=name)
    wrong = [n for n in entry.players if entry.result_of(n) == "wrong_show" and kind in ("show", "last_player")]
    if entry.shower is not None:
        wrong.append(entry.shower)
    for name in wrong:
        hand = hands.get(name)
        if hand is not None and hand.form is not None and declaration_fault(hand, entry.wild, rules) is None:
            refuse("claim_mismatch", f"hands.{name}", name=name)
    if kind == "wrong_show":
        for name in entry.players:
            if entry.result_of(name) in ("lost", "full_count"):
                refuse("claim_mismatch", f"hands.{name}.result", name=name)


def declaration_fault(hand: Hand, wild: int | None, rules: RummyRules) -> str | None:
    """``None`` when the hand's 13 cards make a valid declaration (§3.6: melds judged as shown,
    cards searched), else ``no_pure_sequence`` or ``invalid_declaration``."""
    if hand.form == "melds":
        return shown_declares(hand.melds, hand.deadwood, wild, rules)
    found = analyse(hand.cards, wild, rules)
    if not found.has_pure:
        return "no_pure_sequence"
    return None if found.declares else "invalid_declaration"


def after_rules(raw: int, rules: RummyRules) -> int:
    """§4.2 steps 2–3: rounding to five (if on), then the cap."""
    count = (raw + 2) // 5 * 5 if rules.round_to_five else raw
    return count if rules.count_cap is None else min(count, rules.count_cap)


def raw_and_count(hand: Hand, wild: int | None, rules: RummyRules) -> tuple[int, int]:
    """A ``lost`` hand's raw count and its count after §4.2 steps 1–3 (before halving)."""
    if hand.form == "cards":
        found = analyse(hand.cards, wild, rules)
        raw, has_pure = found.best_raw, found.has_pure
    elif hand.form == "melds":
        raw, has_pure = shown_raw(hand.melds, hand.deadwood, wild, rules)
    else:
        return hand.points, after_rules(hand.points, rules)
    if rules.no_pure_full_count and not has_pure:
        return raw, rules.full_count_points
    return raw, after_rules(raw, rules)


def _pool_scores(entry: Entry, given: Mapping[str, Any], rules: RummyRules) -> dict[str, int]:
    """Step 15 for a pool hand (§4.9)."""
    for name in entry.players:
        score = given.get(name)
        if not _is_int(score) or score < 0:
            refuse("pool_state_missing", f"pool.scores_before.{name}", name=name)
    scores = {name: given[name] for name in entry.players}
    for name in entry.players:
        if scores[name] >= rules.pool_limit:
            refuse("eliminated_player", f"pool.scores_before.{name}", name=name)
    if entry.rejoined:
        staying = [n for n in entry.players if n not in entry.rejoined]
        if rules.rejoin_max_score is None or not staying:
            refuse("rejoin_not_allowed", "pool.rejoined")
        if any(scores[n] > rules.rejoin_max_score for n in staying):
            refuse("rejoin_not_allowed", "pool.rejoined")
        top = max(scores[n] for n in staying)
        for name in entry.rejoined:
            if scores[name] != top + 1:
                refuse("rejoin_not_allowed", "pool.rejoined", name=name)
    return scores
