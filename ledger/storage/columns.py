"""Column types shared by every storage table: moments stored as UTC and read back aware."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Column, DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

UTC = timezone.utc


def utcnow() -> datetime:
    """Now, timezone-aware, in UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A moment stored as UTC and always read back timezone-aware (UTC), on SQLite (which
    keeps no offset) as on PostgreSQL (``timestamptz``). A naive value written is taken as UTC;
    an aware one is converted to UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utc_column(nullable: bool = False) -> Any:
    """A timezone-aware UTC ``DateTime`` column (:class:`UTCDateTime`), ``NOT NULL`` unless ``nullable``."""
    return Column(UTCDateTime(), nullable=nullable)
