"""Where a refused entry's message is shown on the record form: which input an engine error's
``field`` path names (``hands.Dee.cards[2]`` → ``cards-0``), which step shows it, and the
words and jump link of the error summary at the top of the page (one whole sentence per case,
in the request's language).

:class:`EntryErrors` is mixed into :class:`ledger.web.entry_form.HandForm`; it reads the form's
fields (``players``, ``kind``, ``picked``, ``final_picked``, ``errors``, ``bad_cards``), its
flow (``steps``, ``hands_step``, ``entered_seats``, ``totals_allowed``, ``dealer_step``) and
``typed_cards``.
Messages are the engine's own sentences (RULES.md §9.1 codes); nothing is reworded here.
``err.message`` is read while the request runs, so it is in that request's language.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ledger.i18n import N_, _
from ledger.games.tonk import HandError

if TYPE_CHECKING:
    from ledger.web.entry_form import HandForm

FINAL = "final"
HAND_PREFIXES = ("hand", "total", "cards", "typed")
WHO_STEP_KEYS = frozenset({"who", "responder", "lock_turns", "final_turn", "before_drop"})
WHO_KEYS = ("who", "responder", "dealer", "lock_turns", "final_turn", "before_drop", "side_stake", "side")

# The error summary at the top of the record form, one whole sentence per place an error can be
# (``name``: the player whose hand or spade it is).
SUMMARIES = {
    "run": N_("Please check the run"),
    "hand": N_("Please check {name}’s hand"),
    "spade": N_("Please check {name}’s spade"),
    "who:knock": N_("Please check who knocked"),
    "who:deal_tonk": N_("Please check who claimed"),
    "who:double_double": N_("Please check who tonked out"),
    "who": N_("Please check who went out"),
    "responder": N_("Please check who could go out on the run"),
    "dealer": N_("Please check the dealer"),
    "side": N_("Please check the side pot"),
    "step": N_("Please check this step"),
}


class EntryErrors:
    """Error placement for :class:`~ledger.web.entry_form.HandForm` (a mixin: ``self`` is the form)."""

    def error_anchor(self: HandForm) -> str | None:
        """The HTML id of the part of the page that shows the first error (for a jump link)."""
        for key in self.errors:
            prefix, _dash, seat = key.partition("-")
            if prefix in HAND_PREFIXES and seat == FINAL or key == FINAL:
                return f"seat-{FINAL}"
            if prefix in HAND_PREFIXES and seat.isdecimal():
                return f"seat-{seat}"
            if prefix == "spade" and seat.isdecimal():
                return f"side-{seat}"
            if key in WHO_KEYS:
                return f"field-{key}"
        return None

    def error_summary(self: HandForm) -> str:
        """The error summary's sentence: where the first error is ("Please check Marcus’s hand")."""
        case, params = self._error_place()
        return _(SUMMARIES[case], **params)

    def _error_place(self: HandForm) -> tuple[str, dict[str, str]]:
        """The key of :data:`SUMMARIES` for the first error, with its parameters."""
        for key in self.errors:
            prefix, _dash, seat = key.partition("-")
            if key == FINAL or seat == FINAL:
                return "run", {}
            if prefix in HAND_PREFIXES and seat.isdecimal():
                return "hand", {"name": self.players[int(seat)]}
            if prefix == "spade" and seat.isdecimal():
                return "spade", {"name": self.players[int(seat)]}
            if key == "who":
                who = f"who:{self.kind}"
                return (who if who in SUMMARIES else "who"), {}
            if key == "responder":
                return "responder", {}
            if key == "dealer":
                return "dealer", {}
            if key in ("side_stake", "side"):
                return "side", {}
        return "step", {}

    def step_with_errors(self: HandForm, current: str) -> str:
        """The step that shows the first error in ``errors`` (always one of :meth:`steps`)."""
        keys = set(self.errors)
        steps = self.steps()
        fallback = current if current in steps and current != "preview" else steps[-2]
        if "kind" in keys:
            wanted = "outcome"
        elif keys & WHO_STEP_KEYS:
            wanted = "who" if "who" in steps else "hands"  # a knock asks who on its hands page
        elif "dealer" in keys:
            wanted = self.dealer_step()
        elif any(k.split("-")[0] in HAND_PREFIXES or k == FINAL for k in keys):
            wanted = self.hands_step()
        elif any(k in ("side", "side_stake") or k.startswith("spade-") for k in keys):
            wanted = "side"
        else:
            wanted = fallback
        return wanted if wanted in steps else fallback

    def place_error(self: HandForm, err: HandError) -> str:
        """Put the engine's message beside the input its ``field`` names; returns that input's
        key (``who``, ``total-1``, ``cards-0``, ``spade-2``...) or ``form`` for the page."""
        key = self._key_for(err.field)
        self.errors[key] = err.message
        return key

    def _key_for(self: HandForm, path: str | None) -> str:
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
            if name.startswith("responder"):
                return "responder"
            if name.startswith("tonker_final_spread"):
                return self._final_key(name[len("tonker_final_spread"):])
            if name.startswith(("knocker", "winner", "claimants", "claimed", "first_tonker")):
                return "who"
            if name == "kind":
                return "kind"
            return "form"
        if path.startswith("hands."):
            return self._hand_key(path[len("hands."):])
        if path.startswith("side_bets."):
            return self._side_key(path[len("side_bets."):])
        return "form"

    def _seat_in(self: HandForm, rest: str) -> tuple[int, str] | None:
        """``(seat, tail)`` of a path that starts with a seated name (names may contain dots:
        the longest seated name that prefixes the path wins)."""
        matches = [
            (len(name), seat) for seat, name in enumerate(self.players)
            if rest == name or rest.startswith(name + ".")
        ]
        if not matches:
            return None
        _length, seat = max(matches)
        return seat, rest[len(self.players[seat]) + 1:]

    def _final_key(self: HandForm, tail: str) -> str:
        index_text = tail.strip("[]")
        if index_text.isdecimal():
            index = int(index_text)
            if index < len(self.final_picked):
                self.bad_cards.setdefault(FINAL, set()).add(self.final_picked[index])
                return FINAL
            return f"typed-{FINAL}"
        return FINAL

    def _side_key(self: HandForm, rest: str) -> str:
        if rest == "spade.side_stake":
            return "side_stake"
        prefix = "spade.highest_spade."
        if rest.startswith(prefix):
            found = self._seat_in(rest[len(prefix):])
            if found is not None:
                return f"spade-{found[0]}"
        return "side"

    def _hand_key(self: HandForm, rest: str) -> str:
        found = self._seat_in(rest)
        if found is None:
            return "form"
        seat, tail = found
        if seat not in self.entered_seats():
            return "form"
        if tail == "total":
            return f"total-{seat}" if self.totals_allowed() else f"hand-{seat}"
        if tail.startswith("cards["):
            index_text = tail[len("cards["):].rstrip("]")
            if index_text.isdecimal():
                index = int(index_text)
                picked = self.picked.get(seat, [])
                if index < len(picked):
                    self.bad_cards.setdefault(seat, set()).add(picked[index])
                    return f"cards-{seat}"
                return f"typed-{seat}"
            return f"cards-{seat}"
        if tail.startswith("cards"):  # the hand as a whole: beside the typed text when only typed
            return f"typed-{seat}" if self.typed_cards(seat) and not self.picked.get(seat) else f"cards-{seat}"
        return f"hand-{seat}"
