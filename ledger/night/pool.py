"""A pool rummy night (RUMMY13.md §4.9–§4.10): the running scores are the night's game state,
kept by each hand's transaction (:mod:`ledger.games.rummy13.pool_night` scores them); the end of
the pool pays the pot once, as an entry of its own (kind ``pool_end``, not counted among the
hands, :func:`ledger.night.recording.store_entry`): the one player still in takes it, or the
players still in split it (``equal`` or ``by_drops``). The host ends the pool
(:func:`end_pool`); closing the night ends it when one player is left (:func:`end_at_close`).
Voiding the end (a hand like any other) lets the pool go on; amounts are ``int`` minor units.
"""
from __future__ import annotations

from typing import Any

from sqlmodel import Session

from ledger.access.roles import Actor
from ledger.errors import NightError
from ledger.games import game
from ledger.games.rummy13.pool_night import END_KIND, still_in
from ledger.i18n import N_
from ledger.night import figures
from ledger.night.reads import is_pool_night, rules_of
from ledger.night.recording import store_entry
from ledger.night.submission import Submission
from ledger.storage.db import begin_write
from ledger.storage.models import GameSession, Hand

POOL_NOT_ENDED = N_("The pool is not over: end it first (the players still in split the pot), or play on.")


def _store_end(db: Session, night: GameSession, actor: Actor, split: str | None) -> Hand:
    outcome: dict[str, Any] = {"kind": END_KIND} | ({"split": split} if split is not None else {})
    submission = Submission(outcome=outcome, hands={})
    result = game(night.game).score(rules_of(night), players=tuple(night.players), stake_minor=night.stake_minor,
                                    dealer=None, state=night.game_state, entry=submission.entry())
    return store_entry(db, night, actor, submission, result)


def end_pool(db: Session, night: GameSession, actor: Actor, split: str | None = None) -> Hand:
    """The host ends the pool now (committed): ``split`` ``None`` pays the one player still in;
    ``"equal"`` or ``"by_drops"`` splits the pot among the players still in. Returns the stored
    entry. Raises :class:`~ledger.games.errors.HandError` 422 (``pool_not_over``,
    ``claim_mismatch``, ``split_not_allowed``, ``invalid_entry`` once it ended; nothing stored),
    :class:`NightError` 409 ``session_closed``, 422 ``invalid_entry`` for a night that is no pool,
    :class:`~ledger.access.roles.AccessDenied` unless host."""
    actor.require("close")
    if not is_pool_night(night):
        raise NightError(422, "invalid_entry", N_("This night is not a pool: it has no pot to pay."), "split")
    begin_write(db)
    try:
        night = figures.lock(db, night)
        if night.status != "open":
            raise NightError(409, "session_closed", N_("This night is closed; no more hands can be recorded."))
        entry = _store_end(db, night, actor, split)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return entry


def end_at_close(db: Session, night: GameSession, actor: Actor) -> Hand | None:
    """Inside :func:`ledger.night.lifecycle.close_night`'s transaction: a pool night not yet
    ended ends now when one player is left (the pot is theirs); with two or more still in the
    close is refused, 409 ``pool_not_ended`` (field ``split``: end the pool first). ``None`` for
    another night, or a pool already ended."""
    if not is_pool_night(night) or (night.game_state or {}).get("ended"):
        return None
    if len(still_in(rules_of(night), night.players, night.game_state)) != 1:  # type: ignore[arg-type]
        raise NightError(409, "pool_not_ended", POOL_NOT_ENDED, "split")
    return _store_end(db, night, actor, None)
