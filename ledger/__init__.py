"""Tonk Ledger: records Tonk hands at the table, pays them exactly, settles the night.

``ledger.create_app(test_config=None)`` is the Flask app factory. Importing ``ledger`` (or the
pure domain packages ``ledger.games.tonk`` and ``ledger.settlement.plan``) does not import Flask.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> "Flask":
    """Build the app. ``test_config`` may set ``DATABASE_URL`` (an SQLAlchemy URL),
    ``TESTING`` and any other Flask setting; see :func:`ledger.app.create_app`."""
    from ledger.app import create_app as _create_app

    return _create_app(test_config)
