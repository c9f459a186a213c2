"""The record-a-hand form: its state, its steps, the Submission it builds, and where an engine
error is shown.

Every value lives in the form itself (visible inputs on the current step, hidden inputs for
the rest), so the flow works without JavaScript and "Edit" comes back with everything kept.
Players are referred to by seat index (``cards-0``, ``who=2``), never by name, so no player
name ever ends up in an HTML attribute name or id.

Steps: ``outcome`` (how the hand ended) → ``who`` (knocker / winner / claimants, dealer) →
``hands`` (each needed hand as a total or tapped cards) → ``side`` (the spade side pot, only
when the night plays it) → ``preview`` (the engine's payouts). Which hands are *needed*
follows RULES.md §8.1; whether they are right is the engine's call. Only what the night's rules
enable is asked: the double-double outcome, jokers (declared as a card in ``declared`` mode),
the final turn of a tonk out, an in-turn 49, the knocker's lock, the side pot.

:meth:`HandForm.from_entry` fills the form from a stored hand, for a correction (amend).

A tonk out or an out by discard asks for no hand, but the losers' cards may be entered on its
``who`` page (collapsed, optional); the engine then checks them. The ``whole`` step is every
step of an outcome on one page: the copy a phone keeps to enter a hand offline.

Building the §8.1 submission is :mod:`ledger.web.entry_submission`; placing the engine's
errors beside their inputs is :mod:`ledger.web.entry_errors`. The tables of words below are
marked for the catalogue (``N_``) and put into the request's language where they are read.
"""
from __future__ import annotations

import json

import secrets
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from werkzeug.datastructures import MultiDict

from ledger.i18n import N_, _
from ledger.money import format_plain
from ledger.games.tonk import Card, InvalidCard, RuleSet
from ledger.games.tonk.describe import OUTCOME_TITLES
from ledger.games.tonk.validation import total_range
from ledger.web.entry_errors import FINAL, EntryErrors
from ledger.web.entry_submission import EntrySubmission
from ledger.web.formatting import engine_words

OUTCOMES: tuple[str, ...] = ("deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock")
OPTIONAL_OUTCOMES: tuple[str, ...] = ("double_double",)
OUTCOME_HINTS = {
    "deal_tonk": N_("A dealt hand was shown before play"),
    "tonk_out": N_("Went out laying or hitting every card"),
    "discard_out": N_("Went out by discarding the last card"),
    "knock": N_("Someone dropped; everyone counts"),
    "dry_stock": N_("The stock ran out; lowest count"),
    "double_double": N_("Tonked out on a run another player could also go out on (4×)"),
}
WHO_LABELS = {
    "deal_tonk": N_("Who claimed a tonk on the deal?"),
    "tonk_out": N_("Who tonked out?"),
    "discard_out": N_("Who went out?"),
    "knock": N_("Who knocked?"),
    "double_double": N_("Who tonked out first?"),
}
STEP_BUTTONS = {
    "who": N_("Next: who"),
    "hands": N_("Next: the hands"),
    "side": N_("Next: side pot"),
    "preview": N_("Check payouts"),
}
CARD_TEXT = 12
WHOLE_STEP = "whole"
WENT_OUT = ("tonk_out", "discard_out")


def outcome_title(kind: str) -> str:
    """An outcome's name in the request's language ("Tonk out"); an unknown kind as its code."""
    return engine_words(OUTCOME_TITLES.get(kind, kind))


def outcome_hint(kind: str) -> str:
    """What an outcome means, in a few words of the request's language."""
    return _(OUTCOME_HINTS[kind]) if kind in OUTCOME_HINTS else ""


def new_key() -> str:
    return secrets.token_urlsafe(18)


def _card_texts(values: Iterable[str]) -> list[str]:
    return [c[:CARD_TEXT] for c in values if c and c.strip()][:60]


@dataclass
class HandForm(EntrySubmission, EntryErrors):
    """One hand being entered. Texts are kept exactly as typed; seats are indexes."""

    players: tuple[str, ...]
    rules: RuleSet
    key: str
    number: int | None = None
    kind: str | None = None
    dealer: int | None = None
    who: int | None = None
    responder: int | None = None
    claimants: list[int] = field(default_factory=list)
    totals: dict[int, str] = field(default_factory=dict)
    picked: dict[int, list[str]] = field(default_factory=dict)
    typed: dict[int, str] = field(default_factory=dict)
    final_picked: list[str] = field(default_factory=list)
    final_typed: str = ""
    lock_turns: str = ""
    spread_cards: str = ""
    hit_cards: str = ""
    before_drop: bool = False
    side_stake: str = ""
    side_in: list[int] = field(default_factory=list)
    spades: dict[int, str] = field(default_factory=dict)
    currency: str = "USD"
    seen_stake: int | None = None  # minor units: the stake this phone showed (None: a form from before)
    errors: dict[str, str] = field(default_factory=dict)
    bad_cards: dict[int | str, set[str]] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------
    @classmethod
    def blank(
        cls, players: Iterable[str], rules: RuleSet, dealer: str | None, number: int | None = None,
        *, currency: str = "USD", side_stake: int | None = None, side_players: Iterable[str] | None = None,
    ) -> HandForm:
        """A new entry for hand ``number`` (the number the phone saw when it started, so two
        phones cannot both record it), dealer pre-filled, with a fresh idempotency key.

        With the spade side pot on, ``side_stake`` (minor units) and ``side_players`` pre-fill
        the side-pot step (the last hand's, remembered by the caller); everyone plays by default.
        """
        seated = tuple(players)
        form = cls(seated, rules, new_key(), number=number, currency=currency,
                   dealer=seated.index(dealer) if dealer in seated else None)
        if rules.spade_side_pot:
            names = list(side_players) if side_players is not None else list(seated)
            form.side_in = [i for i, p in enumerate(seated) if p in names]
            if side_stake:
                form.side_stake = format_plain(side_stake, currency)
        return form

    @classmethod
    def from_form(
        cls, form: MultiDict[str, str], players: Iterable[str], rules: RuleSet, *, currency: str = "USD"
    ) -> HandForm:
        seated = tuple(players)

        def seat(value: Any) -> int | None:
            text = str(value or "")
            return int(text) if text.isdecimal() and len(text) < 4 and int(text) < len(seated) else None

        def seats(values: Iterable[str]) -> list[int]:
            return sorted({s for s in (seat(v) for v in values) if s is not None})

        kind = form.get("kind")
        return cls(
            players=seated,
            rules=rules,
            key=form.get("key") or new_key(),  # whole: a key is never cut (the ledger refuses a bad one)
            number=int(form["number"]) if (form.get("number") or "").isdecimal() and len(form["number"]) < 9 else None,
            kind=kind if kind in OUTCOMES + OPTIONAL_OUTCOMES else None,
            dealer=seat(form.get("dealer")),
            who=seat(form.get("who")),
            responder=seat(form.get("responder")),
            claimants=seats(form.getlist("claimant")),
            totals={i: form.get(f"total-{i}", "")[:20] for i in range(len(seated))},
            picked={i: _card_texts(form.getlist(f"cards-{i}")) for i in range(len(seated))},
            typed={i: form.get(f"typed-{i}", "")[:200] for i in range(len(seated))},
            final_picked=_card_texts(form.getlist(FINAL)),
            final_typed=form.get(f"typed-{FINAL}", "")[:200],
            lock_turns=form.get("lock_turns", "")[:8],
            spread_cards=form.get("spread_cards", "")[:8],
            hit_cards=form.get("hit_cards", "")[:8],
            before_drop=form.get("before_drop") == "yes",
            side_stake=form.get("side_stake", "")[:20],
            side_in=seats(form.getlist("side_in")),
            spades={i: form.get(f"spade-{i}", "")[:CARD_TEXT] for i in range(len(seated))},
            currency=currency,
        )

    @classmethod
    def from_entry(
        cls, players: Iterable[str], rules: RuleSet, entry: Mapping[str, Any], *, dealer: str | None,
        number: int | None, currency: str = "USD",
    ) -> HandForm:
        """The form as it would have been filled to record ``entry`` (a stored §8.1 entry:
        ``outcome``, ``hands``, ``side_bets``), for a correction. Cards the grid shows are
        tapped; anything else is kept as typed text."""
        seated = tuple(players)
        index = {name: i for i, name in enumerate(seated)}
        form = cls(seated, rules, new_key(), number=number, currency=currency, dealer=index.get(dealer or ""))
        outcome = entry.get("outcome") or {}
        kind = outcome.get("kind")
        form.kind = kind if kind in OUTCOMES + OPTIONAL_OUTCOMES else None
        for attr in ("winner", "knocker", "first_tonker"):
            if outcome.get(attr) in index:
                form.who = index[outcome[attr]]
        if outcome.get("responder") in index:
            form.responder = index[outcome["responder"]]
        form.claimants = sorted(index[c] for c in outcome.get("claimants") or [] if c in index)
        form.before_drop = outcome.get("declared_before_any_drop") is True
        if outcome.get("knocker_lock_turns") is not None:
            form.lock_turns = str(outcome["knocker_lock_turns"])
        turn = outcome.get("final_turn")
        if isinstance(turn, Mapping):
            form.spread_cards = str(turn.get("spread_cards", ""))
            form.hit_cards = str(turn.get("hit_cards", ""))
        form.final_picked, form.final_typed = form._split_cards(outcome.get("tonker_final_spread") or [])
        went_out = form.who if form.kind in ("tonk_out", "discard_out", "double_double") else None
        for name, hand in (entry.get("hands") or {}).items():
            seat = index.get(name)
            if seat is None or seat == went_out or not isinstance(hand, Mapping):
                continue
            if hand.get("cards") is not None:
                picked, typed = form._split_cards(hand["cards"])
                form.picked[seat], form.typed[seat] = picked, typed
            if hand.get("total") is not None:
                form.totals[seat] = str(hand["total"])
        spade = (entry.get("side_bets") or {}).get("spade") if isinstance(entry.get("side_bets"), Mapping) else None
        if isinstance(spade, Mapping):
            stake = spade.get("side_stake")
            form.side_stake = format_plain(stake, currency) if type(stake) is int and stake > 0 else str(stake or "")
            declared = spade.get("highest_spade") or {}
            form.side_in = sorted(index[n] for n in declared if n in index)
            form.spades = {index[n]: str(c or "") for n, c in declared.items() if n in index}
        return form

    def _split_cards(self, cards: Iterable[Any]) -> tuple[list[str], str]:
        """Stored card texts → (grid values, typed text) as the form would hold them."""
        picked, typed = [], []
        for text in cards:
            try:
                card = Card.parse(text)
            except InvalidCard:
                typed.append(str(text))
                continue
            if card.is_joker and card.declared is not None and not self.declares_jokers():
                typed.append(str(card))
            else:
                picked.append(str(card))
        return picked, " ".join(typed)

    # -- the flow -----------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return outcome_title(self.kind) if self.kind else _("Record a hand")

    @property
    def who_label(self) -> str:
        label = WHO_LABELS.get(self.kind or "")
        return _(label) if label else ""

    @property
    def many_claimants(self) -> bool:
        return self.kind == "deal_tonk"

    def available_outcomes(self) -> list[str]:
        """The outcomes this night's rules allow: the five of §4, plus a double-double when
        the house plays it at a table of this size (§4.9: two players unless extended)."""
        rules = self.rules
        double = rules.double_double and (not rules.double_double_two_player_only or len(self.players) == 2)
        return list(OUTCOMES) + (["double_double"] if double else [])

    def needed_seats(self) -> list[int]:
        """Seats whose hands are entered (§8.1): claimants' dealt hands for a deal tonk, every
        hand for a knock or dry stock, the responder's for a double-double, none when someone
        went out."""
        if self.kind == "deal_tonk":
            return list(self.claimants)
        if self.kind in ("knock", "dry_stock"):
            return list(range(len(self.players)))
        if self.kind == "double_double":
            return [self.responder] if self.responder is not None else []
        return []

    def optional_seats(self) -> list[int]:
        """Seats whose cards may be entered though the payout does not need them (§8.1: other
        hands are optional but checked when present): every seat of a tonk out or an out by
        discard, on its ``who`` page. The winner is among them because the page is drawn before
        a winner is picked; a winner's cards are refused by the engine (``winner_has_cards``)."""
        return list(range(len(self.players))) if self.kind in WENT_OUT else []

    def entered_seats(self) -> list[int]:
        """Seats whose hands the page may carry to the engine: needed ones, then optional ones."""
        needed = self.needed_seats()
        return needed + [s for s in self.optional_seats() if s not in needed]

    def possible_seats(self) -> list[int]:
        """Seats with a hand on the ``whole`` page: every seat that could be needed once the
        who-fields are filled in (any claimant, any responder), or optional."""
        return list(range(len(self.players))) if self.kind else []

    def hands_step(self) -> str:
        """The step whose page shows the hands: ``hands``, or ``who`` for the optional hands."""
        return "hands" if "hands" in self.steps() else "who"

    def totals_allowed(self) -> bool:
        """A deal tonk is claimed by showing the cards, and a double-double responder's cards
        must fit the run, so only cards are asked for there."""
        return self.kind not in ("deal_tonk", "double_double")

    def total_bounds(self) -> tuple[int, int]:
        """``(min, max)`` of a total field: :func:`ledger.games.tonk.validation.total_range` of this
        kind of hand, as wide as a knocker's (the page may not know yet who knocked); the
        server checks each hand's own range."""
        return total_range(self.rules, self.kind or "", knocker=True)

    def asks_final_spread(self) -> bool:
        return self.kind == "double_double"

    def asks_side_pot(self) -> bool:
        return self.rules.spade_side_pot

    def declares_jokers(self) -> bool:
        """Jokers are entered as the card they stand for (``JK=QH``)."""
        return bool(self.rules.jokers) and self.rules.joker_value_mode == "declared"

    def steps(self) -> list[str]:
        """``outcome`` → ``who`` (not for a dry stock; for a knock it sits on the hands page,
        so a knock takes one page) → ``hands`` → ``side`` → ``preview``."""
        out = ["outcome"]
        if self.kind not in ("dry_stock", "knock"):
            out.append("who")
        if self.kind in ("deal_tonk", "knock", "dry_stock", "double_double"):
            out.append("hands")
        if self.asks_side_pot():
            out.append("side")
        out.append("preview")
        return out

    def next_step(self, step: str) -> str:
        """The step the "next" button of ``step`` leads to (``preview``: the payouts), for a page
        that must tell the steps apart whatever language the button's words are in."""
        steps = self.steps()
        here = steps.index(step) if step in steps else len(steps) - 2  # ``whole``: the last one
        return steps[min(here + 1, len(steps) - 1)]

    def next_label(self, step: str) -> str:
        """The words on the "next" button of ``step``, in the request's language."""
        label = STEP_BUTTONS.get(self.next_step(step))
        return _(label) if label else _("Next")

    def dealer_step(self) -> str:
        return "who" if "who" in self.steps() else "hands"

    def asks_lock_turns(self) -> bool:
        return self.kind == "knock" and self.rules.hit_penalty_turns_per_hit > 0

    def asks_final_turn(self) -> bool:
        return self.kind == "tonk_out" and self.rules.tonk_out_double_requires != "any"

    def asks_before_drop(self) -> bool:
        return self.kind == "deal_tonk" and self.rules.deal_tonk_49_timing == "in_turn"

    def visible_groups(self, step: str) -> set[str]:
        """Which groups of fields the page for ``step`` shows as real inputs (``whole``: all
        the steps' groups on one page)."""
        if step == WHOLE_STEP:
            groups = {"dealer", "extras"} | {f"hand-{i}" for i in self.possible_seats()}
            groups |= {"who"} if self.kind != "dry_stock" else set()
            groups |= {FINAL} if self.asks_final_spread() else set()
            return groups | ({"side"} if self.asks_side_pot() else set())
        groups = set()
        if step == "who" or (step == "hands" and self.kind == "knock"):
            groups |= {"who", "extras"}
        if step == "who":
            groups |= {f"hand-{i}" for i in self.optional_seats()}
        if step == "hands":
            groups |= {f"hand-{i}" for i in self.needed_seats()}
            if self.asks_final_spread():
                groups.add(FINAL)
        if step == "side":
            groups.add("side")
        if step == self.dealer_step() and step in ("who", "hands"):
            groups.add("dealer")
        return groups

    def hidden_fields(self, step: str) -> list[tuple[str, str]]:
        """``(name, value)`` of every value the page for ``step`` does not show."""
        visible = self.visible_groups(step)
        out: list[tuple[str, str]] = [("key", self.key)]
        # the table this hand is entered against: the seats are read by these names, and the
        # ledger refuses the hand if the seating or the stake changed meanwhile (table_changed)
        out.append(("seats", json.dumps(list(self.players), ensure_ascii=False)))
        if self.seen_stake is not None:
            out.append(("seen_stake", str(self.seen_stake)))
        if self.number is not None:
            out.append(("number", str(self.number)))
        if self.kind and step != "outcome":
            out.append(("kind", self.kind))
        if "dealer" not in visible and self.dealer is not None:
            out.append(("dealer", str(self.dealer)))
        if "who" not in visible:
            if self.who is not None:
                out.append(("who", str(self.who)))
            if self.responder is not None:
                out.append(("responder", str(self.responder)))
            out += [("claimant", str(s)) for s in self.claimants]
        if "extras" not in visible:
            out += [(n, v) for n, v in (
                ("lock_turns", self.lock_turns), ("spread_cards", self.spread_cards),
                ("hit_cards", self.hit_cards),
            ) if v]
            if self.before_drop:
                out.append(("before_drop", "yes"))
        for i in range(len(self.players)):
            if f"hand-{i}" in visible:
                continue
            if self.totals.get(i):
                out.append((f"total-{i}", self.totals[i]))
            out += [(f"cards-{i}", c) for c in self.picked.get(i, [])]
            if self.typed.get(i):
                out.append((f"typed-{i}", self.typed[i]))
        if FINAL not in visible:
            out += [(FINAL, c) for c in self.final_picked]
            if self.final_typed:
                out.append((f"typed-{FINAL}", self.final_typed))
        if "side" not in visible and self.asks_side_pot():
            if self.side_stake:
                out.append(("side_stake", self.side_stake))
            out += [("side_in", str(s)) for s in self.side_in]
            out += [(f"spade-{i}", v) for i, v in sorted(self.spades.items()) if v]
        return out

    def picked_count(self, seat: int, value: str) -> int:
        return self.picked.get(seat, []).count(value)

    def joker_choice(self, seat: int, slot: int) -> str:
        """In ``declared`` mode, what the ``slot``-th joker (1-based) of ``seat`` is entered as
        (``""`` when not held, ``JK``, ``JK=QH``)."""
        jokers = [c for c in self.picked.get(seat, []) if c.upper().startswith("JK")]
        return jokers[slot - 1] if slot <= len(jokers) else ""

    def spade_of(self, seat: int) -> str:
        return self.spades.get(seat, "")
