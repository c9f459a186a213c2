"""Property tests of the rules engine (RULES.md §9.2) over random entries under every preset
and random house-rule toggles, plus random junk that must be refused cleanly."""
from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from ledger.games.tonk import HandError, RuleSet, parse_entry, score_entry, score_hand
from ledger.games.tonk.cards import SUIT_SYMBOLS, Card, full_deck
from ledger.games.tonk.errors import ALL_CODES
from ledger.games.tonk.ruleset import PRESETS, TOGGLES

DECK = [str(c) for c in full_deck()]
TENS = [c for c in DECK if c[:-1] in ("10", "J", "Q", "K")]
NINES = [c for c in DECK if c[:-1] == "9"]
SMALL = [c for c in DECK if c[:-1] in ("A", "2", "3")]
NAMES = ["Dee", "Marcus", "Rosa", "Tomás"]


def toggle_value(name: str) -> st.SearchStrategy[Any]:
    toggle = TOGGLES[name]
    if toggle.kind == "bool":
        return st.booleans()
    if toggle.choices:
        return st.sampled_from(toggle.choices)
    if toggle.kind == "int":
        assert toggle.minimum is not None and toggle.maximum is not None
        return st.integers(toggle.minimum, toggle.maximum)
    return st.lists(
        st.fixed_dictionaries({"max_total": st.integers(0, 20), "mult": st.integers(1, 4)}), max_size=2
    )


# keep the table size valid most of the time; the rest of the toggles are free
FREE_TOGGLES = sorted(set(TOGGLES) - {"min_players", "max_players"})


@st.composite
def rulesets(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(FREE_TOGGLES), unique=True, max_size=6))
    return {
        "preset": draw(st.sampled_from(sorted(PRESETS))),
        "toggles": {name: draw(toggle_value(name)) for name in names},
    }


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    """A plausible §8.1 entry: distinct real cards, hand sizes within the deal."""
    spec = draw(rulesets())
    rules = RuleSet.from_spec(spec)
    players = NAMES[: draw(st.integers(2, 4))]
    stake = draw(st.integers(1, 1000))
    deck = list(draw(st.permutations(DECK)))
    kind = draw(st.sampled_from(["deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock", "double_double"]))
    hands: dict[str, Any] = {}
    outcome: dict[str, Any] = {"kind": kind}

    def take(cards: list[str]) -> list[str]:
        for card in cards:
            deck.remove(card)
        return cards

    def deal(n: int) -> list[str]:
        return take(deck[:n])

    def held(player: str, knocker: bool = False) -> dict[str, Any]:
        n = draw(st.integers(1, rules.max_hand_cards(knocker=knocker)))
        cards = deal(n)
        if draw(st.booleans()):
            return {"cards": cards}
        total = sum(Card.parse(c).points for c in cards)
        return {"total": total}

    if kind == "deal_tonk":
        claimants = draw(st.lists(st.sampled_from(players), min_size=1, max_size=2, unique=True))
        outcome["claimants"] = claimants
        for name in claimants:
            shape = draw(st.sampled_from(["fifty", "forty_nine", "low", "random"]))
            if shape == "fifty":
                cards = take([c for c in deck if c in TENS][:5])
            elif shape == "forty_nine":
                cards = take([c for c in deck if c in TENS][:4] + [c for c in deck if c in NINES][:1])
            elif shape == "low":
                cards = take([c for c in deck if c in SMALL][:5])
            else:
                cards = deal(rules.hand_size)
            hands[name] = {"cards": cards}
        if rules.deal_tonk_49_timing == "in_turn":
            outcome["declared_before_any_drop"] = draw(st.booleans())
    elif kind in ("tonk_out", "discard_out"):
        winner = draw(st.sampled_from(players))
        outcome["winner"] = winner
        hands[winner] = {"cards": []}
        if kind == "tonk_out" and draw(st.booleans()):
            outcome["final_turn"] = {"spread_cards": draw(st.integers(0, 6)), "hit_cards": draw(st.integers(0, 3))}
    elif kind == "knock":
        knocker = draw(st.sampled_from(players))
        outcome["knocker"] = knocker
        if draw(st.booleans()):
            outcome["knocker_lock_turns"] = draw(st.integers(0, 2))
        for name in players:
            hands[name] = held(name, knocker=name == knocker)
    elif kind == "dry_stock":
        for name in players:
            hands[name] = held(name)
    else:
        first, responder = draw(st.permutations(players))[:2]
        suit = draw(st.sampled_from("SHDC"))
        low = draw(st.integers(2, 8))
        run = [f"{r}{suit}" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10")[low - 2: low + 1]]
        after = [f"{r}{suit}" for r in ("5", "6", "7", "8", "9", "10", "J", "Q")[low - 2: low]]
        outcome.update(first_tonker=first, responder=responder, tonker_final_spread=take(run))
        hands[first] = {"cards": []}
        hands[responder] = {"cards": take(after) if draw(st.booleans()) else deal(2)}
    entry: dict[str, Any] = {"ruleset": spec, "players": players, "stake": stake, "outcome": outcome, "hands": hands}
    if rules.spade_side_pot and draw(st.booleans()):
        spades = [c for c in DECK if c.endswith("S")]
        participants = draw(st.lists(st.sampled_from(players), min_size=2, max_size=len(players), unique=True))
        shown = draw(st.lists(st.sampled_from(spades + [None]), min_size=len(participants), max_size=len(participants)))
        entry["side_bets"] = {"spade": {"side_stake": draw(st.integers(1, 500)), "highest_spade": dict(zip(participants, shown))}}
    return entry


def check_invariants(entry: dict[str, Any]) -> None:
    rules = RuleSet.from_spec(entry["ruleset"])
    record = parse_entry(entry)
    try:
        result = score_hand(rules, record)
    except HandError as err:
        assert err.code in ALL_CODES
        assert err.message
        event(f"refused: {err.code}")
        return
    event(f"scored: {result.kind}{' redeal' if result.redeal else ''}")
    stake = entry["stake"]
    players = entry["players"]
    n = len(players)
    assert sum(result.net.values()) == 0
    assert list(result.net) == players
    side = "side_bets" in entry
    for t in result.transfers:
        assert type(t.amount_minor) is int and t.amount_minor > 0
        if not side:
            assert t.amount_minor % stake == 0
            assert t.amount_minor <= 4 * stake
    if result.redeal:
        assert result.winners == ()
        if not side:
            assert result.transfers == ()
        return
    multiple_winners = result.detail.get("catch_tie") or result.detail.get("result") == "tie_single" or (
        result.kind == "dry_stock" and rules.dry_stock_tie == "all_lows_paid"
    )
    if not multiple_winners:
        assert len(result.winners) == 1
    assert result.winners
    if result.kind == "knock" and not side:
        knocker = entry["outcome"]["knocker"]
        if result.detail["result"] == "knocker_wins":
            assert result.net[knocker] == (n - 1) * result.detail["mult"] * stake
        elif result.detail["result"] == "knocker_caught":
            assert result.net[knocker] < 0
    if not side:
        for winner in result.winners:
            assert result.net[winner] > 0


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries())
def test_random_entries_keep_the_invariants(entry: dict[str, Any]) -> None:
    check_invariants(entry)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.data())
def test_every_preset_pays_plain_wins_as_specified(preset: str, data: st.DataObject) -> None:
    """Going out by discard pays 1S and a tonk out 2S under every preset (§4.11)."""
    players = NAMES[: data.draw(st.integers(2, 4))]
    stake = data.draw(st.integers(1, 10_000))
    winner = data.draw(st.sampled_from(players))
    for kind, mult in (("discard_out", 1), ("tonk_out", 2)):
        result = score_entry({
            "ruleset": {"preset": preset, "toggles": {}}, "players": players, "stake": stake,
            "outcome": {"kind": kind, "winner": winner}, "hands": {},
        })
        assert result.net[winner] == (len(players) - 1) * mult * stake
        assert all(t.payee == winner and t.amount_minor == mult * stake for t in result.transfers)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.floats(allow_nan=True) | st.text(max_size=6)
    | st.sampled_from(["AS", "10H", "JK", "knock", "Dee", "classic", "kind"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["kind", "winner", "knocker", "cards", "total", "claimants", "spreads", "Dee", "Rosa",
                         "outcome", "hands", "players", "stake", "ruleset", "preset", "toggles", "side_bets"]),
        inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(JSONISH)
def test_junk_is_refused_with_a_code_never_a_crash(junk: Any) -> None:
    try:
        score_entry(junk)
    except HandError as err:
        assert err.code in ALL_CODES


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mangled_entries_are_refused_with_a_code(data: st.DataObject) -> None:
    """A valid-looking entry with one part replaced by junk: a code, never an exception."""
    entry = data.draw(entries())
    path = data.draw(st.sampled_from(["stake", "players", "outcome", "hands", "ruleset"]))
    entry[path] = data.draw(JSONISH)
    try:
        score_entry(entry)
    except HandError as err:
        assert err.code in ALL_CODES


@given(st.sampled_from(list(full_deck())), st.sampled_from(["upper", "lower", "symbol", "outline", "emoji", "ten"]))
def test_every_accepted_notation_round_trips(card: Card, style: str) -> None:
    rank, suit = card.rank_text, card.suit
    outline = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
    text = {
        "upper": f"{rank}{suit}", "lower": f"{rank}{suit}".lower(), "symbol": f"{rank}{SUIT_SYMBOLS[suit]}",
        "outline": f"{rank}{outline[suit]}", "emoji": f"{rank}{SUIT_SYMBOLS[suit]}\ufe0f",
        "ten": f"{'T' if rank == '10' else rank}{suit}",
    }[style]
    parsed = Card.parse(text)
    assert parsed == card
    assert Card.parse(str(parsed)) == parsed


def test_a_refusal_is_english_when_printed_and_survives_pickling() -> None:
    """``str()`` of a refusal is its English sentence (put into words only when asked for),
    and a refusal pickled whole (as from a worker process) keeps its code, field and words."""
    entry = {"players": ["Dee", "Rosa"], "stake": 25, "outcome": {"kind": "discard_out", "winner": "Zed"},
             "hands": {}}
    with pytest.raises(HandError) as refused:
        score_entry(entry)
    err = refused.value
    assert (err.code, err.field, str(err)) == ("unknown_player", "outcome.winner", "Zed is not seated at this table.")
    assert repr(err) == "HandError('unknown_player', 'Zed is not seated at this table.', field='outcome.winner')"
    copy = pickle.loads(pickle.dumps(err))
    assert (type(copy), copy.code, copy.field, copy.params, str(copy)) == (
        HandError, "unknown_player", "outcome.winner", {"name": "Zed"}, "Zed is not seated at this table.")
