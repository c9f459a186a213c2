"""A night's time zone: an IANA name (``"America/Los_Angeles"``), checked against the zone
database, stored with the night; times are stored in UTC and shown in that zone.

Standard library only (``zoneinfo``; the ``tzdata`` package supplies the database where the
system has none).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

DEFAULT_ZONE = "UTC"
LONGEST_ZONE = 64


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(available_timezones()) | {DEFAULT_ZONE}


def is_known_zone(name: Any) -> bool:
    """Whether ``name`` is an IANA time zone name this server knows (``"UTC"`` always is)."""
    return isinstance(name, str) and 0 < len(name) <= LONGEST_ZONE and name in _known()


def zone(name: str | None) -> ZoneInfo:
    """The :class:`ZoneInfo` of a stored zone name; UTC for an unknown or missing one."""
    return ZoneInfo(name) if is_known_zone(name) else ZoneInfo(DEFAULT_ZONE)
