"""Printable statements (PDF) rendered from ``ledger.night.report`` read models.

Modules: ``fonts`` (vendored Noto fonts, text runs by script, shaping) and ``unicode_map``
(extraction of shaped text), ``look`` (layout pieces), ``chart`` (running balances),
``summary`` (the night), ``player`` (one player's statement), ``pack`` (the entry points),
``season`` (a club's season PDFs), ``validate``, ``words`` and ``marked`` (catalogue sentences
as markup). Every word is the current language's (:mod:`ledger.i18n`); ``validate``'s
``ValueError`` texts are for developers (an incoherent report is a bug) and stay English. The entry points are re-exported lazily so importing this
package does not pull in reportlab until a statement is actually rendered.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ledger.statements.pack import (
        file_name, render, render_night_pack, render_player_statement, render_session_summary,
    )

__all__ = ["file_name", "render", "render_night_pack", "render_player_statement", "render_session_summary"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ledger.statements import pack

        return getattr(pack, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
