"""The check every Tong-its correction test makes: the night as kept (players' nets, the pot
account, the pot state the next hand is scored from) equals a full re-score of the night from its
first hand, each counted hand scored by the engine from the pot state the counted hands before it
leave, and its stored result is exactly that score."""
from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from ledger.night import figures
from ledger.storage.db import make_engine
from ledger.games import game
from ledger.storage.models import GameSession, Hand


def rescored_from_the_start(db: Session, night_id: str, *, dealt_by_the_rule: bool = False) -> dict[str, Any]:
    """Assert that every counted hand's stored result is the engine's score of it in its place,
    and that the kept figures equal a recomputation and the full re-score; with
    ``dealt_by_the_rule`` also that every counted hand after the first was dealt by whom the
    dealer rule named after the counted entry before it (TONGITS.md §2.3). Returns the kept
    ``{"net", "pot", "state"}``."""
    night = db.get(GameSession, night_id)
    assert night is not None
    chosen = game(night.game)
    rules = chosen.rules_from_snapshot(night.ruleset)
    state: Any = chosen.initial_state(rules)
    net = dict.fromkeys(figures.kept(db, night).net, 0)
    pot = 0
    hands = db.exec(select(Hand).where(Hand.session_id == night_id, Hand.status == "counted")
                    .order_by(Hand.number)).all()  # type: ignore[arg-type]
    named: str | None = None
    for hand in hands:
        if dealt_by_the_rule and named is not None and hand.kind != "close_pot":
            assert hand.dealer == named, (hand.number, hand.dealer, named)
        named = str(hand.result.get("next_dealer") or hand.dealer)
        entry = {"outcome": hand.entry["outcome"], "hands": hand.entry.get("hands") or {}}
        dealer = None if hand.kind == "close_pot" else hand.dealer
        result = chosen.score(rules, players=hand.players, stake_minor=hand.stake_minor, dealer=dealer,
                              state=state, entry=entry)
        assert result.to_json() == {k: v for k, v in hand.result.items()
                                    if k not in ("winners", "detail", "state")}, hand.number
        state = result.state
        for name, amount in result.net.items():
            if name == "pot":
                pot += amount
            else:
                net[name] += amount
    kept = figures.kept(db, night)
    assert kept == figures.recompute(db, night)
    assert kept.net == net and kept.accounts == {"pot": pot}
    assert kept.state == dict(state) and kept.state["balance"] == pot
    assert sum(kept.net.values()) + pot == 0
    return {"net": kept.net, "pot": pot, "state": kept.state}


def rescored_at(database_url: str, night_id: str, *, dealt_by_the_rule: bool = False) -> dict[str, Any]:
    """:func:`rescored_from_the_start` through a connection of its own."""
    engine = make_engine(database_url)
    try:
        with Session(engine) as db:
            return rescored_from_the_start(db, night_id, dealt_by_the_rule=dealt_by_the_rule)
    finally:
        engine.dispose()
