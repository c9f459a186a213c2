"""Recording a new hand: check and score it, then store it in one short write transaction.

What a phone sends is a :class:`Submission`. :func:`record_hand` reads and scores it before it
takes the write lock (:func:`ledger.storage.db.begin_write`), and then writes with prepared SQLAlchemy
Core statements, built once at import: take the next number (which also reads the seating and
stake again), store the hand and its transfers (:func:`store_version`), keep the running figures
(:mod:`ledger.night.figures`), write the audit event, commit. Nothing here reads the whole night. The
corrections of :mod:`ledger.night.lifecycle` and :mod:`ledger.night.seating` store their versions with
:func:`store_version` too. Amounts are ``int`` minor units.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any, Sequence

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from ledger.night import figures
from ledger.access.roles import SYSTEM, Actor
from ledger.night.audit import audit
from ledger.storage.db import begin_write, check_writing
from ledger.storage.rows import as_written
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.night.hand_replays import as_now, by_idempotency_key, current_id, key_reused, replays_now, same_submission
from ledger.night.idempotency import check_idempotency_key
from ledger.night.submission import Submission
from ledger.storage.models import GameSession, Hand, HandTransfer, utcnow
from ledger.money import format_plain
from ledger.night.reads import hand_json, next_dealer, rules_of, take_number_and_dealer
from ledger.games import DEFAULT_GAME, Scored, game
from ledger.games.tonk import HandError, HandResult


HANDS = Hand.__table__  # type: ignore[attr-defined]
KEPT: Any = object()  # preview_hand's default state: the night's own
TRANSFERS = HandTransfer.__table__  # type: ignore[attr-defined]

# prepared once: SQLAlchemy caches their compiled forms, so a hand costs no statement building
_INSERT_HAND = insert(HANDS)
_INSERT_TRANSFERS = insert(TRANSFERS)


def preview_hand(
    night: GameSession, submission: Submission, *, players: Sequence[str] | None = None,
    stake_minor: int | None = None, dealer: str | None = None, state: Any = KEPT,
) -> HandResult | Scored:
    """Score a hand under the session's rules without storing it, at the night's current
    seating and stake, or at ``players`` and ``stake_minor`` (an amended hand keeps its own),
    through the night's game (:meth:`ledger.games.base.Game.score`). ``dealer`` (default: the
    submission's) and ``state`` (default: the night's ``game_state``, what the next hand is
    scored from) matter to a game with state (Tong-its: the pot, and who deals next); Tonk
    reads neither.

    Raises :class:`HandError` exactly as recording would.
    """
    submission = submission.normalised()
    return game(night.game or None).score(
        rules_of(night),
        players=tuple(night.players if players is None else players),
        stake_minor=night.stake_minor if stake_minor is None else stake_minor,
        dealer=submission.dealer if dealer is None else dealer,
        state=night.game_state if state is KEPT else state,
        entry=submission.entry(),
    )


def deals_by_rule(night: GameSession) -> bool:
    """Whether the night's game scores a hand from who deals it and the state the hands before
    left (every game but Tonk: Tong-its' pot and its "the winner deals"): recording then reads
    the dealer and the state under the write lock, and scores again if they moved meanwhile."""
    return (night.game or DEFAULT_GAME) != DEFAULT_GAME


def record_hand(
    db: Session, night: GameSession, submission: Submission, actor: Actor = SYSTEM
) -> tuple[Hand, bool]:
    """:func:`record_hand_kept` without the balances: ``(hand, created)``."""
    hand, created, _balances = record_hand_kept(db, night, submission, actor)
    return hand, created


def record_hand_kept(
    db: Session, night: GameSession, submission: Submission, actor: Actor = SYSTEM
) -> tuple[Hand, bool, dict[str, int] | None]:
    """Check, score and store one hand in a single transaction.

    Returns ``(hand, created, balances)``; ``created`` is False when the same request was already
    recorded under its idempotency key (the stored hand is returned and nothing new is written,
    even on a closed night); ``balances`` is every player's running net (minor units, seat
    order) as this transaction wrote it (:func:`ledger.night.figures.hand_recorded`), ``None``
    for a replay (read them with :func:`ledger.night.figures.balances`). Raises :class:`HandError` (422) for an entry the rules refuse;
    :class:`NightError` 422 ``invalid_entry`` (field ``Idempotency-Key``) for a key that is not
    1 to 200 printable ASCII characters, 409 ``idempotency_key_reused`` (with the ``existing``
    hand) for a key already used by another request, 409 ``session_closed``, 409
    ``hand_number_taken`` (with the ``existing`` hand) or ``hand_number_gap`` when
    ``submission.number`` is not the next number; 409 ``table_changed`` (with ``changed``:
    ``{"players": {"seen", "now"}, "stake": {"seen", "now"}}``, the parts that differ, stakes
    in minor units) when the submission says which seating or stake it was entered against and
    the night's are other ones now (a sit-in, a leave, a seat swap or a stake change since), so
    a hand is never credited to players its phone did not name nor paid at a stake it did not
    show; :class:`~ledger.access.roles.AccessDenied` when the actor may not record.

    The write lock is held only for the writes: the hand is read, checked and scored first.
    The key is not looked up before: a request under a used key (a retry, a twin that reaches
    the lock second) is stopped by the unique key of ``(session, idempotency key)`` and answered
    with the hand stored under it, and one refused on the way (a closed night, a changed table, an
    entry the rules refuse now) is answered so too when its key stored the same request, so a
    first submission costs no read of its key (issue 24).
    """
    actor.require("record")
    check_idempotency_key(submission.idempotency_key)
    submission = submission.normalised()
    try:
        return _record_new(db, night, submission, actor)
    except (NightError, HandError):
        if not submission.idempotency_key:
            raise
        existing = by_idempotency_key(db, night, submission.idempotency_key)
        if existing is None:
            raise
        if replays_now(db, night, existing, submission):
            return as_now(db, night, existing), False, None
        if night.status == "open":
            raise key_reused(existing) from None
        raise


def _record_new(
    db: Session, night: GameSession, submission: Submission, actor: Actor
) -> tuple[Hand, bool, dict[str, int] | None]:
    """:func:`record_hand_kept` for a normalised ``submission``, its key not looked up first:
    a used key is found by the unique key's refusal (answered here) or, after another refusal,
    by the caller."""
    if night.status != "open":
        raise NightError(409, "session_closed", N_("This night is closed; no more hands can be recorded."))
    _check_seen(night, submission, list(night.players), night.stake_minor)
    by_rule = deals_by_rule(night)
    scored_with = (submission.dealer if submission.dealer is not None or not by_rule else next_dealer(db, night),
                   night.game_state)
    result = preview_hand(night, submission, dealer=scored_with[0], state=scored_with[1])
    _check_dealer(night, submission.dealer)
    begin_write(db)  # checked and scored: only now take the write lock
    try:
        told: str | None = None  # who deals, read with the number (a Tonk hand whose phone did not say)
        if by_rule or submission.dealer is not None:
            number, players, stake_minor = _take_hand_number(db, night)
        else:
            number, players, stake_minor, told = _take_dealt_number(db, night)
        reseated = _reseated(night, players, stake_minor)
        if reseated:  # changed meanwhile by the host
            _check_seen(night, submission, players, stake_minor)  # the phone saw the old table: refuse
            result = preview_hand(night, submission)  # a client that did not say: the new ones
        dealer = (submission.dealer if submission.dealer is not None
                  else told if told is not None else next_dealer(db, night))
        _check_dealer(night, dealer)
        if by_rule and (reseated or (dealer, night.game_state) != scored_with):  # another hand came first
            result = preview_hand(night, submission, dealer=dealer, state=night.game_state)
        if submission.number is not None and submission.number != number:
            # a twin of this request may have taken the number it meant: answer as the twin
            twin = by_idempotency_key(db, night, submission.idempotency_key) if submission.idempotency_key else None
            db.rollback()
            if twin is not None:
                return as_now(db, night, same_submission(twin, submission)), False, None
            _refuse_number(db, night, submission.number, number)
        hand = store_version(db, night, number, 1, dealer, submission, result)
        balances = figures.hand_recorded(db, night, number, hand.players,
                                         [(t.payer, t.payee, t.amount_minor) for t in result.transfers])
        if by_rule:
            figures.state_changed(db, night, result.state)
        audit(db, night, actor, "hand_recorded", hand_number=number,
              after={"dealer": dealer, "entry": hand.entry, "net": result.net}
              | ({"state": result.state} if by_rule else {}))
        db.commit()
    except IntegrityError:
        db.rollback()
        if submission.idempotency_key:  # this request's key stored a hand already (a retry, a twin)
            existing = by_idempotency_key(db, night, submission.idempotency_key)
            if existing is not None:
                if not replays_now(db, night, existing, submission):
                    raise key_reused(existing) from None
                return as_now(db, night, existing), False, None
        raise
    except BaseException:
        db.rollback()
        raise
    return hand, True, balances


def close_pot(db: Session, night: GameSession, actor: Actor, reason: str) -> Hand | None:
    """Close the pot of a night whose game keeps one (TONGITS.md §4.9), inside the caller's write
    transaction, after :func:`ledger.night.figures.lock` and while the night is still open: ``reason``
    ``end_of_night`` follows the rules' ``pot_at_end`` (``split`` pays the seated players,
    ``carry`` leaves the balance in the pot), ``seat_change`` their ``pot_on_seat_change``
    (``split``, or ``keep``); either way the streak is cleared. Stored as an entry of its own
    (kind ``close_pot``, the next number, not counted among the hands) with its transfers, the
    pot account, the players' nets and the state kept like a hand's, and audited as recorded.
    Returns the stored entry, or ``None`` when there is nothing to close (a game without a pot,
    or an empty pot with nobody on a streak). Raises nothing for a well-formed night."""
    closing = pot_close_preview(night, reason)
    if closing is None:
        return None
    return store_entry(db, night, actor, *closing)


def store_entry(db: Session, night: GameSession, actor: Actor, submission: Submission, result: Scored) -> Hand:
    """Store an entry of the ledger's that is not a hand played (:data:`ledger.night.figures.NOT_A_HAND`:
    a pot closed, TONGITS.md §4.9; the end of a pool, RUMMY13.md §4.10) inside the caller's write
    transaction, after :func:`ledger.night.figures.lock` while the night is open: the next number,
    not counted among the hands, with its transfers, the players' nets, the state it leaves and an
    audit event as a recorded hand has. Its dealer is the next hand's (it deals nobody). Raises
    :class:`NightError` 409 ``session_closed``."""
    dealer = next_dealer(db, night)  # an entry that deals nobody: the dealer of the next hand stays
    taken = figures.new_hand_number(db, night, counted=False)
    if taken is None:
        raise NightError(409, "session_closed", N_("This night is closed; no more hands can be recorded."))
    number = taken[0]
    hand = store_version(db, night, number, 1, dealer, submission, result)
    figures.hand_recorded(db, night, number, hand.players,
                          [(t.payer, t.payee, t.amount_minor) for t in result.transfers])
    figures.state_changed(db, night, result.state)
    audit(db, night, actor, "hand_recorded", hand_number=number,
          after={"dealer": dealer, "entry": hand.entry, "net": result.net, "state": result.state})
    return hand


def pot_close_preview(night: GameSession, reason: str) -> tuple[Submission, Scored] | None:
    """What :func:`close_pot` would store now for ``reason`` (``end_of_night`` or ``seat_change``,
    TONGITS.md §4.9), scored by the game from the night's state at its current seating, without
    writing: ``(submission, result)``, the result's ``net`` in minor units (``"pot"`` included);
    ``None`` when there is nothing to close (a game without a pot, or an empty pot with nobody on a
    streak). Raises nothing for a well-formed night."""
    chosen = game(night.game or None)
    state = night.game_state
    if "pot" not in chosen.accounts or state is None:
        return None
    if not state.get("balance") and state.get("holder") is None:
        return None
    submission = Submission(outcome={"kind": "close_pot", "reason": reason}, hands={})
    result = chosen.score(rules_of(night), players=tuple(night.players), stake_minor=night.stake_minor,
                          dealer=None, state=state, entry=submission.entry())
    return submission, result  # type: ignore[return-value]


def _check_seen(night: GameSession, submission: Submission, players: list[str], stake_minor: int) -> None:
    """Raise :class:`NightError` 409 ``table_changed`` when ``submission`` names the seating or
    the stake it was entered against and ``players`` / ``stake_minor`` (the night's now) differ."""
    refusal = table_changed(night, submission.seen_players, submission.seen_stake_minor, players, stake_minor)
    if refusal is not None:
        raise refusal


def table_changed(night: GameSession, seen_players: Sequence[str] | None, seen_stake: int | None,
                  players: Sequence[str], stake_minor: int) -> NightError | None:
    """The :class:`NightError` 409 ``table_changed`` (with ``changed: {players?: {seen, now},
    stake?: {seen, now}}``, stakes in minor units) for an entry filled against ``seen_players``
    and ``seen_stake`` (``None``: not said) when the table is now ``players`` at ``stake_minor``;
    ``None`` when nothing the entry said changed."""
    changed: dict[str, Any] = {}
    if seen_players is not None and list(seen_players) != list(players):
        changed["players"] = {"seen": list(seen_players), "now": list(players)}
    if seen_stake is not None and seen_stake != stake_minor:
        changed["stake"] = {"seen": seen_stake, "now": stake_minor}
    if not changed:
        return None
    money = {key: f"{format_plain(value, night.currency)} {night.currency}"
             for key, value in (("seen_stake", seen_stake), ("now_stake", stake_minor)) if value is not None}
    if "players" in changed and "stake" in changed:
        template = N_("The seating and the stake changed since this hand was entered: it was entered for "
                      "{seen_players} at {seen_stake}, and the table is now {now_players} at {now_stake}. "
                      "Check the hand against the table as it is now and enter it again.")
    elif "players" in changed:
        template = N_("The seating changed since this hand was entered: it was entered for {seen_players}, "
                      "and the table is now {now_players}. "
                      "Check the hand against the table as it is now and enter it again.")
    else:
        template = N_("The stake changed since this hand was entered: it was entered at {seen_stake}, "
                      "and the stake is now {now_stake}. "
                      "Check the hand against the table as it is now and enter it again.")
    return NightError(409, "table_changed", template, None, {"changed": changed},
                      seen_players=list(seen_players or ()), now_players=list(players), **money)


def _check_dealer(night: GameSession, dealer: str | None) -> None:
    if dealer is not None and dealer not in night.players:
        raise HandError("unknown_player", N_("The dealer {name} is not seated at this table."), "dealer", name=dealer)


def _take_hand_number(db: Session, night: GameSession) -> tuple[int, list[str], int]:
    """:func:`ledger.night.figures.new_hand_number`: ``(number, players, stake_minor)``. Raises
    :class:`NightError` 409 ``session_closed``."""
    taken = figures.new_hand_number(db, night)
    if taken is None:
        raise NightError(409, "session_closed", N_("This night is closed; no more hands can be recorded."))
    return taken


def _take_dealt_number(db: Session, night: GameSession) -> tuple[int, list[str], int, str]:
    """:func:`_take_hand_number` with who deals the hand, in the same statement
    (:func:`ledger.night.reads.take_number_and_dealer`)."""
    taken = take_number_and_dealer(db, night)
    if taken is None:
        raise NightError(409, "session_closed", N_("This night is closed; no more hands can be recorded."))
    return taken


def _reseated(night: GameSession, players: list[str], stake_minor: int) -> bool:
    """Whether ``players`` and ``stake_minor`` (read under the write lock) differ from what
    ``night`` was read with (the host changed them while this hand was scored); ``night`` then
    holds the new ones, as loaded values (nothing to write back)."""
    if (players, stake_minor) == (list(night.players), night.stake_minor):
        return False
    set_committed_value(night, "players", players)
    set_committed_value(night, "stake_minor", stake_minor)
    return True


def number_taken(db: Session, night: GameSession, wanted: int, next_number: int) -> NightError | None:
    """The 409 ``hand_number_taken`` a hand entered as number ``wanted`` would get (with the
    ``existing`` hand and the ``next_number``), or ``None`` when no hand has that number: for a
    page that shows the conflict before its phone saves (a hand kept offline while another
    phone recorded that number)."""
    taken = current_id(db, night, wanted)
    if taken is None:
        return None
    return NightError(409, "hand_number_taken",
                      N_("Hand {number} was already recorded by another phone; check it before entering again."),
                      "number", {"existing": hand_json(db.get(Hand, taken)), "next_number": next_number},
                      number=wanted)


def _refuse_number(db: Session, night: GameSession, wanted: int, next_number: int) -> None:
    """Raise the :class:`NightError` 409 for a phone that meant to record hand ``wanted``
    when the next is ``next_number``: ``hand_number_taken`` (with the ``existing`` hand) or
    ``hand_number_gap``."""
    taken = number_taken(db, night, wanted, next_number)
    if taken is not None:
        raise taken
    raise NightError(409, "hand_number_gap", N_("The next hand is number {next}, not {number}."),
                     "number", {"next_number": next_number}, next=next_number, number=wanted)


def store_version(
    db: Session, night: GameSession, number: int, version: int, dealer: str,
    submission: Submission, result: HandResult | Scored, *, players: Sequence[str] | None = None,
    stake_minor: int | None = None, voided_at: datetime | None = None,
) -> Hand:
    """Store one version of a hand with its transfers, played at ``players`` and
    ``stake_minor`` (default: the night's current seating and stake), inside the caller's write
    transaction; counted, or with ``voided_at`` voided as of then (a voided hand re-entered by a
    seat fix: it counts only once restored). Returns the stored :class:`Hand` (its ``id`` set;
    not tracked by ``db``: read it again with ``db.get`` to change it)."""
    values = {
        "session_id": night.id,
        "number": number,
        "version": version,
        "dealer": dealer,
        "players": list(night.players if players is None else players),
        "stake_minor": night.stake_minor if stake_minor is None else stake_minor,
        "kind": result.kind,
        "entry": submission.entry(),
        "result": stored_result(result),
        "redeal": result.redeal,
        "status": "counted" if voided_at is None else "voided",
        "voided_at": voided_at,
        "idempotency_key": submission.idempotency_key or None,
        "created_at": utcnow(),
    }
    check_writing(db)
    connection = db.connection()
    hand_id = connection.execute(_INSERT_HAND, values).inserted_primary_key[0]
    if result.transfers:
        connection.execute(_INSERT_TRANSFERS, [
            {"hand_id": hand_id, "payer": t.payer, "payee": t.payee, "amount_minor": t.amount_minor}
            for t in result.transfers])
    return as_written(Hand, values | {"id": hand_id})


def stored_result(result: HandResult | Scored) -> dict[str, Any]:
    """What a hand's row keeps of its scored ``result``: the spec's result (RULES.md §8.2,
    TONGITS.md §8.2) and the engine's facts for the describing sentences; Tonk's also its card
    counts, another game's its ``winners`` and the ``state`` it leaves for the next hand."""
    if isinstance(result, HandResult):
        return result.to_json() | {"detail": result.detail, "counts": result.counts}
    return result.to_json() | {"winners": list(result.winners), "detail": dict(getattr(result, "detail", {})),
                               "state": None if result.state is None else dict(result.state)}
