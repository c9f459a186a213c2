"""Storage tables of clubs (SQLModel): the club, its members, its keys, which nights belong to
it (and who sat there as which member), what each closed night carried, payments against the
carried balances, and the club's audit events.

Money columns are ``*_minor`` integers. Rows are never deleted: a voided payment keeps its row.
A member keeps one ``id`` across renames; ``name_key`` (:func:`ledger.names.name_key` of the
name) is unique per club, so two members cannot share a display name.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Column, String, UniqueConstraint, true
from sqlmodel import Field, SQLModel

from ledger.storage.columns import utc_column as _utc_column
from ledger.storage.columns import utcnow


class Club(SQLModel, table=True):
    """A named group with one ``currency`` (every night of the club is played in it) and the
    IANA ``timezone`` its dates are read in (standings periods, statements). ``pot_minor`` is the
    Tong-its pot its carried nights left (TONGITS.md §4.9 ``pot_at_end: carry``), which its next
    Tong-its night opens with: the members' balances plus ``pot_minor`` sum to zero."""

    __tablename__ = "club"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    currency: str = Field(max_length=3)
    timezone: str = Field(default="UTC", max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    carry_needs_owner: bool = Field(default=True, sa_column=Column(Boolean, nullable=False, server_default=true()))
    pot_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))


class ClubMember(SQLModel, table=True):
    """One person on a club's roster: ``name`` is the current display name, ``name_key`` its
    :func:`ledger.names.name_key` (unique per club); ``language`` the catalogue code their season
    statements are written in (a key of :data:`ledger.i18n.LANGUAGES`), ``None`` to follow
    whoever reads them."""

    __tablename__ = "club_member"
    __table_args__ = (UniqueConstraint("club_id", "name_key", name="uq_club_member_name"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    name: str = Field(max_length=80)
    name_key: str = Field(max_length=80)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    language: str | None = Field(default=None, max_length=16)
    # payment handles kept once for every club night (issue 22, ledger.clubs.handles); None: none
    handles: dict[str, str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class ClubKey(SQLModel, table=True):
    """A credential for one club: ``role`` is ``owner``, ``member`` or ``viewer``; ``kind`` is
    ``link`` (a bearer token) or ``code`` (the short table code, exchanged for a member token),
    or ``device`` (a token minted for a phone that joined by code). Only hashes are stored;
    ``revoked_at`` is when the owner withdrew the key (a removed device, links renewed)."""

    __tablename__ = "club_key"

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    role: str = Field(max_length=16)
    kind: str = Field(max_length=16)
    secret_hash: str = Field(max_length=64, unique=True, index=True)
    label: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    revoked_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))


class ClubNight(SQLModel, table=True):
    """A night played inside a club. ``carried`` is ``None`` while the night is open, then
    ``True`` (what was still owed went into the club balances) or ``False`` (settled in cash, or
    carried and then undone by the owner: ``carry_state`` ``"uncarried"``).

    ``host_role`` is the club role of the token that started the night (``owner``, ``member``;
    ``None`` for nights started before it was kept: the owner's). ``carry_state`` is ``None``
    (open, cash, or carried as closed), ``"pending"`` (closed with carry-over by a member-hosted
    night of a club whose ``carry_needs_owner`` holds: nothing moved, ``carried`` is ``None``),
    ``"carried"`` (carried by the owner's carry call) or ``"uncarried"``. ``carried_by`` is the
    club role whose say carried it (``None`` while not carried). ``pot_carried_minor`` is what the
    night's pot carried into the club's pot (:attr:`Club.pot_minor`; 0 when nothing, and again
    once the carry is undone)."""

    __tablename__ = "club_night"

    session_id: str = Field(foreign_key="game_session.id", primary_key=True, max_length=32)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    carried: bool | None = Field(default=None)
    host_role: str | None = Field(default=None, max_length=16)
    carry_state: str | None = Field(default=None, max_length=16)
    carried_by: str | None = Field(default=None, max_length=16)
    pot_carried_minor: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))


class ClubSeat(SQLModel, table=True):
    """Who sat at a club night as which member: ``name`` is the seat's name at that night."""

    __tablename__ = "club_seat"
    __table_args__ = (UniqueConstraint("session_id", "member_id", name="uq_club_seat_member"),)

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    member_id: int = Field(foreign_key="club_member.id", index=True)
    name: str = Field(max_length=80)


class ClubCarry(SQLModel, table=True):
    """What one member still owed (negative) or was owed (positive) when a night closed with
    carry-over, ``amount_minor``, now part of their running club balance. ``kind`` is ``carry``,
    or ``reversal`` for the owner's undoing of a carry (the negated amount of the carry row
    ``reverses``): rows are never deleted, a reversal cancels them."""

    __tablename__ = "club_carry"

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    member_id: int = Field(foreign_key="club_member.id")
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    kind: str = Field(default="carry", sa_column=Column(String(16), nullable=False, server_default="carry"))
    reverses: int | None = Field(default=None)


class ClubPayment(SQLModel, table=True):
    """Money handed over against the club balances: ``payer_id`` gave ``payee_id``
    ``amount_minor`` (positive). ``status`` is ``counted`` or ``voided``. ``idempotency_key``:
    the phone's submission key, unique in the club (:mod:`ledger.night.idempotency`)."""

    __tablename__ = "club_payment"
    __table_args__ = (UniqueConstraint("club_id", "idempotency_key", name="uq_club_payment_idempotency"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    payer_id: int = Field(foreign_key="club_member.id")
    payee_id: int = Field(foreign_key="club_member.id")
    amount_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(default="counted", max_length=16)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    voided_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))
    idempotency_key: str | None = Field(default=None, max_length=200)


class ClubEvent(SQLModel, table=True):
    """Something that changed a club: ``action`` (``club_created``, ``member_added``,
    ``member_renamed``, ``member_language_set``, ``night_started``, ``night_carried``, ``night_carry_pending``,
    ``night_uncarried``, ``night_settled_in_cash``, ``club_settings_changed``, ``payment_recorded``,
    ``payment_voided``, and the owner's ``device_revoked``, ``links_rotated``), who did it and ``detail``
    (before/after)."""

    __tablename__ = "club_event"

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(foreign_key="club.id", index=True, max_length=32)
    action: str = Field(max_length=40)
    actor_role: str = Field(default="", max_length=16)
    detail: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
