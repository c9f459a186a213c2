"""The record-a-hand form: its state, its steps, the Submission it builds, and where an engine
error is shown.

Every value lives in the form itself (visible inputs on the current step, hidden inputs for
the rest), so the flow works without JavaScript and "Edit" comes back with everything kept.
Players are referred to by seat index (``cards-0``, ``who=2``), never by name, so no player
name ever ends up in an HTML attribute name or id.

Steps: ``outcome`` (how the hand ended) → ``who`` (knocker / winner / claimants, dealer) →
``hands`` (each needed hand as a total or tapped cards) → ``preview`` (the engine's payouts).
Which hands are *needed* follows RULES.md §8.1; whether they are right is the engine's call.
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Iterable

from werkzeug.datastructures import MultiDict

from ledger.night import Submission
from ledger.rules import HandError, RuleSet
from ledger.rules.describe import OUTCOME_TITLES

OUTCOMES: tuple[str, ...] = ("deal_tonk", "tonk_out", "discard_out", "knock", "dry_stock")
OUTCOME_HINTS = {
    "deal_tonk": "A dealt hand was shown before play",
    "tonk_out": "Went out laying or hitting every card",
    "discard_out": "Went out by discarding the last card",
    "knock": "Someone dropped; everyone counts",
    "dry_stock": "The stock ran out; lowest count",
}
WHO_LABELS = {
    "deal_tonk": "Who claimed a tonk on the deal?",
    "tonk_out": "Who tonked out?",
    "discard_out": "Who went out?",
    "knock": "Who knocked?",
}
KEY_LENGTH = 80
SPLIT_TYPED = re.compile(r"[\s,;]+")
WHOLE = re.compile(r"[0-9]{1,4}")
WHO_STEP_KEYS = frozenset({"who", "lock_turns", "final_turn", "before_drop"})


def outcome_title(kind: str) -> str:
    return OUTCOME_TITLES.get(kind, kind)


def new_key() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class HandForm:
    """One hand being entered. Texts are kept exactly as typed; seats are indexes."""

    players: tuple[str, ...]
    rules: RuleSet
    key: str
    number: int | None = None
    kind: str | None = None
    dealer: int | None = None
    who: int | None = None
    claimants: list[int] = field(default_factory=list)
    totals: dict[int, str] = field(default_factory=dict)
    picked: dict[int, list[str]] = field(default_factory=dict)
    typed: dict[int, str] = field(default_factory=dict)
    lock_turns: str = ""
    spread_cards: str = ""
    hit_cards: str = ""
    before_drop: bool = False
    errors: dict[str, str] = field(default_factory=dict)
    bad_cards: dict[int, set[str]] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------
    @classmethod
    def blank(
        cls, players: Iterable[str], rules: RuleSet, dealer: str | None, number: int | None = None
    ) -> HandForm:
        """A new entry for hand ``number`` (the number the phone saw when it started, so two
        phones cannot both record it), dealer pre-filled, with a fresh idempotency key."""
        seated = tuple(players)
        return cls(seated, rules, new_key(), number=number,
                   dealer=seated.index(dealer) if dealer in seated else None)

    @classmethod
    def from_form(cls, form: MultiDict[str, str], players: Iterable[str], rules: RuleSet) -> HandForm:
        seated = tuple(players)

        def seat(value: Any) -> int | None:
            text = str(value or "")
            return int(text) if text.isdigit() and int(text) < len(seated) else None

        kind = form.get("kind")
        claimants = sorted({s for s in (seat(v) for v in form.getlist("claimant")) if s is not None})
        return cls(
            players=seated,
            rules=rules,
            key=(form.get("key") or "")[:KEY_LENGTH] or new_key(),
            number=int(form["number"]) if (form.get("number") or "").isdigit() and len(form["number"]) < 9 else None,
            kind=kind if kind in OUTCOMES else None,
            dealer=seat(form.get("dealer")),
            who=seat(form.get("who")),
            claimants=claimants,
            totals={i: form.get(f"total-{i}", "")[:20] for i in range(len(seated))},
            picked={i: [c[:12] for c in form.getlist(f"cards-{i}")][:60] for i in range(len(seated))},
            typed={i: form.get(f"typed-{i}", "")[:200] for i in range(len(seated))},
            lock_turns=form.get("lock_turns", "")[:8],
            spread_cards=form.get("spread_cards", "")[:8],
            hit_cards=form.get("hit_cards", "")[:8],
            before_drop=form.get("before_drop") == "yes",
        )

    # -- the flow -----------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return outcome_title(self.kind) if self.kind else "Record a hand"

    @property
    def who_label(self) -> str:
        return WHO_LABELS.get(self.kind or "", "")

    @property
    def many_claimants(self) -> bool:
        return self.kind == "deal_tonk"

    def needed_seats(self) -> list[int]:
        """Seats whose hands are entered (§8.1): claimants' dealt hands for a deal tonk, every
        hand for a knock or dry stock, none when someone went out."""
        if self.kind == "deal_tonk":
            return list(self.claimants)
        if self.kind in ("knock", "dry_stock"):
            return list(range(len(self.players)))
        return []

    def totals_allowed(self) -> bool:
        """A deal tonk is claimed by showing the cards, so only cards are asked for."""
        return self.kind != "deal_tonk"

    def steps(self) -> list[str]:
        out = ["outcome"]
        if self.kind != "dry_stock":
            out.append("who")
        if self.kind in ("deal_tonk", "knock", "dry_stock"):
            out.append("hands")
        out.append("preview")
        return out

    def dealer_step(self) -> str:
        return "who" if "who" in self.steps() else "hands"

    def asks_lock_turns(self) -> bool:
        return self.kind == "knock" and self.rules.hit_penalty_turns_per_hit > 0

    def asks_final_turn(self) -> bool:
        return self.kind == "tonk_out" and self.rules.tonk_out_double_requires != "any"

    def asks_before_drop(self) -> bool:
        return self.kind == "deal_tonk" and self.rules.deal_tonk_49_timing == "in_turn"

    def visible_groups(self, step: str) -> set[str]:
        """Which groups of fields the page for ``step`` shows as real inputs."""
        groups: set[str] = set()
        if step == "who":
            groups |= {"who", "extras"}
        if step == "hands":
            groups |= {f"hand-{i}" for i in self.needed_seats()}
        if step == self.dealer_step() and step in ("who", "hands"):
            groups.add("dealer")
        return groups

    def hidden_fields(self, step: str) -> list[tuple[str, str]]:
        """``(name, value)`` of every value the page for ``step`` does not show."""
        visible = self.visible_groups(step)
        out: list[tuple[str, str]] = [("key", self.key)]
        if self.number is not None:
            out.append(("number", str(self.number)))
        if self.kind and step != "outcome":
            out.append(("kind", self.kind))
        if "dealer" not in visible and self.dealer is not None:
            out.append(("dealer", str(self.dealer)))
        if "who" not in visible:
            if self.who is not None:
                out.append(("who", str(self.who)))
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
        return out

    def picked_count(self, seat: int, value: str) -> int:
        return self.picked.get(seat, []).count(value)

    # -- building the entry -------------------------------------------------------------------
    def typed_cards(self, seat: int) -> list[str]:
        return [t for t in SPLIT_TYPED.split(self.typed.get(seat, "")) if t]

    def cards_of(self, seat: int) -> list[str]:
        """Tapped cards (deck order) then typed ones, as sent to the engine."""
        return list(self.picked.get(seat, [])) + self.typed_cards(seat)

    def submission(self) -> Submission | None:
        """The §8.1 submission, or ``None`` with ``errors`` set when a number is not a number
        (the only checks made here; every rule is the engine's)."""
        self.errors = {}
        self.bad_cards = {}
        players = self.players
        outcome: dict[str, Any] = {"kind": self.kind}
        hands: dict[str, Any] = {}
        if self.kind == "deal_tonk":
            if self.claimants:
                outcome["claimants"] = [players[s] for s in self.claimants]
            if self.asks_before_drop() and self.before_drop:
                outcome["declared_before_any_drop"] = True
        elif self.kind in ("tonk_out", "discard_out"):
            if self.who is not None:
                outcome["winner"] = players[self.who]
                hands[players[self.who]] = {"cards": []}
            if self.asks_final_turn() and (self.spread_cards.strip() or self.hit_cards.strip()):
                spread = self._whole(self.spread_cards or "0", "final_turn")
                hit = self._whole(self.hit_cards or "0", "final_turn")
                if spread is not None and hit is not None:
                    outcome["final_turn"] = {"spread_cards": spread, "hit_cards": hit}
        elif self.kind == "knock":
            if self.who is not None:
                outcome["knocker"] = players[self.who]
            if self.asks_lock_turns() and self.lock_turns.strip():
                lock = self._whole(self.lock_turns, "lock_turns")
                if lock is not None:
                    outcome["knocker_lock_turns"] = lock
        for seat in self.needed_seats():
            hand: dict[str, Any] = {}
            cards = self.cards_of(seat)
            if cards:
                hand["cards"] = cards
            total_text = self.totals.get(seat, "").strip()
            if total_text and self.totals_allowed():
                total = self._whole(total_text, f"total-{seat}")
                if total is not None:
                    hand["total"] = total
            if hand:
                hands[players[seat]] = hand
        if self.dealer is None:
            self.errors["dealer"] = "Choose who dealt this hand."
        if self.errors:
            return None
        return Submission(
            outcome=outcome,
            hands=hands,
            dealer=players[self.dealer] if self.dealer is not None else None,
            idempotency_key=self.key,
            number=self.number,
        )

    def _whole(self, text: str, where: str) -> int | None:
        cleaned = text.strip()
        if WHOLE.fullmatch(cleaned):
            return int(cleaned)
        self.errors[where] = f"“{cleaned}” is not a whole number; type digits only, like 12."
        return None

    # -- errors -------------------------------------------------------------------------------
    def error_anchor(self) -> str | None:
        """The HTML id of the part of the page that shows the first error (for a jump link)."""
        for key in self.errors:
            prefix, _, seat = key.partition("-")
            if prefix in ("hand", "total", "cards", "typed") and seat.isdigit():
                return f"seat-{seat}"
            if key in ("who", "dealer", "lock_turns", "final_turn", "before_drop"):
                return f"field-{key}"
        return None

    def error_subject(self) -> str:
        """Where the first error is, in words ("Marcus's hand", "the dealer")."""
        for key in self.errors:
            prefix, _, seat = key.partition("-")
            if prefix in ("hand", "total", "cards", "typed") and seat.isdigit():
                return f"{self.players[int(seat)]}’s hand"
            if key == "who":
                return "who " + {"knock": "knocked", "deal_tonk": "claimed"}.get(self.kind or "", "went out")
            if key == "dealer":
                return "the dealer"
        return "this step"

    def step_with_errors(self, current: str) -> str:
        """The step that shows the first error in ``errors`` (always one of :meth:`steps`)."""
        keys = set(self.errors)
        steps = self.steps()
        fallback = current if current in steps and current != "preview" else steps[-2]
        if "kind" in keys:
            wanted = "outcome"
        elif keys & WHO_STEP_KEYS:
            wanted = "who"
        elif "dealer" in keys:
            wanted = self.dealer_step()
        elif any(k.split("-")[0] in ("hand", "total", "cards", "typed") for k in keys):
            wanted = "hands"
        else:
            wanted = fallback
        return wanted if wanted in steps else fallback

    def place_error(self, err: HandError) -> str:
        """Put the engine's message beside the input its ``field`` names; returns that input's
        key (``who``, ``total-1``, ``cards-0``...) or ``form`` for the page as a whole."""
        key = self._key_for(err.field)
        self.errors[key] = err.message
        return key

    def _key_for(self, path: str | None) -> str:
        if not path:
            return "form"
        if path == "dealer":
            return "dealer"
        if path.startswith("outcome."):
            name = path[len("outcome."):]
            if name.startswith(("knocker_lock_turns",)):
                return "lock_turns"
            if name.startswith("final_turn"):
                return "final_turn"
            if name.startswith("declared_before_any_drop"):
                return "before_drop"
            if name.startswith(("knocker", "winner", "claimants", "claimed")):
                return "who"
            if name == "kind":
                return "kind"
            return "form"
        if path.startswith("hands."):
            return self._hand_key(path[len("hands."):])
        return "form"

    def _hand_key(self, rest: str) -> str:
        # Names may contain dots: take the longest seated name that prefixes the path.
        matches = [
            (len(name), seat) for seat, name in enumerate(self.players)
            if rest == name or rest.startswith(name + ".")
        ]
        if not matches:
            return "form"
        _, seat = max(matches)
        if seat not in self.needed_seats():
            return "form"
        tail = rest[len(self.players[seat]) + 1:]
        if tail == "total":
            return f"total-{seat}" if self.totals_allowed() else f"hand-{seat}"
        if tail.startswith("cards["):
            index_text = tail[len("cards["):].rstrip("]")
            if index_text.isdigit():
                index = int(index_text)
                picked = self.picked.get(seat, [])
                if index < len(picked):
                    self.bad_cards.setdefault(seat, set()).add(picked[index])
                    return f"cards-{seat}"
                return f"typed-{seat}"
            return f"cards-{seat}"
        if tail.startswith("cards"):
            return f"cards-{seat}"
        return f"hand-{seat}"
