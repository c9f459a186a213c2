"""The entry of one hand (RULES.md §8.1) as plain records, and their structural parse.

The records are slotted dataclasses that nothing changes after the parse. They are not frozen:
they are built for every hand scored, and a frozen dataclass costs about four times as much to
build (measured with ``bench/bench_engine.py``).

:func:`parse_entry` checks only the *shape* of the JSON (objects, lists, whole numbers). Every
rule check, including whether a card text is a card or a name is seated, belongs to
:mod:`ledger.games.tonk.validation`, so the §9.1 precedence holds. Card texts stay raw strings here.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ledger.games.errors import HandError
from ledger.sentences import N_

OUTCOME_KINDS = ("deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock", "double_double")

OUTCOME_FIELDS: dict[str, tuple[str, ...]] = {
    "deal_tonk": ("claimants", "declared_before_any_drop"),
    "tonk_out": ("winner", "final_turn"),
    "discard_out": ("winner",),
    "knock": ("knocker", "knocker_lock_turns", "claimed_result"),
    "dry_stock": ("claimed_winner",),
    "double_double": ("first_tonker", "responder", "tonker_final_spread"),
}
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "deal_tonk": ("claimants",),
    "tonk_out": ("winner",),
    "discard_out": ("winner",),
    "knock": ("knocker",),
    "dry_stock": (),
    "double_double": ("first_tonker", "responder", "tonker_final_spread"),
}
# the names an outcome can hold, in checking order, with their paths; the keys and the names
# each kind of outcome can hold
NAME_FIELDS = ("winner", "knocker", "claimed_winner", "first_tonker", "responder")
_NAME_PATHS = tuple((attr, f"outcome.{attr}") for attr in NAME_FIELDS)
_KIND_KEYS = {kind: frozenset(fields) | {"kind"} for kind, fields in OUTCOME_FIELDS.items()}
_KIND_NAMES = {kind: tuple(key for key in NAME_FIELDS if key in fields) for kind, fields in OUTCOME_FIELDS.items()}
CLAIMED_RESULTS = ("knocker_wins", "knocker_caught")
ENTRY_FIELDS = frozenset(
    {"id", "ruleset", "players", "stake", "outcome", "hands", "side_bets", "expected", "explain", "dealer"}
)
HAND_FIELDS = frozenset({"cards", "total", "spreads"})
# what an object of the entry may be: a dict (as parsed JSON is, checked first because it is
# quickest) or any other mapping
_OBJECT = (dict, Mapping)
# English templates for the catalogue (translate where shown: ``HandError`` does)
MISSING_FIELD_MESSAGES = {
    "claimants": N_("Say who claims the tonk on the deal."),
    "winner": N_("Say who went out."),
    "knocker": N_("Say who knocked."),
    "first_tonker": N_("Say who tonked out first."),
    "responder": N_("Say who could have gone out on the same run."),
    "tonker_final_spread": N_("List the run the first tonker went out with."),
}


@dataclass(slots=True)
class FinalTurn:
    """§4.3: cards laid as new spreads and cards used to hit in the tonk-out turn."""

    spread_cards: int
    hit_cards: int


@dataclass(slots=True)
class Outcome:
    """How the hand ended (§8.1 table). Only the fields of ``kind`` are set."""

    kind: str
    claimants: tuple[str, ...] = ()
    declared_before_any_drop: bool | None = None
    winner: str | None = None
    final_turn: FinalTurn | None = None
    knocker: str | None = None
    knocker_lock_turns: int | None = None
    claimed_result: str | None = None
    claimed_winner: str | None = None
    first_tonker: str | None = None
    responder: str | None = None
    tonker_final_spread: tuple[Any, ...] = ()

    def named_players(self) -> list[tuple[str, str]]:
        """``(field path, name)`` for every player the outcome names."""
        out = [(f"outcome.claimants[{i}]", name) for i, name in enumerate(self.claimants)] if self.claimants else []
        for attr, field in _NAME_PATHS:
            value = getattr(self, attr)
            if value is not None:
                out.append((field, value))
        return out


@dataclass(slots=True)
class HandEntry:
    """What one player showed: ``cards`` still held (raw texts), and/or a declared ``total``,
    and the ``spreads`` laid in front of them. ``cards is None`` means totals only."""

    cards: tuple[Any, ...] | None
    total: int | None
    spreads: tuple[tuple[Any, ...], ...] = ()


@dataclass(slots=True)
class SpadeBet:
    """§4.10: ``side_stake`` P (minor units) and each participant's declared highest spade
    (raw card text, or ``None`` for "no spade")."""

    side_stake: Any
    highest_spade: tuple[tuple[str, Any], ...]


@dataclass(slots=True)
class HandRecord:
    """One entered hand: seated ``players`` (seat order), ``stake`` S in minor units (raw, so
    that ``invalid_stake`` keeps its precedence), the ``outcome``, each player's ``hands``
    entry, and an optional spade side bet."""

    players: tuple[str, ...]
    stake: Any
    outcome: Outcome
    hands: tuple[tuple[str, HandEntry], ...]
    spade_bet: SpadeBet | None = None

    def hand(self, player: str) -> HandEntry | None:
        for name, entry in self.hands:
            if name == player:
                return entry
        return None


def _bad(template: str, field: str | None, **params: Any) -> HandError:
    return HandError("invalid_entry", template, field, **params)


def _mapping(value: Any, field: str | None, template: str, **params: Any) -> Mapping[str, Any]:
    """``value`` if it is an object, else ``invalid_entry`` with ``template`` (one sentence per part)."""
    if not isinstance(value, _OBJECT):
        raise _bad(template, field, **params)
    return value


NOT_A_NAME = N_("A player must be named by a non-empty text.")


def _name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(NOT_A_NAME, field)
    return value


def _names(values: list[Any] | tuple[Any, ...], where: str) -> tuple[str, ...]:
    """``values`` as names; ``invalid_entry`` at ``{where}[i]`` for the first that is not one."""
    names = tuple(values)
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise _bad(NOT_A_NAME, f"{where}[{index}]")
    return names


def _whole(value: Any, field: str, what: str, minimum: int = 0) -> int:
    """``what`` is the field's name in the entry (``spread_cards``), not a word to translate."""
    if type(value) is not int or value < minimum:
        raise _bad(N_("{what} must be a whole number of at least {minimum}."), field, what=what, minimum=minimum)
    return value


CARDS_AS_LIST = N_("Cards must be given as a list.")


def _card_list(value: Any, field: str) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise _bad(CARDS_AS_LIST, field)
    return tuple(value)


def parse_entry(data: Any) -> HandRecord:
    """Read a §8.1 entry (parsed JSON) into a :class:`HandRecord`.

    Keys ``id``, ``ruleset``, ``expected`` and ``explain`` are ignored here. Raises
    :class:`HandError` ``invalid_entry`` (with the field path) when the shape is wrong: not an
    object, unknown keys, an unknown outcome kind, a missing outcome field, a total that is not
    a whole number, and the like.
    """
    entry = _mapping(data, None, N_("The entry must be an object."))
    if not ENTRY_FIELDS.issuperset(entry):
        for key in entry:
            if key not in ENTRY_FIELDS:
                raise _bad(N_("An entry has no field {key}."), str(key), key=repr(key))
    players_raw = entry.get("players")
    if not isinstance(players_raw, (list, tuple)):
        raise _bad(N_("players must be a list of names in seat order."), "players")
    return parse_hand(
        players=_names(players_raw, "players"),
        stake=entry.get("stake"),
        outcome=entry.get("outcome"),
        hands=entry.get("hands"),
        side_bets=entry.get("side_bets"),
    )


def parse_hand(
    *, players: tuple[str, ...], stake: Any, outcome: Any, hands: Any, side_bets: Any = None
) -> HandRecord:
    """Build a :class:`HandRecord` from its parts (used by the API, whose sessions supply the
    players and stake). Raises :class:`HandError` ``invalid_entry`` like :func:`parse_entry`."""
    return HandRecord(
        players=players,
        stake=stake,
        outcome=_parse_outcome(outcome),
        hands=_parse_hands(hands),
        spade_bet=_parse_side_bets(side_bets),
    )


def _parse_outcome(data: Any) -> Outcome:
    outcome = _mapping(data, "outcome", N_("The outcome must be an object."))
    kind = outcome.get("kind")
    if kind not in OUTCOME_KINDS:
        raise _bad(
            N_("The outcome kind must be one of {kinds}; got {kind}."), "outcome.kind",
            kinds=", ".join(OUTCOME_KINDS), kind=repr(kind),
        )
    if not _KIND_KEYS[kind].issuperset(outcome):
        for key in outcome:
            if key not in _KIND_KEYS[kind]:
                raise _bad(N_("A {kind} outcome has no field {key}."), f"outcome.{key}", kind=kind, key=repr(key))
    for key in REQUIRED_FIELDS[kind]:
        if outcome.get(key) is None:
            raise _bad(MISSING_FIELD_MESSAGES[key], f"outcome.{key}")
    values: dict[str, Any] = {"kind": kind}
    for key in _KIND_NAMES[kind]:  # no other name can be there
        if outcome.get(key) is not None:
            values[key] = _name(outcome[key], f"outcome.{key}")
    if "claimants" in outcome:
        claimants = outcome["claimants"]
        if not isinstance(claimants, (list, tuple)) or not claimants:
            raise _bad(N_("claimants must list at least one player."), "outcome.claimants")
        values["claimants"] = _names(claimants, "outcome.claimants")
        if len(set(values["claimants"])) != len(values["claimants"]):
            raise _bad(N_("A player is listed twice among the claimants."), "outcome.claimants")
    if outcome.get("declared_before_any_drop") is not None:
        if not isinstance(outcome["declared_before_any_drop"], bool):
            raise _bad(N_("declared_before_any_drop must be true or false."), "outcome.declared_before_any_drop")
        values["declared_before_any_drop"] = outcome["declared_before_any_drop"]
    if outcome.get("final_turn") is not None:
        turn = _mapping(outcome["final_turn"], "outcome.final_turn", N_("final_turn must be an object."))
        extra = set(turn) - {"spread_cards", "hit_cards"}
        if extra:
            raise _bad(N_("final_turn has no field {key}."), "outcome.final_turn", key=repr(sorted(extra)[0]))
        values["final_turn"] = FinalTurn(
            _whole(turn.get("spread_cards", 0), "outcome.final_turn.spread_cards", "spread_cards"),
            _whole(turn.get("hit_cards", 0), "outcome.final_turn.hit_cards", "hit_cards"),
        )
    if outcome.get("knocker_lock_turns") is not None:
        values["knocker_lock_turns"] = _whole(
            outcome["knocker_lock_turns"], "outcome.knocker_lock_turns", "knocker_lock_turns"
        )
    if outcome.get("claimed_result") is not None:
        if outcome["claimed_result"] not in CLAIMED_RESULTS:
            raise _bad(N_("claimed_result must be knocker_wins or knocker_caught."), "outcome.claimed_result")
        values["claimed_result"] = outcome["claimed_result"]
    if "tonker_final_spread" in outcome:
        values["tonker_final_spread"] = _card_list(outcome["tonker_final_spread"], "outcome.tonker_final_spread")
    return Outcome(**values)


def _parse_hands(data: Any) -> tuple[tuple[str, HandEntry], ...]:
    if data is None:
        data = {}
    hands = _mapping(data, "hands", N_("hands must be an object."))
    out = []
    for player, hand in hands.items():
        if not isinstance(hand, _OBJECT):
            raise _bad(N_("{player}'s hand must be an object."), f"hands.{player}", player=player)
        if not HAND_FIELDS.issuperset(hand):
            extra = sorted(set(hand) - HAND_FIELDS)[0]
            raise _bad(N_("A hand has no field {key}."), f"hands.{player}.{extra}", key=repr(extra))
        cards = hand.get("cards")
        if cards is not None:
            if not isinstance(cards, (list, tuple)):
                raise _bad(CARDS_AS_LIST, f"hands.{player}.cards")
            cards = tuple(cards)
        total = hand.get("total")
        if total is not None and type(total) is not int:
            raise _bad(N_("{player}'s total must be a whole number."), f"hands.{player}.total", player=player)
        if cards is None and total is None:
            raise _bad(N_("{player}'s hand needs its cards or its total."), f"hands.{player}", player=player)
        spreads: tuple[tuple[Any, ...], ...] = ()
        spreads_raw = hand.get("spreads")
        if spreads_raw:
            if not isinstance(spreads_raw, (list, tuple)):
                raise _bad(N_("spreads must be a list of card lists."), f"hands.{player}.spreads")
            spreads = tuple(_card_list(s, f"hands.{player}.spreads[{i}]") for i, s in enumerate(spreads_raw))
        out.append((str(player), HandEntry(cards, total, spreads)))
    return tuple(out)


def _parse_side_bets(data: Any) -> SpadeBet | None:
    if data is None:
        return None
    bets = _mapping(data, "side_bets", N_("side_bets must be an object."))
    extra = set(bets) - {"spade"}
    if extra:
        raise _bad(N_("There is no side bet called {key}."), f"side_bets.{sorted(extra)[0]}", key=repr(sorted(extra)[0]))
    if bets.get("spade") is None:
        return None
    spade = _mapping(bets["spade"], "side_bets.spade", N_("The spade side bet must be an object."))
    extra = set(spade) - {"side_stake", "highest_spade"}
    if extra:
        raise _bad(N_("The spade side bet has no field {key}."), f"side_bets.spade.{sorted(extra)[0]}",
                   key=repr(sorted(extra)[0]))
    declared = _mapping(spade.get("highest_spade"), "side_bets.spade.highest_spade",
                        N_("highest_spade must be an object."))
    return SpadeBet(spade.get("side_stake"), tuple((str(k), v) for k, v in declared.items()))
