"""The check every test of the running figures makes: a night's kept figures (net, payments, last
hand, counted hands, stakes) equal a full recomputation from its hands and payments."""
from __future__ import annotations

from sqlmodel import Session

from ledger import figures
from ledger.db import make_engine
from ledger.models import GameSession


def checked_figures(db: Session, night_id: str) -> figures.Figures:
    """The night's kept figures, after asserting that they equal a recomputation."""
    night = db.get(GameSession, night_id)
    assert night is not None, night_id
    kept = figures.kept(db, night)
    assert kept == figures.recompute(db, night)
    return kept


def checked_figures_at(database_url: str, night_id: str) -> figures.Figures:
    """:func:`checked_figures` read through a connection of its own (a server ran the night)."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as db:
            return checked_figures(db, night_id)
    finally:
        engine.dispose()
