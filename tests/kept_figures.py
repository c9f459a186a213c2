"""The check every test of the running figures makes: a night's kept figures (net, payments, last
hand, counted hands, stakes) equal a full recomputation from its hands and payments; and the
table screen, which reads them from the night's row and its newest hands, shows the same."""
from __future__ import annotations

from sqlmodel import Session, select

from ledger.night import figures
from ledger.access.roles import SYSTEM
from ledger.storage.db import make_engine
from ledger.storage.models import GameSession, Hand
from ledger.night.reads import dealer_after, next_dealer, sat_in_since
from ledger.night.timeline import rotate


def checked_figures(db: Session, night_id: str) -> figures.Figures:
    """The night's kept figures, after asserting that they equal a recomputation."""
    night = db.get(GameSession, night_id)
    assert night is not None, night_id
    kept = figures.kept(db, night)
    assert kept == figures.recompute(db, night)
    return kept


def checked_table(db: Session, night_id: str) -> dict[str, object]:
    """The table screen's figures (``ledger.web.views.table_state``, as a host sees them), after
    asserting that they equal a full recomputation from every hand of the night: the balances,
    counted hands, next number and stake, the hand "undo" would void and who deals next."""
    from ledger.web.views import table_state

    night = db.get(GameSession, night_id)
    assert night is not None, night_id
    every = list(db.exec(select(Hand).where(Hand.session_id == night_id, Hand.status != "superseded")))
    counted = sorted((h for h in every if h.status == "counted"), key=lambda h: h.number)
    last = counted[-1] if counted else None
    again = figures.recompute(db, night)
    shown = table_state(db, night, SYSTEM)
    assert dict(shown["balances"]) == again.net
    assert list(dict(shown["balances"])) == list(again.net)  # seat order
    assert shown["hand_count"] == again.counted_hands == len(counted)
    assert shown["total_hands"] == len(every) and shown["next_number"] == len(every) + 1
    assert shown["stake_from"] == (again.stakes[-1].from_hand if len(again.stakes) > 1 else None)
    assert shown["left"] == {p: n for p, n in again.last_hand.items() if p not in night.players}
    arrived = sat_in_since(db, night, last.number if last is not None else 0)  # they deal last
    expected_dealer = (dealer_after(night, last, arrived) if last is not None
                       else rotate(night.players, None, None, night.first_dealer, night.roster, arrived))
    assert shown["next_dealer"] == expected_dealer == next_dealer(db, night)
    if night.status == "open":
        assert shown["undo_number"] == (last.number if last is not None else None)
    return shown


def checked_figures_at(database_url: str, night_id: str) -> figures.Figures:
    """:func:`checked_figures` read through a connection of its own (a server ran the night)."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as db:
            return checked_figures(db, night_id)
    finally:
        engine.dispose()
