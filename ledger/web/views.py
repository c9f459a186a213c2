"""Phone pages of one night: start, join (link or code), the table screen (with undo), the hand
history (versions, void, correct), PDF.

Every page of a night needs the table's token in the signed cookie, and acts with that
token's role (:mod:`ledger.web.access`). Money is shown with :func:`ledger.money.format_minor`;
nothing here computes a payout. Elsewhere: the record-a-hand flow (:mod:`ledger.web.record`),
settle up and payments (:mod:`ledger.web.settle_page`), the log and exports
(:mod:`ledger.web.log_page`), sharing (:mod:`ledger.web.share`), live updates
(:mod:`ledger.web.live`) and forms kept through a lost cookie (:mod:`ledger.web.resubmit`).
Flash messages and titles are in the request's language (:mod:`ledger.i18n`).
"""
from __future__ import annotations

import re
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, session, url_for
from sqlmodel import Session

from ledger.night import figures
from ledger.night import lifecycle as ledger_night
from ledger.access import devices
from ledger.access.roles import Actor
from ledger.games.errors import HandError
from ledger.storage.db import get_session
from ledger.i18n import _
from ledger.access.limits import JOIN_LIMIT, JOIN_SCOPE, limiter
from ledger.storage.models import AuditEvent, GameSession, utcnow
from ledger.night.lifecycle import NightError
from ledger.games.tonk import PRESETS
from ledger.games.tongits import PRESETS as TONGITS_PRESETS
from ledger.web.tongits_form import OUTCOMES as TONGITS_OUTCOMES, outcome_title as tongits_title
from ledger.web.rummy_record import kinds as rummy_kinds
from ledger.games.rummy13.describe import outcome_title as rummy_title
from ledger.web import hand_rows, live
from ledger.web.paging import page_number
from ledger.web.pot_words import pot_sentence
from ledger.web import log_page, me, settle_page  # noqa: F401  (the night's other pages register their routes)
from ledger.web.access import (
    MAX_ID, authorised, host_secrets, join_with_code, my_nights, opens, remember_token, token_for_link,
)
from ledger.web.blueprint import bp
from ledger.web.share import share_context
from ledger.night.reads import pool_standing
from ledger.web.entry_form import HandForm, outcome_title
from ledger.web.offline import is_offline_copy
from ledger.web.house_rules import changes_from_preset
from ledger.web.start_form import (
    SEAT_LIMIT, StartForm, currency_choices, game_choices, preset_choices, rummy_preset_choices, tongits_preset_choices,
)
from ledger.web.formatting import engine_words
from ledger.web.language import format_locale_now

RECENT_HANDS = 5
PASTED_LINK = re.compile(r"/join/([\w-]{1,32})/([\w-]{1,64})")


# -- start and join --------------------------------------------------------------------------------
@bp.route("/", methods=["GET", "POST"])
def index() -> Any:
    form = StartForm()
    if request.method == "POST":
        form = StartForm.from_form(request.form)
        created = form.create()
        if created is not None:
            night, token = created
            remember_token(night.id, token)
            session["new_night"] = night.id  # the table shows the recovery code this once
            flash(_("Night started. Share the table link below with the other phones."), "success")
            return redirect(url_for("web.table", session_id=night.id, share=1))
    return render_template(
        "index.html",
        form=form,
        seats=range(form.seat_total),
        seat_limit=SEAT_LIMIT,
        currencies=currency_choices(format_locale_now()),
        presets=preset_choices(),
        games=game_choices(),
        tongits_presets=tongits_preset_choices(),
        rummy_presets=rummy_preset_choices(),
        nights=my_nights(),
    ), (422 if form.errors else 200)


@bp.route("/join", methods=["GET", "POST"])
@limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE, methods=["POST"])
def join_code() -> Any:
    """Join a table by typing its short code (read aloud by the host): this phone gets a
    player token of its own, called by the name typed ("Bo's phone", optional) in the phones
    list and the history. A pasted table link works too. A name that is not one (too long,
    hidden characters) is refused beside its field (422), the code kept."""
    code = request.form.get("code", "")[:200] if request.method == "POST" else request.args.get("code", "")[:20]
    name = request.form.get("name", "")[:200]
    error = name_error = None
    if request.method == "POST":
        pasted = PASTED_LINK.search(code)
        if pasted:
            return redirect(url_for("web.join", session_id=pasted.group(1), token=pasted.group(2)))
        try:
            devices.clean_phone_name(name)
            night = join_with_code(code, name) if code.strip() else None
        except HandError as err:
            name_error, night = err.message, None
        if night is not None:
            flash(_("You joined {night}.", night=night.name), "success")
            return redirect(url_for("web.table", session_id=night.id))
        if name_error is None:
            error = (_("No open table has that code. Check it with the host.") if code.strip()
                     else _("Type the table code."))
    failed = error is not None or name_error is not None
    return render_template("join.html", code=code, name=name, error=error, name_error=name_error), \
        (422 if failed else 200)


@bp.get("/join/<session_id>/<token>")
def join(session_id: str, token: str) -> Any:
    """The table link: remembers the secret in the signed cookie, then opens the table."""
    night = ledger_night.find_night(get_session(), session_id)
    if night is None:
        abort(404)
    if not opens(night, token):
        abort(403)
    remember_token(session_id, token_for_link(night, token))
    return redirect(url_for("web.table", session_id=session_id))


# -- the table -----------------------------------------------------------------------------------
@live.view("table", "_live_table.html")
def table_state(db: Session, night: GameSession, actor: Actor) -> dict[str, Any]:
    """What changes on the table screen when a phone records, voids or corrects a hand."""
    # read after the night's version (on PostgreSQL each statement sees the latest commit: the
    # night's row, read before the version, may be older than it); the last counted hand is
    # found among the newest hands when it is one of them
    kept = figures.kept(db, night)
    recent = hand_rows.latest_hands(db, night, RECENT_HANDS)
    # the last counted hand played: a pot closed at a seat change (TONGITS.md §4.9) deals nobody and is not undone
    last = next((hand for hand in recent if hand.status == "counted" and hand.kind not in figures.NOT_A_HAND), None)
    if last is None and kept.counted_hands:
        last = hand_rows.last_counted(db, night)
    return {
        "left": {name: hand for name, hand in kept.last_hand.items() if name not in night.players},
        # a leaver whose cash-out (or settle-up) is paid: nothing left owed either way
        "settled": {name for name in kept.last_hand if name not in night.players
                    and kept.net.get(name) and not kept.net.get(name, 0) + kept.paid.get(name, 0)},
        "stake_from": kept.stakes[-1].from_hand if len(kept.stakes) > 1 else None,
        "preset": _preset_title(night),
        "house_changes": _house_changes(night),
        "balances": list(kept.net.items()),
        "next_dealer": (ledger_night.dealer_after(night, last, ledger_night.sat_in_since(db, night, last.number))
                        if last is not None else ledger_night.next_dealer(db, night)),
        "hand_count": kept.counted_hands,
        "recent": [hand_rows.hand_row(night, h) for h in recent],
        "total_hands": kept.last_number,  # one current version per number, numbers gap-free
        "undo_number": last.number if last is not None and actor.can("undo") and night.status == "open" else None,
        "redo_number": _redo_number(db, night, actor),
        "quick_outcomes": _quick_outcomes(night),
        "pot": ledger_night.pot_json(db, night).get("pot"),  # Tong-its: balance, holder, streak (§4.8)
        "pool": pool_standing(night),  # pool rummy: the scores against the limit, the pot (RUMMY13.md §4.9)
        "next_number": kept.last_number + 1,
        "pot_line": pot_sentence(db, night),
    }


def _house_changes(night: GameSession) -> list[str]:
    """The night's Tonk house rules that differ from its preset, as "rule: value"; none for
    another game (a Tong-its night plays its preset as it is)."""
    if (night.game or "tonk") != "tonk":
        return []
    return [_("{rule}: {value}", rule=label, value=value)
            for _toggle, label, value in changes_from_preset(ledger_night.rules_of(night))]


def _quick_outcomes(night: GameSession) -> list[tuple[str, str]]:
    """``(kind, title)`` of the outcome buttons on the table screen, for the night's game."""
    if (night.game or "tonk") == "tongits":
        return [(kind, tongits_title(kind)) for kind in TONGITS_OUTCOMES]
    if (night.game or "tonk") == "rummy13":  # RUMMY13.md §4 (ledger.web.rummy_record)
        return [(kind, str(rummy_title(kind))) for kind in rummy_kinds(ledger_night.rules_of(night))]
    return [(kind, outcome_title(kind)) for kind in
            HandForm(tuple(night.players), ledger_night.rules_of(night), "").available_outcomes()]


def _redo_number(db: Session, night: GameSession, actor: Actor) -> int | None:
    """The hand "redo" would count again (the last undo's), for a host while the night is open."""
    if not actor.can("restore") or night.status != "open":
        return None
    hand = ledger_night.undone_hand(db, night)
    return hand.number if hand is not None else None


@bp.get("/s/<session_id>")
def table(session_id: str) -> Any:
    night, actor = authorised(session_id)
    return render_table(night, actor)


def render_table(night: GameSession, actor: Actor, status: int = 200, **extra: Any) -> Any:
    """The table screen of ``night`` for ``actor`` (``extra``: a form shown again, e.g.
    :mod:`ledger.web.my_handles`), answered with ``status``."""
    share = share_context(night, actor)
    recovery = None
    if share is not None and session.get("new_night") == night.id and not is_offline_copy():
        session.pop("new_night")
        recovery = host_secrets(night, actor).recovery_code  # type: ignore[union-attr]
    response = render_template(
        "table.html",
        night=night,
        actor=actor,
        share=share,
        recovery_code=recovery,
        now=utcnow(),
        share_open=request.args.get("share") == "1",
        **live.page_context("table", get_session(), night, actor),
        **extra,
    )
    return response, status, ({"Cache-Control": "no-store"} if share or extra else {})


@bp.post("/s/<session_id>/undo")
def undo(session_id: str) -> Any:
    """The host's "undo last hand": voids the most recent counted hand (kept, struck through).

    The form names the hand the host saw as last (``number``). Without ``confirmed=yes``, or
    when another phone has recorded a hand since, the confirm page shows which hand would go.
    """
    night, actor = authorised(session_id, "undo")
    db = get_session()
    last = hand_rows.last_counted(db, night)
    if last is None:
        flash(_("No counted hand to undo."), "error")
        return redirect(url_for("web.table", session_id=night.id))
    seen = request.form.get("number", "")
    moved = seen != str(last.number)
    if request.form.get("confirmed") != "yes" or moved:
        message = (_("Another phone changed the hands since you looked: the last hand is now hand {number}. "
                     "It stays in the history, struck through, and stops counting in the balances.",
                     number=last.number) if moved and seen
                   else _("It stays in the history, struck through, and stops counting in the balances."))
        return render_template(
            "confirm.html",
            night=night,
            title=_("Undo hand {number}?", number=last.number),
            row=hand_rows.hand_row(night, last),
            message=message,
            action=url_for("web.undo", session_id=night.id),
            hidden=[("number", str(last.number))],
            button=_("Undo hand {number}", number=last.number),
            back=url_for("web.table", session_id=night.id),
        ), (409 if moved and seen else 200)
    try:
        ledger_night.void_hand(db, night, last.number, actor, undo=True)
    except (NightError, HandError) as err:  # a later hand, or the pot, refuses the change
        flash(err.message, "error")
    else:
        flash(_("Hand {number} undone: it stays in the history, struck through, and no longer counts.",
                number=last.number), "success")
    return redirect(url_for("web.table", session_id=night.id))


# -- the hand history -----------------------------------------------------------------------------
@live.view("hands", "_live_hands.html")
def hands_state(db: Session, night: GameSession, actor: Actor, page: int = 1,
                rows: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """History page ``page`` (the live region follows page 1, the newest hands), or the
    page's frame around ``rows`` when they are given (a row-by-row update)."""
    return {
        "rows": hand_rows.history_rows(db, night, page) if rows is None else rows,
        "per_page": hand_rows.PER_PAGE,
        "page": page,
        "pages": hand_rows.page_count(night),
        "can_void": actor.can("void") and night.status == "open",
        "can_amend": actor.can("amend") and night.status == "open" and "web.amend" in current_app.view_functions,
    }


HAND_EVENTS = frozenset({"hand_recorded", "hand_voided", "hand_restored", "hand_amended"})
# changes that leave every row of the history as it was: what a payment moves shows on the
# table and settle pages, not here
NOT_IN_HISTORY = frozenset({"payment_recorded", "payment_voided"})


@live.rows_of("hands")
def hands_rows(db: Session, night: GameSession, actor: Actor,
               events: list[AuditEvent]) -> list[dict[str, Any]] | None:
    """History page 1 row by row: when every change since the phone's version is a hand
    recorded, voided, restored or corrected (or a payment, which changes no row), and the page
    keeps its frame (it had rows, and no new page began), the HTML of those hands' rows
    (``[{"number", "html"}]``, oldest first) that are on page 1; otherwise ``None`` (the
    whole region)."""
    events = [e for e in events if e.action not in NOT_IN_HISTORY]
    if any(e.action not in HAND_EVENTS or e.hand_number is None for e in events):
        return None
    top = max([night.last_hand_number] + [e.hand_number for e in events])
    before = top - sum(1 for e in events if e.action == "hand_recorded")
    if before < 1 or hand_rows.pages_of(before) != hand_rows.pages_of(top):
        return None
    shown = sorted({e.hand_number for e in events if e.hand_number > top - hand_rows.PER_PAGE})
    if not shown:
        return []
    context = hands_state(db, night, actor, rows=hand_rows.rows_between(db, night, shown[0], shown[-1]))
    wanted = set(shown)
    return [{"number": row["number"], "html": render_template("_live_hand_row.html", night=night, actor=actor,
                                                               row=row, **context)}
            for row in reversed(context["rows"]) if row["number"] in wanted]


@bp.get("/s/<session_id>/hands")
def history(session_id: str) -> Any:
    night, actor = authorised(session_id)
    page = page_number(request.args.get("page"))
    if page <= 1:
        return render_template("hands.html", night=night, actor=actor,
                               **live.page_context("hands", get_session(), night, actor))
    if page > hand_rows.page_count(night):
        abort(404)
    return render_template("hands.html", night=night, actor=actor, live_view=None,
                           **hands_state(get_session(), night, actor, page))


@bp.post("/s/<session_id>/hands/<int:number>/void")
def void(session_id: str, number: int) -> Any:
    """Void a hand. Without ``confirmed=yes`` this shows the confirm page first (no JS needed)."""
    night, actor = authorised(session_id, "void")
    db = get_session()
    if number > MAX_ID:
        abort(404)
    try:
        hand = ledger_night.get_hand(db, night, number)
    except NightError:
        abort(404)
    if request.form.get("confirmed") != "yes":
        return render_template(
            "confirm.html",
            night=night,
            title=_("Void hand {number}?", number=number),
            row=hand_rows.hand_row(night, hand),
            message=_("The hand stays in the history, struck through, and stops counting in the balances."),
            action=url_for("web.void", session_id=night.id, number=number),
            button=_("Void hand {number}", number=number),
            back=hand_rows.history_at(night, number),
        )
    try:
        ledger_night.void_hand(db, night, number, actor)
    except (NightError, HandError) as err:  # a later hand, or the pot, refuses the change
        flash(err.message, "error")
    else:
        flash(_("Hand {number} voided; it no longer counts.", number=number), "success")
    return redirect(hand_rows.history_at(night, number))


# -- helpers ------------------------------------------------------------------------------------------
def _preset_title(night: GameSession) -> str:
    name = ledger_night.rules_of(night).preset
    preset = (TONGITS_PRESETS if (night.game or "tonk") == "tongits" else PRESETS).get(name)
    return engine_words(preset.title) if preset else name
