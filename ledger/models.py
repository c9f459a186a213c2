"""Storage tables (SQLModel): game sessions, hands, their transfers, payments and audit events.

Money columns are ``*_minor`` integers. Times are timezone-aware UTC. Rows are never deleted:
a voided hand keeps its row and its transfers, and simply stops counting.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, DateTime, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _utc_column(nullable: bool = False) -> Any:
    return Column(DateTime(timezone=True), nullable=nullable)


class GameSession(SQLModel, table=True):
    """One night at one table: seat order, stake, currency and the frozen rule-set snapshot.

    ``token_hash`` is the SHA-256 of the table's secret (the secret itself is never stored).
    ``last_hand_number`` is bumped in the same transaction that records a hand, which keeps
    hand numbers unique and gap-free under concurrent writers.
    """

    __tablename__ = "game_session"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    currency: str = Field(max_length=3)
    stake_minor: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    first_dealer: str = Field(max_length=80)
    status: str = Field(default="open", max_length=16)
    token_hash: str = Field(max_length=64)
    last_hand_number: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
    closed_at: datetime | None = Field(default=None, sa_column=_utc_column(nullable=True))


class Hand(SQLModel, table=True):
    """One recorded hand: what was entered (``entry``), what the engine paid (``result``), its
    number within the session and its dealer. ``status`` is ``counted`` or ``voided``."""

    __tablename__ = "hand"
    __table_args__ = (
        UniqueConstraint("session_id", "number", name="uq_hand_session_number"),
        UniqueConstraint("session_id", "idempotency_key", name="uq_hand_session_idempotency"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    number: int
    dealer: str = Field(max_length=80)
    kind: str = Field(max_length=20)
    entry: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    result: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    redeal: bool = False
    status: str = Field(default="counted", max_length=16)
    idempotency_key: str | None = Field(default=None, max_length=80)
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


class AuditEvent(SQLModel, table=True):
    """Something that changed a session: ``action`` (``session_created``, ``hand_recorded``,
    ``hand_voided``, ``session_closed``...), when, and ``detail`` (before/after values)."""

    __tablename__ = "audit_event"

    id: int | None = Field(default=None, primary_key=True)
    session_id: str = Field(foreign_key="game_session.id", index=True, max_length=32)
    action: str = Field(max_length=40)
    hand_number: int | None = None
    detail: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_utc_column())
