"""Seats and stake (``/s/<id>/seats``): who sits where now, who left (their balance "as of hand
N"), where the stake changed, and the host's controls: seat a late arrival (at a chosen place),
let a player leave with a cash-out ("Rosa leaves +$4.25: Marcus pays Rosa $4.25", paid now or
at the end), change the stake from the next hand, swap two seats from hand N, rename a player.

Every form works without JavaScript; a refused one comes back with what was typed and the
reason. Other phones follow through the live region (:mod:`ledger.web.live`). The changes
themselves are made by :mod:`ledger.night.seating`. Every sentence is in the request's language.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from sqlmodel import Session

from ledger.money import is_points
from ledger.night import figures
from ledger.night import lifecycle as ledger_night
from ledger.night import seating
from ledger.access.roles import Actor
from ledger.clubs import seat_renames
from ledger.storage.db import get_session
from ledger.i18n import _, ngettext
from ledger.storage.models import GameSession
from ledger.money import parse_amount
from ledger.names import normalise_name
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.night.timeline import roster_of, seat_order
from ledger.web import live
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.formatting import money
from ledger.web.seat_events import leave_line
from ledger.web.pot_words import seat_close_words
from ledger.web.amount_errors import amount_message, stake_range_message

TYPED = 120


@live.view("seats", "_live_seats.html")
def seats_state(db: Session, night: GameSession, actor: Actor) -> dict[str, Any]:
    """The seating now (next dealer marked), everyone who left with their last hand, the stakes."""
    following = ledger_night.next_number(db, night)
    return {
        "roster": roster_of(night, figures.last_hands(db, night)),
        "net": ledger_night.balances(db, night),
        "stakes": figures.stake_changes(db, night),
        "next_number": following,
        "next_dealer": ledger_night.next_dealer(db, night),
    }


@bp.get("/s/<session_id>/seats")
def seats(session_id: str) -> Any:
    night, actor = authorised(session_id)
    return _render(night, actor)


def _render(night: GameSession, actor: Actor, form: str | None = None, typed: dict[str, str] | None = None,
            error: str | None = None, status: int = 200) -> Any:
    db = get_session()
    return render_template(
        "seats.html", night=night, actor=actor, form=form, typed=typed or {}, error=error,
        everyone=seat_order(night), can_seat=actor.can("seat") and night.status == "open",
        can_rename=actor.can("seat"), max_players=ledger_night.rules_of(night).max_players,
        **live.page_context("seats", db, night, actor),
    ), status


def _typed(*keys: str) -> dict[str, str]:
    return {k: request.form.get(k, "")[:TYPED] for k in keys}


def _refused(night: GameSession, actor: Actor, form: str, typed: dict[str, str], err: Exception) -> Any:
    if isinstance(err, NightError):
        return _render(night, actor, form, typed, err.message, err.status)
    assert isinstance(err, HandError)
    return _render(night, actor, form, typed, err.message, 422)


def _done(night: GameSession, message: str) -> Any:
    flash(message, "success")
    return redirect(url_for("web.seats", session_id=night.id))


@bp.post("/s/<session_id>/seats/sit-in")
def sit_in(session_id: str) -> Any:
    """``name`` sits in from the next hand; ``after`` a seated name, or empty for the next
    dealer's right (they deal last)."""
    night, actor = authorised(session_id, "seat")
    typed = _typed("name", "after")
    if not typed["name"].strip():
        return _render(night, actor, "sit_in", typed, _("Type the name of the player sitting in."), 422)
    try:
        change = seat_renames.sit_in(get_session(), night, typed["name"], typed["after"] or None, actor)
    except (HandError, NightError) as err:
        return _refused(night, actor, "sit_in", typed, err)
    name = normalise_name(typed["name"])
    _pot_closed(night, change.pot_closed)
    return _done(night, _("{name} sits in from hand {hand}.", name=name, hand=change.from_hand))


def _pot_closed(night: GameSession, closed: Any) -> None:
    """Say what a seat change did with the pot first (Tong-its, TONGITS.md §4.9), if anything."""
    words = seat_close_words(closed, night.currency)
    if words is not None:
        flash(words, "success")


@bp.post("/s/<session_id>/seats/leave")
def leave(session_id: str) -> Any:
    """A player leaves. Without ``confirmed=yes`` the cash-out is shown first ("Rosa leaves
    +$4.25: Marcus pays Rosa $4.25") with two answers: pay now (recorded as payments) or at the
    end. When the balances moved since that was shown (``quote``), it is shown again."""
    night, actor = authorised(session_id, "seat")
    typed = _typed("name", "settle", "quote")
    name = normalise_name(typed["name"])
    if name and name not in night.players and name in (night.roster or []) and request.form.get("confirmed") == "yes":
        # "Pay now" tapped twice: the first tap went through; this one says so instead of refusing
        flash(_("{name} already left this table.", name=name), "success")
        return redirect(url_for("web.seats", session_id=night.id))
    if name not in night.players:
        message = _("{name} is not seated.", name=name) if name else _("Choose who is leaving.")
        return _render(night, actor, "leave", typed, message, 422)
    db = get_session()
    quote = seating.cash_out_quote(db, night, name)
    line = leave_line(name, quote.outstanding[name], [t.to_json() for t in quote.cash_out.transfers], night.currency)
    shown = json.dumps([t.to_json() for t in quote.cash_out.transfers] + [quote.outstanding[name]], ensure_ascii=False)
    signature = hashlib.sha256(shown.encode()).hexdigest()[:20]  # what the host was shown
    moved = typed["quote"] not in ("", signature)
    if request.form.get("confirmed") != "yes" or moved or typed["settle"] not in seating.SETTLE_CHOICES:
        return render_template(
            "leave.html", night=night, name=name, line=line, quote=quote, signature=signature, moved=moved,
            as_of=quote.as_of_hand, currency=night.currency,
        ), (409 if moved else 200)
    try:
        gone = seating.leave(db, night, name, typed["settle"], actor)
    except (HandError, NightError) as err:
        return _refused(night, actor, "leave", typed, err)
    _pot_closed(night, gone.pot_closed)
    # ``line`` is the whole cash-out sentence ("Rosa leaves +$4.25: Marcus pays Rosa $4.25")
    if is_points(night.currency):  # a score sheet: nothing paid, nothing to pay
        flash(_("{name} left the table; their score stays in the standings.", name=name), "success")
    elif gone.settle == "now" and gone.payments:
        flash(_("{line}. Paid and recorded.", line=line), "success")
    elif gone.cash_out.transfers:
        flash(_("{line}. To be paid at the end of the night.", line=line), "success")
    else:
        flash(_("{name} left; nothing to settle.", name=name), "success")
    return redirect(url_for("web.seats", session_id=night.id))


@bp.post("/s/<session_id>/seats/stake")
def stake(session_id: str) -> Any:
    """The stake from the next hand (typed as an amount, e.g. 0.50)."""
    night, actor = authorised(session_id, "seat")
    typed = _typed("stake")
    try:
        amount = parse_amount(typed["stake"], night.currency)
    except ValueError as exc:
        return _render(night, actor, "stake", typed, amount_message(exc), 422)
    try:
        value, from_hand = seating.change_stake(get_session(), night, amount, actor)
    except HandError as err:
        if err.code == "invalid_stake":  # in the night's money, as typed, not in minor units
            return _render(night, actor, "stake", typed, stake_range_message(night.currency), 422)
        return _refused(night, actor, "stake", typed, err)
    except NightError as err:
        return _refused(night, actor, "stake", typed, err)
    return _done(night, _("The stake is {stake} from hand {hand}.", stake=money(value, night.currency), hand=from_hand))


@bp.post("/s/<session_id>/seats/swap")
def swap(session_id: str) -> Any:
    """``a`` and ``b`` were entered in each other's seats from hand ``from_hand``."""
    night, actor = authorised(session_id, "seat")
    typed = _typed("a", "b", "from_hand")
    raw = typed["from_hand"].strip()
    if not raw.isdecimal() or len(raw) > 9:
        return _render(night, actor, "swap", typed, _("Type the number of the first hand they were swapped at."), 422)
    from_hand = int(raw)  # digits of any script ("໒", "٢") read as the number they write
    try:
        made = seating.swap_seats(get_session(), night, typed["a"], typed["b"], from_hand, actor)
    except (HandError, NightError) as err:
        return _refused(night, actor, "swap", typed, err)
    a, b = normalise_name(typed["a"]), normalise_name(typed["b"])
    if made:
        numbers = ", ".join(str(h.number) for h in made)
        # English says "hands 1 re-entered" for one hand too (the list of numbers reads as a heading);
        # a language with plural forms picks its own for the count
        return _done(night, ngettext("{a} and {b} swapped seats from hand {hand}: hands {numbers} re-entered.",
                                     "{a} and {b} swapped seats from hand {hand}: hands {numbers} re-entered.",
                                     len(made), a=a, b=b, hand=from_hand, numbers=numbers))
    return _done(night, _("{a} and {b} swapped seats from hand {hand}.", a=a, b=b, hand=from_hand))


@bp.post("/s/<session_id>/seats/rename")
def rename(session_id: str) -> Any:
    """``from`` is now called ``to`` everywhere in the night."""
    night, actor = authorised(session_id, "seat")
    typed = _typed("from", "to")
    try:
        seat_renames.rename_player(get_session(), night, typed["from"], typed["to"], actor)
    except (HandError, NightError) as err:
        return _refused(night, actor, "rename", typed, err)
    return _done(night, _("{old} is now {new}.", old=normalise_name(typed["from"]), new=normalise_name(typed["to"])))
