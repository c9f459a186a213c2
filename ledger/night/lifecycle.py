"""One night's ledger: open a game session, correct and void hands, close.

This is the layer the JSON API, the phone pages and the CLI share. It calls the rules engine
(:mod:`ledger.games.tonk`) and stores its results; no rule is computed here. All amounts are ``int``
minor units. Each change keeps the night's running figures (:mod:`ledger.night.figures`) in its own
transaction. The night's other concepts live beside it and are re-exported here, so callers use
``ledger.night.lifecycle`` alone: recording a new hand (:mod:`ledger.night.recording`), payments and settle-up
(:mod:`ledger.night.payments`), reading the night (:mod:`ledger.night.reads`), the audit trail
(:mod:`ledger.night.audit`), refusals (:mod:`ledger.errors`).
"""
from __future__ import annotations

import secrets
from typing import Any, Callable, Mapping, Sequence

from sqlalchemy import bindparam
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session, select

from ledger.access import roles as access
from ledger.night import figures
from ledger.access.roles import SYSTEM, Actor
from ledger.night.audit import audit, audit_json, history
from ledger.storage.db import begin_write
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.storage.models import AuditEvent, GameSession, Hand, utcnow
from ledger.names import alike_names, clean_name, look_alike_pair, normalise_name
from ledger.night.reads import (
    balances, build_report, dealer_after, get_hand, hand_count, hand_json, hands_of, next_dealer, next_number,
    pot_closed_at_close, pot_json, rules_of, sat_in_since, session_json,
)
from ledger.night.payments import (
    MAX_EXACT_TOTAL, MAX_PAYMENT_MINOR, outstanding, payment_by_key, payment_json, payments_of, record_payment,
    record_payment_kept, settlement_plan, void_payment,
)
from ledger.night.idempotency import MAX_IDEMPOTENCY_KEY, check_idempotency_key
from ledger.night import pool, rescoring
from ledger.night.voiding import void_counted_hand
from ledger.night.hand_replays import as_now, by_idempotency_key, key_reused, replays, replays_now
from ledger.night.recording import (
    close_pot, deals_by_rule, preview_hand, record_hand, record_hand_kept, store_version, stored_result,
    table_changed,
)
from ledger.night.submission import Submission
from ledger.games import DEFAULT_GAME, Game, Rules, game as game_of
from ledger.games.tonk import HandError, RuleSet
from ledger.games.tonk.validation import check_stake, check_table
from ledger.night.zones import DEFAULT_ZONE, is_known_zone

__all__ = [  # this module's own, and the night's other concepts for callers of ledger.night.lifecycle
    "MAX_EXACT_TOTAL", "MAX_IDEMPOTENCY_KEY", "MAX_NAME", "MAX_PAYMENT_MINOR", "NightError", "Submission",
    "amend_hand", "audit", "audit_json", "balances", "build_report", "check_idempotency_key", "close_night",
    "create_night", "dealer_after", "find_night", "get_hand", "hand_count", "hand_json", "hands_of", "history", "next_dealer",
    "next_number", "outstanding", "payment_by_key", "payment_json", "payments_of", "preview_hand", "record_hand", "record_hand_kept", "record_payment", "record_payment_kept", "void_hand_kept",
    "close_pot", "pot_closed_at_close", "pot_json",
    "redo_undo", "restore_hand", "rules_of", "sat_in_since", "session_json", "settlement_plan", "store_version",
    "table_changed", "undo_last_hand", "undone_hand", "void_hand", "void_payment",
]

MAX_NAME = 80
_NIGHT_BY_ID = select(GameSession).where(GameSession.id == bindparam("night"))
_VOIDS_NEWEST_FIRST = (select(AuditEvent).where(AuditEvent.session_id == bindparam("night"),
                                                AuditEvent.action == "hand_voided")
                       .order_by(AuditEvent.id.desc()))  # type: ignore[union-attr]


# -- opening -------------------------------------------------------------------------------------
def create_night(
    db: Session,
    *,
    name: str,
    currency: str,
    stake_minor: int,
    rules: RuleSet | Rules,
    players: Sequence[str],
    first_dealer: str | None = None,
    timezone: str = DEFAULT_ZONE,
    game: str = DEFAULT_GAME,
    opening: Callable[[Session], Mapping[str, int]] | None = None,
) -> tuple[GameSession, str]:
    """Open a session and return it with the host's secret token (stored hashed; the player
    and viewer links and the table code derive from it, see :mod:`ledger.access.roles`).

    ``players`` are in seat order (clockwise). ``first_dealer`` defaults to the first seat.
    ``timezone`` is the IANA zone of the phone that starts the night (pages and PDFs show its
    times there). ``game`` is the registered game played (:mod:`ledger.games`, default Tonk) and
    ``rules`` that game's rule set (``game_of(game).rules(spec)``): its seat range applies, and a
    game with accounts (Tong-its' ``"pot"``) opens them empty with the game's first state
    (TONGITS.md §4.8). ``opening``, for a game with accounts, runs inside the creating
    transaction and returns the balances the accounts open with (minor units: a pot its club
    carried, which it empties in that same transaction, :func:`ledger.clubs.carry.start_night`);
    the first state then holds it (``{balance: carried pot, holder: null, streak: 0}``). Raises :class:`HandError` (``too_few_players``, ``too_many_players``,
    ``duplicate_player``, ``invalid_player_name`` for a player named like one of the game's
    accounts (any case), ``invalid_stake``, ``unknown_player`` for a first dealer who is not
    seated, ``invalid_entry`` with field ``timezone`` for a zone that is not an IANA name).
    """
    chosen = game_of(game)
    if not is_known_zone(timezone):
        raise HandError("invalid_entry", N_("The time zone must be an IANA name such as Europe/Paris."), "timezone")
    name = clean_name(name, "name", 120)
    seated = tuple(clean_name(p, f"players[{i}]", MAX_NAME) for i, p in enumerate(players))
    if chosen.name == DEFAULT_GAME:
        check_table(rules, seated)  # type: ignore[arg-type]
    else:
        check_seats(chosen, rules, seated)
    alike = look_alike_pair(seated)
    if alike is not None:
        raise alike_names(seated[alike[0]], alike[1], f"players[{alike[0]}]")
    check_stake(stake_minor)
    dealer = seated[0] if first_dealer is None else normalise_name(first_dealer)
    if dealer not in seated:
        raise HandError("unknown_player", N_("The first dealer {name} is not seated."), "first_dealer", name=dealer)
    for _attempt in range(5):
        begin_write(db)
        token = access.new_host_token()
        opened = dict.fromkeys(chosen.accounts, 0)
        if opening is not None and chosen.accounts:
            opened |= {name: int(amount) for name, amount in opening(db).items() if name in opened}
        night = GameSession(
            id=secrets.token_urlsafe(9),
            name=name,
            currency=currency,
            stake_minor=stake_minor,
            ruleset=rules.snapshot(),
            players=list(seated),
            roster=list(seated),
            first_dealer=dealer,
            timezone=timezone,
            stakes=figures.opening_stakes(stake_minor),
            game=chosen.name,
            game_state=_first_state(chosen, rules, opened),
        )
        db.add(night)
        db.flush()
        figures.players_seated(db, night, seated)
        figures.accounts_opened(db, night, opened)
        access.add_keys(db, night, access.table_secrets(token, night.id))
        audit(db, night, SYSTEM, "session_created", after={
            "name": night.name, "players": night.players, "stake_minor": stake_minor,
            "currency": currency, "ruleset": night.ruleset, "timezone": timezone,
            **({} if chosen.name == DEFAULT_GAME else {"game": chosen.name}),
            **({"opening": {k: v for k, v in opened.items() if v}} if any(opened.values()) else {}),
        })
        try:
            db.commit()
        except IntegrityError:  # a table code shared with another session: draw new secrets
            db.rollback()
            continue
        return night, token
    raise RuntimeError("could not draw unique table secrets")


def _first_state(chosen: Game, rules: RuleSet | Rules, opened: Mapping[str, int]) -> dict[str, Any] | None:
    state = chosen.initial_state(rules, dict(opened) if any(opened.values()) else None)  # type: ignore[arg-type]
    return None if state is None else dict(state)


def check_seats(chosen: Game, rules: RuleSet | Rules, seated: Sequence[str]) -> None:
    """A seating of a game other than Tonk (whose own checks are RULES.md §9.1's): as many
    players as ``chosen.seat_range(rules)`` allows, none named like one of the game's accounts
    (any case: TONGITS.md §8.1, ``pot``), nobody twice. Raises :class:`HandError`
    ``too_few_players``, ``too_many_players``, ``invalid_player_name``, ``duplicate_player``."""
    seats = chosen.seat_range(rules)  # type: ignore[arg-type]
    if len(seated) < seats.start and chosen.name == "tongits":
        raise HandError("too_few_players", N_("Tong-its needs {least} players at this table; {count} given."),
                        "players", least=seats.start, count=len(seated))
    if len(seated) < seats.start:
        raise HandError("too_few_players", N_("These rules need at least {least} players; {count} given."),
                        "players", least=seats.start, count=len(seated))
    if len(seated) >= seats.stop:
        raise HandError("too_many_players", N_("These rules seat at most {most} players; {count} given."),
                        "players", most=seats.stop - 1, count=len(seated))
    reserved = {account.casefold() for account in chosen.accounts}
    seen: set[str] = set()
    for index, name in enumerate(seated):
        if name.casefold() in reserved:
            raise HandError("invalid_player_name", N_("No player may be called {name}: the pot takes that name."),
                            f"players[{index}]", name=name)
        if name in seen:
            raise HandError("duplicate_player", N_("{name} is seated twice."), f"players[{index}]", name=name)
        seen.add(name)


def find_night(db: Session, session_id: str) -> GameSession | None:
    """The night ``session_id``, or ``None`` (one indexed read, by a statement prepared once;
    a night this session already holds is returned as it is)."""
    held = db.identity_map.get(identity_key(GameSession, session_id))
    if held is not None:
        return held  # type: ignore[no-any-return]
    return db.exec(_NIGHT_BY_ID, params={"night": session_id}).first()


# -- correcting -----------------------------------------------------------------------------------
def amend_hand(
    db: Session, night: GameSession, number: int, version: int, submission: Submission, actor: Actor = SYSTEM
) -> tuple[Hand, bool]:
    """Replace hand ``number`` (currently at ``version``) by a corrected entry: the old version
    is kept as ``superseded`` and linked, the new one (``version + 1``) counts.

    Returns ``(new version, created)``; ``created`` is False when this very amendment (same
    hand, version, dealer and entry) was already saved under its idempotency key: the stored
    version is returned, even on a closed night. Raises :class:`HandError` 422 for a refused
    entry; :class:`NightError` 422 ``invalid_entry`` (field ``Idempotency-Key``), 409
    ``idempotency_key_reused`` (with the ``existing`` hand) for a key already used by another
    request (a recorded hand, another hand or version, other content), 404
    ``hand_not_found``, 422 ``invalid_entry`` (field ``version``) for a version the hand never
    had, 409 ``stale_version`` (with the ``current`` hand) when someone amended it first, 409
    ``hand_voided``, 409 ``not_a_hand`` for a pot closed at a seat change, 409 ``session_closed``;
    :class:`AccessDenied` unless host.
    """
    actor.require("amend")
    check_idempotency_key(submission.idempotency_key)
    submission = submission.normalised()
    if submission.idempotency_key:
        existing = by_idempotency_key(db, night, submission.idempotency_key)
        if existing is not None and replays_now(db, night, existing, submission, amends=(number, version)):
            return as_now(db, night, existing), False
        if existing is not None and night.status == "open":
            raise key_reused(existing)
    begin_write(db)
    figures.lock(db, night)  # amendments, voids and seat fixes of this night queue here
    current = get_hand(db, night, number)
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; its hands can no longer change."))
    if version > current.version:  # not a version another phone made: one that never was
        raise NightError(422, "invalid_entry",
                         N_("Hand {number} has no version {version}; its latest version is {latest}."),
                         "version", None, number=number, version=version, latest=current.version)
    if current.version != version:
        raise NightError(409, "stale_version",
                         N_("Hand {number} was changed on another phone (now version {version}); "
                            "compare both before amending again."),
                         "version", {"current": hand_json(current), "your_version": version},
                         number=number, version=current.version)
    if current.status == "voided":
        raise NightError(409, "hand_voided", N_("Hand {number} is void; record a new hand instead."), "number",
                         number=number)
    _refuse_a_pot_close(current)
    dealer = submission.dealer if submission.dealer is not None else current.dealer
    by_rule = deals_by_rule(night)
    start = rescoring.before(db, night, number) if by_rule else None
    if by_rule and dealer not in current.players:  # the game checks its dealer when it scores
        raise HandError("unknown_player", N_("The dealer {name} was not seated at hand {number}."), "dealer",
                        name=dealer, number=number)
    result = preview_hand(night, submission, players=current.players, stake_minor=current.stake_minor,
                          **({"dealer": dealer, "state": start.state} if start is not None else {}))
    if dealer not in current.players:
        raise HandError("unknown_player", N_("The dealer {name} was not seated at hand {number}."), "dealer",
                        name=dealer, number=number)
    before = {"version": current.version, "dealer": current.dealer, "entry": current.entry,
              "net": current.result.get("net")}
    current.status = "superseded"
    db.add(current)
    try:
        db.flush()
        hand = store_version(db, night, number, version + 1, dealer, submission, result,
                              players=current.players, stake_minor=current.stake_minor)
        figures.hands_replaced(db, night, [current], [hand])
        audit(db, night, actor, "hand_amended", hand_number=number, before=before,
              after={"version": hand.version, "dealer": dealer, "entry": hand.entry, "net": result.net})
        if by_rule:  # the later hands are scored from what this one leaves now
            rescoring.rechain(db, night, number, rescoring.Before(hand.result.get("state"),
                                                                  rescoring.following(dealer, hand.result)),
                              rescoring.following(current.dealer, current.result), actor)
        db.commit()
    except HandError:
        db.rollback()  # a later hand the game refuses in its new place: nothing changed
        raise
    except IntegrityError:
        db.rollback()
        if submission.idempotency_key:  # a twin of this request was saved at the same moment
            existing = by_idempotency_key(db, night, submission.idempotency_key)
            if existing is not None and replays(existing, submission, amends=(number, version)):
                return as_now(db, night, existing), False
            if existing is not None:
                raise key_reused(existing) from None
        fresh = get_hand(db, night, number)
        raise NightError(409, "stale_version", N_("Hand {number} was changed on another phone at the same moment."),
                         "version", {"current": hand_json(fresh), "your_version": version}, number=number) from None
    return hand, True


def void_hand(db: Session, night: GameSession, number: int, actor: Actor = SYSTEM, *, undo: bool = False) -> Hand:
    """:func:`void_hand_kept` without the totals: the hand."""
    return void_hand_kept(db, night, number, actor, undo=undo)[0]


def void_hand_kept(
    db: Session, night: GameSession, number: int, actor: Actor = SYSTEM, *, undo: bool = False
) -> tuple[Hand, dict[str, Any] | None]:
    """Void hand ``number``: it is kept (shown struck through) and stops counting; ``undo``
    marks the audit event as the host's "undo last hand" (so it can be redone). Returns
    ``(hand, totals)``: ``totals`` is ``{"next_dealer", "session_net"}`` as the void's own
    transaction left them (the nets, minor units in seat order, as its update wrote them), so
    the answer needs no transaction of its own; ``None`` when the void changed nothing or
    re-scored later hands (read them afresh then).

    Voiding a voided hand changes nothing. Raises :class:`NightError` 409 ``not_a_hand`` for a
    pot closed at a seat change (:func:`_refuse_a_pot_close`), 404 ``hand_not_found``,
    409 ``session_closed``; :class:`AccessDenied` unless host.
    """
    actor.require("void")
    begin_write(db)
    if not deals_by_rule(night) and not game_of(night.game or None).accounts:  # Tonk: five statements
        return void_counted_hand(db, night, number, actor, undo)
    figures.lock(db, night)
    hand = get_hand(db, night, number)
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; its hands can no longer change."))
    if hand.status == "voided":
        return hand, None
    _refuse_a_pot_close(hand)
    hand.status = "voided"
    hand.voided_at = utcnow()
    db.add(hand)
    nets = figures.hand_voided(db, night, hand)
    audit(db, night, actor, "hand_voided", hand_number=number,
          before={"status": "counted", "net": hand.result.get("net")}, after={"status": "voided"},
          **({"undo": True} if undo else {}))
    totals: dict[str, Any] | None = None
    if deals_by_rule(night):  # the later hands are scored from what the hand before leaves
        _rechain_or_roll_back(db, night, number, rescoring.before(db, night, number),
                              rescoring.following(hand.dealer, hand.result), actor)
    else:
        totals = {"next_dealer": next_dealer(db, night), "session_net": nets}
    db.commit()
    return hand, totals


def _refuse_a_pot_close(hand: Hand) -> None:
    """A ``close_pot`` entry (TONGITS.md §4.9) is the ledger's own, made when a seat changed: it
    follows the hands before it (a correction of those re-scores it) and is never voided or amended
    on its own. Raises :class:`NightError` 409 ``not_a_hand`` (field ``number``)."""
    if hand.kind == "close_pot":  # the end of a pool (pool_end) is voided like a hand: the pool goes on
        raise NightError(409, "not_a_hand",
                         N_("Entry {number} closed the pot when a seat changed; it follows the hands before it and "
                            "cannot be voided or amended on its own."), "number", number=hand.number)


def _rechain_or_roll_back(db: Session, night: GameSession, number: int, start: rescoring.Before,
                          old_next: str | None, actor: Actor) -> None:
    try:
        rescoring.rechain(db, night, number, start, old_next, actor)
    except BaseException:
        db.rollback()
        raise


def restore_hand(db: Session, night: GameSession, number: int, actor: Actor = SYSTEM) -> Hand:
    """Count voided hand ``number`` again (audit ``hand_restored``); restoring a counted hand
    changes nothing. Raises :class:`NightError` 404 ``hand_not_found``, 409 ``session_closed``;
    :class:`AccessDenied` unless host."""
    actor.require("restore")
    begin_write(db)
    figures.lock(db, night)
    hand = get_hand(db, night, number)
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; its hands can no longer change."))
    if hand.status != "voided":
        return hand
    by_rule = deals_by_rule(night)
    start = rescoring.before(db, night, number) if by_rule else None
    hand.status = "counted"
    hand.voided_at = None
    db.add(hand)
    figures.hand_restored(db, night, hand)
    audit(db, night, actor, "hand_restored", hand_number=number,
          before={"status": "voided"}, after={"status": "counted", "net": hand.result.get("net")})
    if start is not None:  # this hand, and the later ones, are scored from what the hand before leaves now
        try:
            hand = _restored_in_place(db, night, hand, start, actor)
        except BaseException:
            db.rollback()
            raise
        _rechain_or_roll_back(db, night, number, rescoring.Before(hand.result.get("state"),
                                                                  rescoring.following(hand.dealer, hand.result)),
                              start.next_dealer, actor)
    db.commit()
    return hand


def _restored_in_place(db: Session, night: GameSession, hand: Hand, start: rescoring.Before, actor: Actor) -> Hand:
    """Restored ``hand`` (counted again) scored afresh from ``start``, the state the hands before
    it leave now: a new version when that changes its result."""
    result = preview_hand(night, Submission.of_entry(hand.entry),
                          players=hand.players, stake_minor=hand.stake_minor, state=start.state,
                          dealer=None if hand.kind in figures.NOT_A_HAND else hand.dealer)
    if stored_result(result) == hand.result:
        return hand
    return rescoring.replace_version(db, night, hand, hand.dealer, result, actor, hand.number)


def undone_hand(db: Session, night: GameSession) -> Hand | None:
    """The hand the most recent "undo last hand" voided, while it is still void (what "redo"
    would count again), else ``None``."""
    for event in db.exec(_VOIDS_NEWEST_FIRST, params={"night": night.id}):
        if event.detail.get("undo") and event.hand_number is not None:
            hand = get_hand(db, night, event.hand_number)
            return hand if hand.status == "voided" else None
    return None


def redo_undo(db: Session, night: GameSession, actor: Actor = SYSTEM) -> Hand:
    """Undo the last undo: count again the hand it voided (audit ``hand_restored``). Raises
    :class:`NightError` 404 ``nothing_to_redo``, 409 ``session_closed``; :class:`AccessDenied`
    unless host."""
    actor.require("restore")
    hand = undone_hand(db, night)
    if hand is None:
        raise NightError(404, "nothing_to_redo", N_("No undone hand to count again."))
    return restore_hand(db, night, hand.number, actor)


def undo_last_hand(db: Session, night: GameSession, actor: Actor = SYSTEM) -> Hand:
    """Void the most recent counted hand (the host's "undo"; a pot closed at a seat change since is
    not a hand: the hand before it is undone and the close re-scored). Raises :class:`NightError`
    404 ``nothing_to_undo`` when no hand counts."""
    actor.require("undo")
    last = db.exec(select(Hand).where(Hand.session_id == night.id, Hand.status == "counted",
                                      Hand.kind.not_in(sorted(figures.NOT_A_HAND)))  # type: ignore[attr-defined]
                   .order_by(Hand.number.desc())).first()  # type: ignore[attr-defined]
    if last is None:
        raise NightError(404, "nothing_to_undo", N_("No counted hand to undo."))
    return void_hand(db, night, last.number, actor, undo=True)


def close_night(
    db: Session, night: GameSession, actor: Actor = SYSTEM, *, before_commit: Callable[[], None] | None = None
) -> GameSession:
    """Close the night: no more hands or voids. Closing twice changes nothing. A night whose game
    keeps a pot closes it first (:func:`ledger.night.recording.close_pot`, ``end_of_night``: split among
    the seated players, or carried), in the same transaction.
    A pool night pays its pot first when one player is left (:func:`ledger.night.pool.end_at_close`;
    409 ``pool_not_ended`` with two or more still in).
    ``before_commit`` runs inside the closing transaction (a club's carry-over, :mod:`ledger.clubs.carry`).
    Raises :class:`AccessDenied` unless host."""
    actor.require("close")
    if night.status == "closed":
        return night
    begin_write(db)
    night = figures.lock(db, night)  # a hand being recorded finishes first; a second close waits
    if night.status == "closed":
        db.rollback()
        return night
    if night.status != "open":  # voided or removed as a whole (ledger.night.whole_night)
        db.rollback()
        raise NightError(409, "session_closed", N_("This night was voided or removed; it can no longer change."))
    closed_pot = close_pot(db, night, actor, "end_of_night")  # Tong-its: TONGITS.md §4.9, before the close
    try:
        pool.end_at_close(db, night, actor)  # a pool night: its pot is paid before the close (RUMMY13.md §4.10)
    except NightError:
        db.rollback()
        raise
    night.status = "closed"
    night.closed_at = utcnow()
    db.add(night)
    audit(db, night, actor, "session_closed", after={"net": balances(db, night)}
          | ({"pot_closed": closed_pot.number} if closed_pot is not None else {}))
    if before_commit is not None:
        try:
            before_commit()
        except BaseException:
            db.rollback()  # the night stays open, as it was
            raise
    db.commit()
    return night
