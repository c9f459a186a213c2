"""What the phone asks for one Tong-its hand (TONGITS.md §4, §8.1), and the entry it makes.

The first module of the Tong-its record flow (then :mod:`ledger.web.tongits_record` renders the
page or saves, through ``templates/record_tongits.html``): it asks the night's rules what a
hand of each outcome needs and nothing more.

* ``tongits``: the winner; whether a loser was burned (*sunog*) only when the rules charge for
  it (``burn_extra``); the winner's aces, kings, secrets and escaleras only when the rules pay
  for them on a tong-its (``bonuses_on_tongits``). Outcome, winner, "Check payouts", "Save":
  four taps.
* ``draw`` (*laban*): who called, every other player's answer (fight, fold, or folded with no
  meld shown: ``auto_fold``, burned), the points of the caller and of every fighter (typed,
  or the cards left in hand, optional).
* ``stock_out``: who drew the last card, every player's points, and who showed no meld.
* ``redeal``: nothing.

Bonus counts (aces, kings, secrets, escaleras) are asked in a folded part, only for the
bonuses the rules pay. Players are referred to by seat index (``total-1``), never by name. The
dealer is not asked: Tong-its deals by rule (§2.3) and the ledger knows who deals. Every value
is in the form itself (hidden inputs on the payouts page), so the flow works without
JavaScript and the offline queue keeps and sends it like a Tonk entry. Only what is not a rule
is checked here (a number that is not a number); every rule is the engine's (§9.1), and its
refusal is shown beside the input its field names.
"""
from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ledger.games.errors import HandError
from ledger.games.tongits import TongitsRules
from ledger.games.tongits.describe import outcome_title as tongits_title
from ledger.i18n import N_, _
from ledger.night.lifecycle import Submission

OUTCOMES: tuple[str, ...] = ("tongits", "draw", "stock_out", "redeal")
ANSWERS: tuple[str, ...] = ("fight", "fold", "auto_fold")
COUNTS: tuple[str, ...] = ("aces", "kings", "secrets", "escaleras")
OUTCOME_HINTS = {
    "tongits": N_("Went out: every card in melds and sapaw"),
    "draw": N_("Someone called a fight; the others fought or folded"),
    "stock_out": N_("The stock ran out; lowest points among the opened"),
    "redeal": N_("Misdeal: the same dealer deals again, nobody pays"),
}
WHO_LABELS = {
    "tongits": N_("Who went out (tong-its)?"),
    "draw": N_("Who called the draw (laban)?"),
    "stock_out": N_("Who drew the last card of the stock?"),
}
ANSWER_LABELS = {
    "fight": N_("Fights (laban)"),
    "fold": N_("Folds"),
    "auto_fold": N_("No meld: burned (sunog)"),
}
COUNT_LABELS = {
    "aces": N_("Aces"),
    "kings": N_("Kings"),
    "secrets": N_("Secrets"),
    "escaleras": N_("Escaleras"),
}
WHOLE = re.compile(r"[0-9]{1,3}")
SPLIT_CARDS = re.compile(r"[\s,;]+")
CARD_TEXT = 200


def outcome_title(kind: str) -> str:
    """A Tong-its outcome's name in the request's language ("Draw (laban)")."""
    return str(tongits_title(kind))


def outcome_hint(kind: str) -> str:
    return _(OUTCOME_HINTS[kind]) if kind in OUTCOME_HINTS else ""


def new_key() -> str:
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class Correction:
    """A correction of hand ``number`` at ``version`` (host only): where the page posts
    (``action``), where "Cancel" and the saved correction lead (``back``), its stored
    ``entry`` and ``dealer`` (of the version now recorded)."""

    number: int
    version: int
    action: str
    back: str
    entry: dict[str, Any]
    dealer: str


@dataclass
class TongitsForm:
    """One Tong-its hand being entered: texts kept exactly as typed, players as seat indexes."""

    players: tuple[str, ...]
    rules: TongitsRules
    key: str
    number: int | None = None
    kind: str | None = None
    who: int | None = None  # the winner (tongits), the caller (draw) or the last drawer (stock_out)
    answers: dict[int, str] = field(default_factory=dict)
    totals: dict[int, str] = field(default_factory=dict)
    cards: dict[int, str] = field(default_factory=dict)
    burned: set[int] = field(default_factory=set)
    counts: dict[tuple[int, str], str] = field(default_factory=dict)
    seen_stake: int | None = None
    errors: dict[str, str] = field(default_factory=dict)

    # -- reading ------------------------------------------------------------------------------
    @classmethod
    def blank(cls, players: Iterable[str], rules: TongitsRules, number: int | None, *,
              seen_stake: int | None = None) -> TongitsForm:
        """A new entry for hand ``number`` with a fresh idempotency key."""
        return cls(tuple(players), rules, new_key(), number=number, seen_stake=seen_stake)

    @classmethod
    def from_form(cls, values: Mapping[str, str], players: Iterable[str], rules: TongitsRules) -> TongitsForm:
        """The form as a step sent it (a GET's query or a POST's form)."""
        seated = tuple(players)

        def seat(value: Any) -> int | None:
            text = str(value or "")
            return int(text) if text.isdecimal() and len(text) < 3 and int(text) < len(seated) else None

        kind = values.get("kind")
        number = values.get("number") or ""
        stake = values.get("seen_stake") or ""
        form = cls(
            players=seated, rules=rules, key=(values.get("key") or new_key())[:200],
            number=int(number) if number.isdecimal() and len(number) < 9 else None,
            kind=kind if kind in OUTCOMES else None,
            who=seat(values.get("who")),
            seen_stake=int(stake) if stake.isdecimal() and len(stake) <= 10 else None,
        )
        for i in range(len(seated)):
            answer = values.get(f"answer-{i}")
            if answer in ANSWERS:
                form.answers[i] = answer
            form.totals[i] = str(values.get(f"total-{i}", ""))[:20]
            form.cards[i] = str(values.get(f"cards-{i}", ""))[:CARD_TEXT]
            if values.get(f"burned-{i}") == "yes":
                form.burned.add(i)
            for count in COUNTS:
                text = str(values.get(f"{count}-{i}", ""))[:8]
                if text:
                    form.counts[(i, count)] = text
        return form

    @classmethod
    def from_entry(cls, players: Iterable[str], rules: TongitsRules, entry: Mapping[str, Any],
                   number: int | None) -> TongitsForm:
        """The form as it would have been filled to record ``entry`` (a stored §8.1 entry), for
        a correction, with a fresh key."""
        seated = tuple(players)
        index = {name: i for i, name in enumerate(seated)}
        form = cls(seated, rules, new_key(), number=number)
        outcome = entry.get("outcome") or {}
        form.kind = outcome.get("kind") if outcome.get("kind") in OUTCOMES else None
        for attr in ("winner", "caller", "last_drawer"):
            if outcome.get(attr) in index:
                form.who = index[outcome[attr]]
        for name, answer in (outcome.get("responses") or {}).items():
            if name in index and answer in ANSWERS:
                form.answers[index[name]] = answer
        for name, hand in (entry.get("hands") or {}).items():
            seat = index.get(name)
            if seat is None or not isinstance(hand, Mapping):
                continue
            if type(hand.get("total")) is int:
                form.totals[seat] = str(hand["total"])
            if isinstance(hand.get("cards"), list):
                form.cards[seat] = " ".join(str(c) for c in hand["cards"])
            if hand.get("opened") is False:
                form.burned.add(seat)
            for count in COUNTS:
                if type(hand.get(count)) is int and hand[count]:
                    form.counts[(seat, count)] = str(hand[count])
        return form

    def at_table_now(self, players: Iterable[str], stake_minor: int) -> TongitsForm:
        """This form moved to the seating and stake the night has now (the host seated someone,
        let someone leave or changed the stake since it was filled): every answer follows its
        person to their seat now; a person no longer seated is dropped."""
        now = tuple(players)
        where = {i: now.index(p) for i, p in enumerate(self.players) if p in now}
        moved = TongitsForm(now, self.rules, self.key, number=self.number, kind=self.kind,
                            who=where.get(self.who) if self.who is not None else None, seen_stake=stake_minor)
        moved.answers = {where[i]: a for i, a in self.answers.items() if i in where}
        moved.totals = {where[i]: t for i, t in self.totals.items() if i in where}
        moved.cards = {where[i]: c for i, c in self.cards.items() if i in where}
        moved.burned = {where[i] for i in self.burned if i in where}
        moved.counts = {(where[i], c): v for (i, c), v in self.counts.items() if i in where}
        return moved

    # -- what to ask --------------------------------------------------------------------------
    @property
    def title(self) -> str:
        return outcome_title(self.kind) if self.kind else _("Record a hand")

    @property
    def who_label(self) -> str:
        label = WHO_LABELS.get(self.kind or "")
        return _(label) if label else ""

    def outcomes(self) -> list[tuple[str, str, str]]:
        """``(kind, title, hint)`` of every outcome a hand can have (§4), in the request's language."""
        return [(k, outcome_title(k), outcome_hint(k)) for k in OUTCOMES]

    def asks_who(self) -> bool:
        return self.kind in WHO_LABELS

    def answer_choices(self) -> list[tuple[str, str]]:
        """The answers to a draw (§4.2): ``(value, words)``."""
        return [(a, _(ANSWER_LABELS[a])) for a in ANSWERS]

    def answer_of(self, seat: int) -> str:
        return self.answers.get(seat, "fold")

    def asks_answers(self) -> bool:
        return self.kind == "draw"

    def asks_points(self) -> bool:
        """Points are typed per player for a draw (caller and fighters) and a stock out (everyone)."""
        return self.kind in ("draw", "stock_out")

    def asks_burned(self) -> bool:
        """Who showed no meld (§4.5): in a stock out always (a burned player cannot win); in a
        tong-its only when the rules charge the burned extra (``burn_extra``); in a draw the
        answer ``auto_fold`` says it."""
        if self.kind == "stock_out":
            return True
        return self.kind == "tongits" and self.rules.burn_extra > 0

    def asked_counts(self) -> list[tuple[str, str]]:
        """The bonus counts (§5.3, §5.4) the rules pay for in this outcome: ``(count, words)``."""
        if self.kind not in ("tongits", "draw", "stock_out"):
            return []
        rules = self.rules
        winner_bonuses = self.kind != "tongits" or rules.bonuses_on_tongits
        pays = {
            "aces": winner_bonuses and rules.ace_bonus > 0,
            "kings": winner_bonuses and rules.king_bonus > 0,
            "secrets": (winner_bonuses and rules.secret_bonus > 0) or rules.loser_secret_bonus > 0
            or (self.kind == "draw" and rules.secret_allows_fight),
            "escaleras": winner_bonuses and rules.escalera_bonus > 0,
        }
        return [(c, _(COUNT_LABELS[c])) for c in COUNTS if pays[c]]

    def count_of(self, seat: int, count: str) -> str:
        return self.counts.get((seat, count), "")

    def has_counts(self) -> bool:
        return any(v.strip() for v in self.counts.values())

    def count_errors(self) -> bool:
        return any(key.split("-")[0] in COUNTS for key in self.errors)

    # -- the page's hidden state ----------------------------------------------------------------
    def hidden_fields(self, *, everything: bool) -> list[tuple[str, str]]:
        """``(name, value)`` the page carries: the table it was entered against, and (on the
        payouts page, ``everything``) every answer, so "Save" and "Edit" have it all."""
        out: list[tuple[str, str]] = [("key", self.key), ("seats", json.dumps(list(self.players), ensure_ascii=False))]
        if self.seen_stake is not None:
            out.append(("seen_stake", str(self.seen_stake)))
        if self.number is not None:
            out.append(("number", str(self.number)))
        if self.kind:
            out.append(("kind", self.kind))
        if not everything:
            return out
        if self.who is not None:
            out.append(("who", str(self.who)))
        for i in range(len(self.players)):
            if self.kind == "draw" and i in self.answers:
                out.append((f"answer-{i}", self.answers[i]))
            if self.totals.get(i):
                out.append((f"total-{i}", self.totals[i]))
            if self.cards.get(i):
                out.append((f"cards-{i}", self.cards[i]))
            if i in self.burned:
                out.append((f"burned-{i}", "yes"))
            for count in COUNTS:
                if self.counts.get((i, count)):
                    out.append((f"{count}-{i}", self.counts[(i, count)]))
        return out

    # -- the entry ----------------------------------------------------------------------------
    def submission(self) -> Submission | None:
        """The entry (§8.1 ``outcome`` and ``hands``), or ``None`` with ``errors`` set when a
        typed number is not a number. The dealer is left to the ledger (§2.3)."""
        self.errors = {}
        names = self.players
        kind = self.kind
        outcome: dict[str, Any] = {"kind": kind}
        hands: dict[str, dict[str, Any]] = {}
        who = names[self.who] if self.who is not None else None
        if kind == "tongits" and who is not None:
            outcome["winner"] = who
        elif kind == "draw":
            if who is not None:
                outcome["caller"] = who
                outcome["responses"] = {names[i]: self.answer_of(i) for i in range(len(names)) if i != self.who}
        elif kind == "stock_out" and who is not None:
            outcome["last_drawer"] = who
        if kind in ("tongits", "draw", "stock_out"):
            asked = {c for c, _words in self.asked_counts()}
            for i, name in enumerate(names):
                hand = self._hand(i, asked)
                if hand:
                    hands[name] = hand
        if self.errors:
            return None
        return Submission(
            outcome=outcome, hands=hands, side_bets=None, dealer=None, idempotency_key=self.key,
            number=self.number, seen_players=tuple(names) if self.seen_stake is not None else None,
            seen_stake_minor=self.seen_stake,
        )

    def _hand(self, seat: int, asked: set[str]) -> dict[str, Any]:
        """One player's hand entry: points typed (or the cards left), burned, bonus counts."""
        hand: dict[str, Any] = {}
        points_wanted = self.asks_points() and not (self.kind == "draw" and self.answer_of(seat) == "auto_fold")
        if points_wanted:
            cards = [c for c in SPLIT_CARDS.split(self.cards.get(seat, "").strip()) if c]
            if cards:
                hand["cards"] = cards
            total = self._whole(self.totals.get(seat, ""), f"total-{seat}")
            if total is not None:
                hand["total"] = total
        if self.asks_burned():
            if seat in self.burned:
                hand["opened"] = False
            elif self.kind == "stock_out":
                hand["opened"] = True
        for count in asked:
            value = self._whole(self.counts.get((seat, count), ""), f"{count}-{seat}")
            if value:
                hand[count] = value
        return hand

    def _whole(self, text: str, where: str) -> int | None:
        cleaned = text.strip()
        if not cleaned:
            return None
        if WHOLE.fullmatch(cleaned):
            return int(cleaned)
        self.errors[where] = _("“{text}” is not a whole number; type digits only, like 12.", text=cleaned)
        return None

    # -- the engine's refusals ----------------------------------------------------------------
    def place_error(self, err: HandError) -> str:
        """Put the engine's sentence beside the input its ``field`` names (``who``,
        ``answer-1``, ``total-2``, ``burned-0``...); returns that key, or ``form``."""
        key = self._key_for(err.field)
        self.errors[key] = err.message
        return key

    def _key_for(self, path: str | None) -> str:
        if not path:
            return "form"
        if path.startswith("outcome.responses."):
            seat = self._seat(path[len("outcome.responses."):])
            return f"answer-{seat}" if seat is not None else "form"
        if path.startswith(("outcome.winner", "outcome.caller", "outcome.last_drawer")):
            return "who"
        if path.startswith("hands."):
            rest = path[len("hands."):]
            for seat, name in sorted(enumerate(self.players), key=lambda pair: -len(pair[1])):
                if rest == name or rest.startswith(name + "."):
                    tail = rest[len(name) + 1:]
                    if tail.startswith("cards"):
                        return f"cards-{seat}"
                    if tail.startswith("opened") or tail.startswith("melds"):
                        return f"burned-{seat}" if self.asks_burned() else f"total-{seat}"
                    for count in COUNTS:
                        if tail.startswith(count):
                            return f"{count}-{seat}"
                    return f"total-{seat}"
        return "form"

    def _seat(self, name: str) -> int | None:
        return self.players.index(name) if name in self.players else None

    def error_anchor(self) -> str | None:
        """The id of the first input with a message (for the summary link at the top)."""
        for key in self.errors:
            if key != "form":
                return f"field-{key}"
        return None
