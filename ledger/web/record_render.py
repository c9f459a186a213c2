"""The record flow's rendering: one step of the record-a-hand page (``record.html``) with what it
shows (the card grids, the cards another grid holds, the payouts preview), and :class:`Flow`, where
the form posts and what its buttons say. Asked by :mod:`ledger.web.entry_form` (what the game asks),
saved by :mod:`ledger.web.record_save`; :mod:`ledger.web.record` drives the steps."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from flask import render_template

from ledger.games.tonk import HandResult
from ledger.games.tonk.describe import describe_hand
from ledger.i18n import N_, _
from ledger.money import parse_amount
from ledger.storage.models import GameSession
from ledger.web.card_grid import card_grid, spade_choices
from ledger.web.entry_form import FINAL, WHOLE_STEP, HandForm, outcome_hint, outcome_title

SAVE_HAND = N_("Save hand")


@dataclass(frozen=True)
class Flow:
    """Where the record form posts (``action``), what its save button says and does, where
    "Cancel" leads, and, for a correction, which hand version is being corrected."""

    action: str
    cancel: str
    save_label: str = field(default_factory=lambda: _(SAVE_HAND))  # in the language of the request making it
    save: Callable[[GameSession, HandForm], Any] | None = None
    amend: dict[str, Any] = field(default_factory=dict)
    stale: dict[str, Any] | None = None


def render_step(
    night: GameSession,
    form: HandForm,
    step: str,
    flow: Flow,
    *,
    result: HandResult | None = None,
    outcome: dict[str, Any] | None = None,
    conflict: dict[str, Any] | None = None,
    status: int = 200,
) -> Any:
    context: dict[str, Any] = {
        "night": night,
        "form": form,
        "step": step,
        "flow": flow,
        "players": list(enumerate(form.players)),  # the seating the form was filled against
        "outcomes": [(k, outcome_title(k), outcome_hint(k)) for k in form.available_outcomes()],
        "hidden": form.hidden_fields(step),
        "visible": form.visible_groups(step),
        "step_number": form.steps().index(step) + 1 if step in form.steps() else 1,
        # no "of N" on the outcome step: how many steps follow depends on the outcome chosen
        # there; the whole entry on one page is one step
        "step_total": len(form.steps()) if form.kind and step not in ("outcome", WHOLE_STEP) else None,
        "conflict": conflict,
        "preview": None,
    }
    if any(group.startswith("hand-") or group == FINAL for group in context["visible"]):
        context["grid"] = card_grid(form.rules)
        context["taken"] = _taken_elsewhere(form)
    if "side" in context["visible"]:
        context["spades"] = spade_choices(form.rules)
    if step == "preview" and result is not None:
        context["preview"] = _preview(night, form, result, outcome or {})
    return render_template("record.html", **context), status


def _taken_elsewhere(form: HandForm) -> dict[int | str, dict[str, str]]:
    """For each card grid on the page, the tapped cards another grid already holds
    (card → who holds it)."""
    holders: list[tuple[int | str, str, list[str]]] = [
        (seat, form.players[seat], form.picked.get(seat, [])) for seat in form.entered_seats()
    ]
    if form.asks_final_spread():
        holders.append((FINAL, _("the run"), form.final_picked))
    return {
        key: {card: name for other, name, cards in holders if other != key for card in cards}
        for key, _name, _cards in holders
    }


def _preview(
    night: GameSession, form: HandForm, result: HandResult, outcome: dict[str, Any]
) -> dict[str, Any]:
    as_stored = result.to_json() | {"detail": result.detail}
    submission_hands = []
    if form.asks_final_spread():
        submission_hands.append({"name": _("The run"), "cards": form.final_cards(), "total": "", "count": None})
    optional = [s for s in form.optional_seats() if form.cards_of(s)]
    for seat in form.needed_seats() + [s for s in optional if s not in form.needed_seats()]:
        name = form.players[seat]
        submission_hands.append({
            "name": name,
            "cards": form.cards_of(seat),
            "total": form.totals.get(seat, "").strip() if form.totals_allowed() else "",
            "count": result.counts.get(name),
        })
    side = None
    if form.asks_side_pot() and form.side_in:
        try:
            stake: int | None = parse_amount(form.side_stake, night.currency)
        except ValueError:
            stake = None
        side = {
            "stake": stake,
            "players": [(form.players[s], form.spade_of(s)) for s in form.side_in],
            "winner": result.side_pot_winner,
        }
    return {
        "description": str(describe_hand(outcome, as_stored)),
        "transfers": [(t.payer, t.payee, t.amount_minor) for t in result.transfers],
        "net": [(p, result.net.get(p, 0)) for p in form.players],
        "redeal": result.redeal,
        "hands": submission_hands,
        "dealer": form.players[form.dealer] if form.dealer is not None else "",
        "side": side,
    }


def stored_hand_view(night: GameSession, hand: dict[str, Any]) -> dict[str, Any]:
    """A stored hand (``hand_json``) as the conflict panels show it."""
    return {
        "number": hand.get("number"),
        "version": hand.get("version"),
        "description": hand.get("description", ""),
        "dealer": hand.get("dealer", ""),
        "amounts": [(p, int(hand.get("net", {}).get(p, 0))) for p in night.players],
        "transfers": [(t.get("from"), t.get("to"), int(t.get("amount", 0))) for t in hand.get("transfers", [])],
    }
