"""Storage tables (SQLModel): game sessions, hands, their transfers, payments and audit events.

Money columns are ``*_minor`` integers. Times are timezone-aware UTC. Rows are never deleted:
a voided hand keeps its row and its transfers, and simply stops counting.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Column, Index, UniqueConstraint, false
from sqlmodel import Field, SQLModel

from ledger.storage.columns import UTC, UTCDateTime, utcnow  # noqa: F401  (UTC, UTCDateTime: read from here by the migrations)
from ledger.storage.columns import utc_column as _utc_column

class GameSession(SQLModel, table=True):
    """One night at one table: seat order, stake, currency and the frozen rule-set snapshot;
    ``timezone`` is the IANA zone of the phone that started it (pages and PDFs show its times there).

    ``players`` and ``stake_minor`` are the *current* seating (clockwise) and stake: what the next
    hand is played at (each :class:`Hand` keeps its own). ``roster`` is everyone who ever sat at
    this night, in the order they first sat (players who left included), see :mod:`ledger.night.seating`.

    Its secrets live hashed in :class:`AccessKey`. ``last_hand_number`` is bumped in the same transaction that records a hand, which keeps
    hand numbers unique and gap-free under concurrent writers.

    Running figures (:mod:`ledger.night.figures`, kept in the transaction of each change):
    ``counted_hands`` is how many hands count (redeals included); ``stakes`` is where the stake
    changed, ``[[from_hand, stake_minor], ...]`` in hand order, the last entry the current stake.

    ``game`` is the game played (:mod:`ledger.games`; ``"tonk"`` for every night before games);
    ``game_state`` the state the next hand is scored from (``None`` for a game without state, such
    as Tonk; Tong-its: its pot ``{"balance", "holder", "streak"}``, TONGITS.md §4.8), kept in the
    transaction of each change like the figures; the balances of the game's accounts are the
    night's :class:`NightAccount` rows.
    """

    __tablename__ = "game_session"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    currency: str = Field(max_length=3)
    stake_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    roster: list[str] = Field(sa_column=Column(JSON, nullable=False, server_default="[]"))
    first_dealer: str = Field(max_length=80)
    status: str = Field(default="open", max_length=16)
    last_hand_number: int = Field(default=0)
    counted_hands: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    stakes: list[list[int]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    timezone: str = Field(default="UTC", max_length=64, sa_column_kwargs={"server_default": "UTC"})
    game: str = Field(default="tonk", max_length=20, sa_column_kwargs={"server_default": "tonk"})
    game_state: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    closed_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))


class PlayerFigures(SQLModel, table=True):
    """One player's running figures at one night (:mod:`ledger.night.figures`), kept in the
    transaction of each change so that no request sums the whole night: ``net_minor`` over the
    counted hands, ``paid_minor`` what the counted payments moved (paid less received, so what
    is still owed is ``net_minor + paid_minor``), ``last_hand`` the number of the last hand the
    player sat at (voided hands included; None before their first); ``handles`` the player's
    payment handles (issue 22; a rename keeps them). One row for everyone who
    ever sat at the night."""

    __tablename__ = "player_figures"

    session_id: str = Field(foreign_key="game_session.id", primary_key=True, max_length=32)
    player: str = Field(primary_key=True, max_length=80)
    net_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    paid_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    last_hand: int | None = Field(default=None)
    # the player's payment handles at this night (issue 22, ledger.settlement.handoffs.clean_handles);
    # None: none kept. Read only by this night's tokens (ledger.night.handles).
    handles: dict[str, str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # the player's own opt-in: their handles in their statement PDF (issue 22); never without it
    handles_in_pdf: bool = Field(default=False, sa_column=Column(Boolean, nullable=False, server_default=false()))
    # the access key (phone) that last set the handles: a phone that only said "This is me" may
    # replace handles it set itself, never another phone's (ledger.night.handles)
    handles_key_id: int | None = Field(default=None)


class NightAccount(SQLModel, table=True):
    """One account of a night's game besides the players (:attr:`ledger.games.base.Game.accounts`,
    e.g. Tong-its' ``"pot"``): ``balance_minor`` is what the counted hands moved into it (received
    less paid), kept in the transaction of each change (:mod:`ledger.night.figures`), so that the
    players' nets plus every account sum to zero at every commit. One row per account per night of
    a game that has accounts. ``opening_minor`` is the balance the account opened with (a pot a
    club brought in, TONGITS.md §4.8; else 0), included in ``balance_minor``: the players' nets
    plus each account's movement (``balance_minor - opening_minor``) sum to zero."""

    __tablename__ = "night_account"

    session_id: str = Field(foreign_key="game_session.id", primary_key=True, max_length=32)
    account: str = Field(primary_key=True, max_length=20)
    balance_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    opening_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))


class AccessKey(SQLModel, table=True):
    """A credential for one session: ``role`` is ``host``, ``player`` or ``viewer``; ``kind``
    is ``link`` (a token in a join link or an API bearer token), ``code`` (the short table
    code), ``device`` (a token minted for a phone that joined by code or link; the host can
    promote it to ``host``, a co-host) or ``recovery`` (the host's recovery code, good once; its
    ``label`` names its generation, see :func:`ledger.access.roles.recovery_label`). Only the SHA-256
    of the secret is stored; ``revoked_at`` is when the key was withdrawn (a removed phone,
    links replaced, a recovery code used or replaced): the row stays, so the history can name it."""

    __tablename__ = "access_key"

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    role: str = Field(max_length=16)
    kind: str = Field(max_length=16)
    secret_hash: str = Field(max_length=64, unique=True, index=True)
    label: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    revoked_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))


class Hand(SQLModel, table=True):
    """One version of one recorded hand: what was entered (``entry``), what the engine paid
    (``result``), its number within the session, its dealer. ``status`` is ``counted``,
    ``voided`` or ``superseded`` (an amendment replaced it with ``version + 1``); exactly one
    version of a number is not superseded. ``players`` (seat order) and ``stake_minor`` are the
    seating and stake the hand was played at; an amendment keeps them."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("session_id", "number", "version", name="uq_hand_session_number_version"),
        UniqueConstraint("session_id", "idempotency_key", name="uq_hand_session_idempotency"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    number: int
    version: int = Field(default=1)
    dealer: str = Field(max_length=80)
    players: list[str] = Field(sa_column=Column(JSON, nullable=False, server_default="[]"))
    stake_minor: int = Field(sa_column=Column(BigInteger, nullable=False, server_default="0"))
    kind: str = Field(max_length=20)
    entry: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    result: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    redeal: bool = False
    status: str = Field(default="counted", max_length=16)
    idempotency_key: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    voided_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))


class HandTransfer(SQLModel, table=True):
    """One canonical transfer of a hand (RULES.md §8.3): ``payer`` pays ``payee``
    ``amount_minor`` (positive)."""

    __tablename__ = "hand_transfer"

    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(foreign_key="hand.id", index=True)
    payer: str = Field(max_length=80)
    payee: str = Field(max_length=80)
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))


class Payment(SQLModel, table=True):
    """Money handed over at settle-up: ``payer`` gave ``payee`` ``amount_minor`` (positive,
    partial amounts allowed). ``status`` is ``counted`` or ``voided``. ``kind`` is ``payment``
    (settle-up) or ``cash_out`` (paid to or by a player leaving mid-night, :mod:`ledger.night.seating`).
    ``idempotency_key``: the phone's submission key, unique in the night (:mod:`ledger.night.idempotency`)."""

    __tablename__ = "payment"
    __table_args__ = (UniqueConstraint("session_id", "idempotency_key", name="uq_payment_session_idempotency"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    payer: str = Field(max_length=80)
    payee: str = Field(max_length=80)
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(default="counted", max_length=16)
    kind: str = Field(default="payment", max_length=16, sa_column_kwargs={"server_default": "payment"})
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    voided_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))
    idempotency_key: str | None = Field(default=None, max_length=200)  # ledger.night.idempotency


class AuditEvent(SQLModel, table=True):
    """Something that changed a session: ``action`` (``session_created``, ``hand_recorded``,
    ``hand_voided``, ``hand_amended``, ``payment_recorded``, ``session_closed``, and the seating
    changes ``player_sat_in``, ``player_left``, ``stake_changed``, ``seats_swapped``,
    ``player_renamed``; the phones and secrets ``cohost_added``, ``host_recovered``, ``phone_revoked``,
    ``links_rotated``, ``recovery_code_issued``), who did
    it (``actor_role``, ``access_key_id``: which phone), when, and ``detail`` (before/after)."""

    __tablename__ = "audit_event"
    # what the polls read, each without walking the whole night (issue 11): the night's newest
    # events and its version (session, id), the events of a page of hands (session, hand number),
    # the voids newest first (session, action, id)
    __table_args__ = (
        Index("ix_audit_event_session_id_id", "session_id", "id"),
        Index("ix_audit_event_session_hand", "session_id", "hand_number"),
        Index("ix_audit_event_session_action", "session_id", "action", "id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", max_length=32)
    action: str = Field(max_length=40)
    actor_role: str = Field(default="", max_length=16)
    access_key_id: int | None = Field(default=None)
    device: str = Field(default="", max_length=120)
    hand_number: int | None = None
    detail: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())


from ledger.storage import club_models as _club_models  # noqa: E402,F401  (registers the club tables, issue 9)
