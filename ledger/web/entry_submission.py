"""The §8.1 submission a filled record form stands for (RULES.md §8.1): the outcome, the hands
that are needed (and, for a tonk out or an out by discard, the losers' hands when their cards
were entered), the spade side bet, the dealer, the idempotency key and the hand number.

:class:`EntrySubmission` is mixed into :class:`ledger.web.entry_form.HandForm`. Only what is
not a rule is checked here (a number that is not a number, a side stake that is not an amount);
every rule is the engine's, so an impossible hand is refused with its §9.1 code and message.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ledger.i18n import _
from ledger.money import parse_amount
from ledger.night.lifecycle import Submission
from ledger.web.amount_errors import amount_message
from ledger.web.entry_errors import FINAL

if TYPE_CHECKING:
    from ledger.web.entry_form import HandForm

SPLIT_TYPED = re.compile(r"[\s,;]+")
WHOLE = re.compile(r"[0-9]{1,4}")


class EntrySubmission:
    """Building the entry from :class:`~ledger.web.entry_form.HandForm` (a mixin: ``self`` is the form)."""

    def typed_cards(self: HandForm, seat: int | str) -> list[str]:
        text = self.final_typed if seat == FINAL else self.typed.get(seat, "")  # type: ignore[call-overload]
        return [t for t in SPLIT_TYPED.split(text) if t]

    def cards_of(self: HandForm, seat: int) -> list[str]:
        """Tapped cards (deck order) then typed ones, as sent to the engine."""
        return list(self.picked.get(seat, [])) + self.typed_cards(seat)

    def final_cards(self: HandForm) -> list[str]:
        """The double-double run: tapped cards, then typed ones."""
        return list(self.final_picked) + self.typed_cards(FINAL)

    def submission(self: HandForm) -> Submission | None:
        """The §8.1 submission, or ``None`` with ``errors`` set when a number is not a number
        or the side stake is not an amount (the only checks made here; every rule is the
        engine's).

        A loser's cards entered for a tonk out or an out by discard go in as that player's
        hand, so the engine checks them (card counts, duplicates, held spreads; §9.1); the
        payout of those outcomes does not depend on them (§4.3, §4.4)."""
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
        elif self.kind == "double_double":
            if self.who is not None:
                outcome["first_tonker"] = players[self.who]
                hands[players[self.who]] = {"cards": []}
            if self.responder is not None:
                outcome["responder"] = players[self.responder]
            outcome["tonker_final_spread"] = self.final_cards()
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
        for seat in self.optional_seats():
            cards = self.cards_of(seat)
            if cards:  # the winner's too: the engine says that hand must be empty
                hands[players[seat]] = {"cards": cards}
        side_bets = self._side_bets()
        if self.dealer is None:
            self.errors["dealer"] = _("Choose who dealt this hand.")
        if self.errors:
            return None
        return Submission(
            outcome=outcome,
            hands=hands,
            side_bets=side_bets,
            dealer=players[self.dealer] if self.dealer is not None else None,
            idempotency_key=self.key,
            number=self.number,
            seen_players=tuple(players) if self.seen_stake is not None else None,
            seen_stake_minor=self.seen_stake,
        )

    def _side_bets(self: HandForm) -> dict[str, Any] | None:
        """The spade side bet of §4.10 (``None`` when the night does not play it or nobody
        plays it this hand); only the side stake's money text is read here."""
        if not self.asks_side_pot() or not self.side_in:
            return None
        text = self.side_stake.strip()
        if not text:
            self.errors["side_stake"] = _("Type the side stake, e.g. 0.50, or untick every player.")
            return None
        try:
            stake = parse_amount(text, self.currency)
        except ValueError as exc:
            self.errors["side_stake"] = amount_message(exc)
            return None
        return {"spade": {
            "side_stake": stake,
            "highest_spade": {self.players[s]: (self.spades.get(s) or None) for s in self.side_in},
        }}

    def _whole(self: HandForm, text: str, where: str) -> int | None:
        cleaned = text.strip()
        if WHOLE.fullmatch(cleaned):
            return int(cleaned)
        self.errors[where] = _("“{text}” is not a whole number; type digits only, like 12.", text=cleaned)
        return None
