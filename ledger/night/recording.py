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

from dataclasses import dataclass, replace
from datetime import datetime
from collections.abc import Mapping
from typing import Any, Sequence

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session

from ledger.night import figures
from ledger.night import idempotency
from ledger.access.roles import SYSTEM, Actor
from ledger.night.audit import audit
from ledger.storage.db import begin_write, check_writing
from ledger.errors import NightError
from ledger.i18n import N_
from ledger.night.idempotency import check_idempotency_key
from ledger.storage.models import GameSession, Hand, HandTransfer, utcnow
from ledger.money import format_plain
from ledger.names import normalise_entry, normalise_name
from ledger.night.reads import hand_json, next_dealer, rules_of, take_number_and_dealer
from ledger.games import DEFAULT_GAME, Scored, game
from ledger.games.tonk import HandError, HandResult
from ledger.games.tonk.renaming import name_along, rename_along


HANDS = Hand.__table__  # type: ignore[attr-defined]
# the parts of an entry a game reads besides outcome, hands and side bets (RUMMY13.md §8.1: the wild rank)
GAME_PARTS: tuple[str, ...] = ("wild_rank",)
KEPT: Any = object()  # preview_hand's default state: the night's own
TRANSFERS = HandTransfer.__table__  # type: ignore[attr-defined]

# prepared once: SQLAlchemy caches their compiled forms, so a hand costs no statement building
_HAND_BY_KEY = select(HANDS.c.id).where(HANDS.c.session_id == bindparam("night"),
                                        HANDS.c.idempotency_key == bindparam("key"))
_CURRENT_BY_NUMBER = select(HANDS.c.id).where(HANDS.c.session_id == bindparam("night"),
                                              HANDS.c.number == bindparam("number"),
                                              HANDS.c.status != "superseded")
_INSERT_HAND = insert(HANDS)
_INSERT_TRANSFERS = insert(TRANSFERS)


@dataclass(frozen=True, slots=True)
class Submission:
    """What a phone or API client sends for one hand: the §8.1 ``outcome``, ``hands`` and
    ``side_bets`` (raw JSON), optional ``dealer``, idempotency key, and the hand ``number``
    the phone means to record (so two phones cannot both record "hand 7").

    ``seen_players`` (the seating, in seat order) and ``seen_stake_minor`` (minor units) are
    the table the phone showed when the hand was entered; when either is given and the night's
    differs when the hand is stored, the hand is refused (409 ``table_changed``) instead of
    being paid to other players or at another stake (see :func:`record_hand`)."""

    outcome: Any
    hands: Any
    side_bets: Any = None
    dealer: str | None = None
    idempotency_key: str | None = None
    number: int | None = None
    seen_players: tuple[str, ...] | None = None
    seen_stake_minor: int | None = None
    #: the game's own parts of the entry besides ``outcome``, ``hands`` and ``side_bets`` (keys of
    #: :data:`GAME_PARTS`: 13-card rummy's ``wild_rank``, RUMMY13.md §1.4), raw JSON; stored with the entry
    game_parts: Mapping[str, Any] | None = None

    @classmethod
    def of_entry(cls, entry: Mapping[str, Any], **others: Any) -> Submission:
        """The submission that stored ``entry`` (a stored hand's ``entry``: ``outcome``,
        ``hands``, ``side_bets`` and any of :data:`GAME_PARTS`), with ``others`` (dealer, key...)."""
        parts = {key: entry[key] for key in GAME_PARTS if entry.get(key) is not None}
        return cls(outcome=entry.get("outcome"), hands=entry.get("hands", {}), side_bets=entry.get("side_bets"),
                   game_parts=parts or None, **others)

    def normalised(self) -> Submission:
        """This submission with every name in it (dealer, and all of the entry's texts and
        keys) normalised as :func:`ledger.names.normalise_name` does, so it matches the seats."""
        return replace(
            self,
            outcome=normalise_entry(self.outcome, "outcome"),
            hands=normalise_entry(self.hands, "hands"),
            side_bets=normalise_entry(self.side_bets, "side_bets"),
            game_parts=None if self.game_parts is None else normalise_entry(dict(self.game_parts)),
            dealer=normalise_name(self.dealer) if isinstance(self.dealer, str) else self.dealer,
            seen_players=(None if self.seen_players is None
                          else tuple(normalise_name(p) for p in self.seen_players)),
        )

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.outcome, "hands": self.hands}
        if self.side_bets is not None:
            out["side_bets"] = self.side_bets
        for key in GAME_PARTS:  # only those given: a Tonk or Tong-its entry is stored as before
            if self.game_parts and self.game_parts.get(key) is not None:
                out[key] = self.game_parts[key]
        return out


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
    submission, result = closing
    dealer = next_dealer(db, night)  # a close deals nobody: the dealer of the next hand stays
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
    taken = db.connection().execute(_CURRENT_BY_NUMBER, {"night": night.id, "number": wanted}).first()
    if taken is None:
        return None
    return NightError(409, "hand_number_taken",
                      N_("Hand {number} was already recorded by another phone; check it before entering again."),
                      "number", {"existing": hand_json(db.get(Hand, taken.id)), "next_number": next_number},
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
    return Hand(id=hand_id, **values)


def stored_result(result: HandResult | Scored) -> dict[str, Any]:
    """What a hand's row keeps of its scored ``result``: the spec's result (RULES.md §8.2,
    TONGITS.md §8.2) and the engine's facts for the describing sentences; Tonk's also its card
    counts, another game's its ``winners`` and the ``state`` it leaves for the next hand."""
    if isinstance(result, HandResult):
        return result.to_json() | {"detail": result.detail, "counts": result.counts}
    return result.to_json() | {"winners": list(result.winners), "detail": dict(getattr(result, "detail", {})),
                               "state": None if result.state is None else dict(result.state)}


def replays(existing: Hand, submission: Submission, amends: tuple[int, int] | None = None,
            renames: Sequence[tuple[str, str]] = ()) -> bool:
    """Whether ``submission`` is the very request that stored ``existing`` under its key: the
    same kind (a new hand is version 1; the amendment of hand ``n`` at version ``v`` stored
    ``n`` at ``v + 1``), the same entry, and the same dealer and number where they are given;
    the request's names read after ``renames`` (``(old, new)``, oldest first: the renames made
    since ``existing`` was stored, which renamed it)."""
    if amends is None:
        same_kind = existing.version == 1 and submission.number in (None, existing.number)
    else:
        same_kind = (existing.number, existing.version) == (amends[0], amends[1] + 1)
    return (same_kind and existing.entry == rename_along(submission.entry(), renames)
            and name_along(submission.dealer, renames) in (None, existing.dealer))


def replays_now(db: Session, night: GameSession, existing: Hand, submission: Submission,
                amends: tuple[int, int] | None = None) -> bool:
    """:func:`replays`, also under the renames made since ``existing`` was stored
    (:func:`ledger.night.idempotency.renames_since`, read only when the names differ): a retry sent
    with the names of then is the request that stored it, not another one."""
    if replays(existing, submission, amends):
        return True
    renames = idempotency.renames_since(db, night.id, existing.created_at)
    return bool(renames) and replays(existing, submission, amends, renames)


def key_reused(existing: Hand) -> NightError:
    """The 409 ``idempotency_key_reused`` for a key that stored ``existing`` but came back
    with another request."""
    return idempotency.key_reused(hand_json(existing))


def same_submission(existing: Hand, submission: Submission) -> Hand:
    """The hand a repeated idempotency key already recorded, if the repeat is the same request;
    anything else under a used key is :class:`NightError` 409 ``idempotency_key_reused``
    (nothing is recorded, nothing is silently dropped)."""
    if not replays(existing, submission):
        raise key_reused(existing)
    return existing


def as_now(db: Session, night: GameSession, stored: Hand) -> Hand:
    """The answer to a repeated request: ``stored`` (the version its key stored), or the hand's
    current version when a later correction or seat fix has superseded it, so that a retry is
    answered with the hand as it stands (one indexed read then)."""
    if stored.status != "superseded":
        return stored
    current = db.connection().execute(_CURRENT_BY_NUMBER, {"night": night.id, "number": stored.number}).first()
    return db.get(Hand, current.id) if current is not None else stored


def by_idempotency_key(db: Session, night: GameSession, key: str) -> Hand | None:
    """The hand version stored under idempotency ``key`` at ``night``, or ``None`` (one
    indexed read; the hand itself is loaded only when there is one)."""
    found = db.connection().execute(_HAND_BY_KEY, {"night": night.id, "key": key}).first()
    return None if found is None else db.get(Hand, found.id)
