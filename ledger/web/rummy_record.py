"""Recording a 13-card rummy hand on the phone (RUMMY13.md §8.1), one page without JavaScript:
how the hand ended, who showed (or was the last one in), the wild rank asked once, and for each
other player one choice (lost / first drop / middle drop / wrong show / full count) plus their
points. The engine derives every amount; a refusal is shown beside the form (422) with nothing
saved. The same page corrects a stored hand (:class:`Correction`: a new version, re-scored).

A loser's cards may be given instead of (or beside) their points: a card field per player, filled
by tapping the card grid (``static/rummy-cards.js``: two of each card, the two decks, and the
printed jokers) or typed; the engine finds their best arrangement and counts them (§4.2).

Offline, "Save hand" keeps the hand on the phone (``static/offline-queue.js``, the page kept for
offline use like the other games' entry pages), which posts it here later with ``Accept:
application/json``: the answer is then JSON (201 ``{number, created, message}``, or the refusal's
code and sentence), and the hand is scored when it arrives."""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, replace
from typing import Any, Sequence

from flask import flash, jsonify, redirect, render_template, request, url_for

from ledger.access.roles import Actor
from ledger.errors import NightError
from ledger.games.errors import HandError
from ledger.games.rummy13.describe import outcome_title
from ledger.games.cards import SUIT_SYMBOLS
from ledger.web.card_grid import SPOKEN, rank_name, suit_name
from ledger.i18n import N_, _
from ledger.night import lifecycle as ledger_night
from ledger.night.lifecycle import Submission
from ledger.night.reads import pool_standing
from ledger.storage.db import get_session
from ledger.storage.models import GameSession
from ledger.web.saved_hand import CORRECTED, RECORDED, saved_message, wants_json
from ledger.web.table_seen import seen_table

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RESULT_LABELS: dict[str, str] = {
    "lost": N_("Lost: their count"),
    "first_drop": N_("First drop"),
    "middle_drop": N_("Middle drop"),
    "wrong_show": N_("Showed wrongly"),
    "full_count": N_("Full count"),
}


def rummy_grid(rules: Any) -> dict[str, Any]:
    """The card grid's rows (one per suit: ``(suit, symbol, name, [(code, rank), ...])``) and how
    many copies of each card and of the printed joker the rules allow (§1.1: ``decks``,
    ``printed_jokers_per_deck``)."""
    rows = [(suit, SUIT_SYMBOLS[suit], suit_name(suit), [(f"{rank}{suit}", rank, rank_name(rank)) for rank in RANKS])
            for suit in ("S", "H", "D", "C")]
    return {"rows": rows, "copies": int(rules.decks), "jokers": int(rules.decks) * int(rules.printed_jokers_per_deck)}


def kinds(rules: Any) -> tuple[str, ...]:
    """The outcomes a table of these rules can end a hand with (§4): a wrong show that ends the
    hand only under ``wrong_show_mode = ends_hand``."""
    return ("show", "last_player") + (("wrong_show",) if rules.wrong_show_mode == "ends_hand" else ()) + ("void",)


def results(rules: Any) -> tuple[str, ...]:
    """Each other player's possible result: a wrong show is one only while play goes on after it."""
    return tuple(r for r in RESULT_LABELS if r != "wrong_show" or rules.wrong_show_mode == "continue")


def rejoined_of(values: Any, seats: tuple[str, ...], out: Sequence[str]) -> list[str]:
    """A pool night's players out of the pool whose "buys in again" box is ticked
    (``rejoin-<seat>``), in seat order (RUMMY13.md §4.9)."""
    return [name for index, name in enumerate(seats) if name in out and values.get(f"rejoin-{index}")]


def entry_of(values: Any, seats: tuple[str, ...], kind: str | None,
             out: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """The §8.1 ``outcome`` and ``hands`` the form's fields say (``winner``, ``result-<seat>``,
    ``points-<seat>``); a count that is not a whole number is passed on as written, so the engine
    refuses it with its own code (``total_out_of_range``). At a pool night the players ``out`` of
    the pool are dealt nothing unless they buy in again (:func:`rejoined_of`)."""
    who = values.get("winner") or None
    if kind == "void":
        return {"kind": "void"}, {}
    outcome = {"kind": kind, "shower": who} if kind == "wrong_show" else {"kind": kind, "winner": who}
    hands: dict[str, Any] = {}
    back = rejoined_of(values, seats, out)
    for index, name in enumerate(seats):
        if name == who or (name in out and name not in back):
            continue
        result = values.get(f"result-{index}") or "lost"
        if kind == "wrong_show" and result not in ("first_drop", "middle_drop"):
            continue  # still in: paid by the shower, nothing to say
        hand: dict[str, Any] = {"result": result}
        points = (values.get(f"points-{index}") or "").strip()
        if result == "lost" and points:
            hand["points"] = int(points) if points.isdecimal() and len(points) <= 6 else points
        cards = typed_cards(values.get(f"cards-{index}"))
        if cards and result in ("lost", "full_count"):  # the engine counts them (§4.2) and checks the copies
            hand["cards"] = cards
        hands[name] = hand
    return outcome, hands


def typed_cards(text: Any) -> list[str]:
    """The cards a card field holds (the grid's taps, or typed: ``"7h 8H, jk"``), as the §1.5
    codes the engine reads, upper-cased; at most 40 (a hand holds 13, the engine refuses the
    rest with its own code)."""
    if not isinstance(text, str):
        return []
    return [card.upper() for card in text.replace(",", " ").split()][:40]


@dataclass(frozen=True, slots=True)
class Correction:
    """A stored hand being corrected: its ``number`` and current ``version``, its ``entry`` (the
    form starts from it), and ``back``, the page to return to (the hand in the history)."""

    number: int
    version: int
    entry: dict[str, Any]
    back: str


def values_of(entry: dict[str, Any], seats: tuple[str, ...]) -> dict[str, str]:
    """The form's fields for a stored §8.1 entry (the inverse of :func:`entry_of`)."""
    outcome = entry.get("outcome") or {}
    values = {"kind": str(outcome.get("kind") or ""), "winner": str(outcome.get("winner") or outcome.get("shower") or ""),
              "wild_rank": str(entry.get("wild_rank") or "")}
    for index, name in enumerate(seats):
        hand = (entry.get("hands") or {}).get(name) or {}
        if "result" in hand:
            values[f"result-{index}"] = str(hand["result"])
        if "points" in hand:
            values[f"points-{index}"] = str(hand["points"])
        if hand.get("cards"):
            values[f"cards-{index}"] = " ".join(str(card) for card in hand["cards"])
        if name in ((entry.get("pool") or {}).get("rejoined") or ()):
            values[f"rejoin-{index}"] = "1"
    return values


def record(night: GameSession, actor: Actor, correction: Correction | None = None) -> Any:
    """The rummy record page of an open ``night``: GET a blank hand, POST save it; with
    ``correction``, the same page starting from the stored hand, saved as its next version."""
    db = get_session()
    rules = ledger_night.rules_of(night)
    if request.method == "GET" and correction is not None:
        values = values_of(correction.entry, tuple(night.players))
        return _render(night, rules, {"key": secrets.token_urlsafe(12), "number": correction.number,
                                      "seats": tuple(night.players), "seen_stake": None,
                                      "kind": values["kind"], "values": values}, correction=correction)
    if request.method == "GET":
        return _render(night, rules, {"key": secrets.token_urlsafe(12), "number": ledger_night.next_number(db, night),
                                      "seats": tuple(night.players), "seen_stake": night.stake_minor,
                                      "kind": request.args.get("kind") if request.args.get("kind") in kinds(rules)
                                      else "show", "values": {}})
    values = request.form
    seats, stake = seen_table(values, night) if correction is None else (tuple(night.players), None)
    kind = values.get("kind") if values.get("kind") in kinds(rules) else None
    form = {"key": (values.get("key") or secrets.token_urlsafe(12))[:200], "number": values.get("number"),
            "seats": seats, "seen_stake": stake, "kind": kind, "values": values}
    if kind is None:
        if wants_json():  # a hand the offline queue kept
            return jsonify({"error": "invalid_entry", "message": _("Choose how the hand ended."), "field": "kind"}), 422
        return _render(night, rules, form, _("Choose how the hand ended."), 422, correction)
    out = (pool_standing(night) or {}).get("out") or []
    outcome, hands = entry_of(values, seats, kind, out)
    wild = values.get("wild_rank") or None
    number = values.get("number") or ""
    back = rejoined_of(values, seats, out)
    parts = ({"wild_rank": wild} if wild else {}) | ({"pool": {"rejoined": back}} if back else {})
    submission = Submission(outcome=outcome, hands=hands, idempotency_key=form["key"],
                            number=int(number) if number.isdecimal() and len(number) <= 9 else None,
                            seen_players=seats, seen_stake_minor=stake, game_parts=parts or None)
    if correction is not None:
        return _save_correction(night, rules, form, replace(submission, number=None, seen_players=None,
                                                             seen_stake_minor=None), actor, correction)
    try:
        hand, created = ledger_night.record_hand(db, night, submission, actor)
    except HandError as err:
        if wants_json():
            return jsonify(err.to_json()), 422
        return _render(night, rules, form, err.message, 422)
    except NightError as err:  # the table changed, the number was taken, the night closed...
        if wants_json():
            return jsonify(err.to_json()), err.status
        flash(err.message, "error")
        return redirect(url_for("web.table", session_id=night.id))
    message = (saved_message(RECORDED, night, hand.result, number=hand.number) if created
               else _("Hand {number} was already recorded (saved once, not twice).", number=hand.number))
    if wants_json():  # the offline queue's answer (static/offline-queue.js)
        return jsonify({"number": hand.number, "created": created, "message": message}), 201 if created else 200
    if created:
        flash(message, "success")
    return redirect(url_for("web.table", session_id=night.id))


def _save_correction(night: GameSession, rules: Any, form: dict[str, Any], submission: Submission, actor: Actor,
                     correction: Correction) -> Any:
    try:
        hand, created = ledger_night.amend_hand(get_session(), night, correction.number, correction.version,
                                                submission, actor)
    except HandError as err:
        return _render(night, rules, form, err.message, 422, correction)
    except NightError as err:  # another phone corrected it first, or the night closed: nothing saved
        flash(err.message, "error")
        return redirect(correction.back)
    if created:
        flash(saved_message(CORRECTED, night, hand.result, number=correction.number, version=hand.version), "success")
    return redirect(correction.back)


def _render(night: GameSession, rules: Any, form: dict[str, Any], error: str | None = None, status: int = 200,
            correction: Correction | None = None) -> Any:
    seats = form["seats"]
    action = (url_for("web.amend", session_id=night.id, number=correction.number, version=correction.version)
              if correction is not None else url_for("web.record", session_id=night.id))
    return render_template(
        "record_rummy.html", night=night, form=form, error=error, ranks=RANKS, action=action, correction=correction,
        kinds=[(k, str(outcome_title(k))) for k in kinds(rules)],
        results=[(r, _(RESULT_LABELS[r])) for r in results(rules)],
        seats=list(enumerate(seats)), seats_json=json.dumps(list(seats), ensure_ascii=False),
        grid=rummy_grid(rules), spoken=SPOKEN, pool=pool_standing(night),
        dealer=ledger_night.next_dealer(get_session(), night),
    ), status
