"""Printable statements (PDF) rendered from ``ledger.report`` read models.

``render_session_summary`` is re-exported lazily so importing this package does not pull in
reportlab until a statement is actually rendered.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.statements.summary import render_session_summary

__all__ = ["render_session_summary"]


def __getattr__(name: str) -> Any:
    if name == "render_session_summary":
        from ledger.statements.summary import render_session_summary

        return render_session_summary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
