"""Property test of Tong-its nights in the ledger (issue 21, item 3, "Done when"): random nights
played through the real recording, seating and correction functions (:mod:`ledger.night.lifecycle`,
:mod:`ledger.night.seating`) on a real database — hands of every kind, voids, restores, amends, undo and
redo, players sitting in and leaving (each closing an open pot first, TONGITS.md §4.9), seat swaps
— under random pot toggles keep, after every step, the players' nets plus the pot at zero, and the
kept pot (balance, holder, streak), the kept figures and every kept hand's result (transfers, nets,
pot) equal to a full re-score of the night from its first hand (:mod:`tests.tongits_rescore`)."""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from ledger.night import lifecycle as ledger_night
from ledger.night import seating
from ledger.storage.db import LedgerSession
from ledger.errors import NightError
from ledger.games import HandError, game
from ledger.storage.models import GameSession, Hand, HandTransfer
from tests.tongits_rescore import rescored_from_the_start

NAMES = ("Ligaya", "Dodong", "Marisol", "Bong", "Nena")
STAKES = (500, 250, 1000, 333)

RULESETS = st.fixed_dictionaries({
    "preset": st.sampled_from(("classic", "growing_pot", "percent_of_ante", "classic")),
    "toggles": st.fixed_dictionaries({
        "four_players": st.just(True),
        "pot_on_seat_change": st.sampled_from(("split", "split", "keep")),
        "pot_at_end": st.sampled_from(("split", "carry")),
        "pot_take_streak": st.integers(1, 3),
        "pot_after_take": st.sampled_from(("keep", "reset")),
        "next_dealer": st.sampled_from(("winner", "winner", "rotate")),
    }),
})


@st.composite
def entries(draw: st.DrawFn, players: list[str]) -> dict[str, Any]:
    """A valid §8.1 entry (totals only) for ``players``: every kind, opened and burned players."""
    kind = draw(st.sampled_from(("tongits", "draw", "draw", "stock_out", "stock_out", "redeal")))
    if kind == "redeal":
        return {"outcome": {"kind": "redeal"}, "hands": {}}
    if kind == "tongits":
        winner = draw(st.sampled_from(players))
        hands = {p: {"opened": draw(st.booleans())} for p in players if p != winner}
        return {"outcome": {"kind": "tongits", "winner": winner}, "hands": hands}
    if kind == "draw":
        caller = draw(st.sampled_from(players))
        responses = {p: draw(st.sampled_from(("fight", "fold"))) for p in players if p != caller}
        hands = {p: {"total": draw(st.integers(0, 60)), "opened": True}
                 for p in players if p == caller or responses.get(p) == "fight"}
        return {"outcome": {"kind": "draw", "caller": caller, "responses": responses}, "hands": hands}
    hands = {p: {"total": draw(st.integers(0, 90)), "opened": draw(st.booleans())} for p in players}
    return {"outcome": {"kind": "stock_out", "last_drawer": draw(st.sampled_from(players))}, "hands": hands}


STEPS = st.sampled_from(("record", "record", "record", "record", "void", "restore", "amend", "undo", "redo",
                         "seat", "seat", "swap"))


def submission(entry: dict[str, Any]) -> ledger_night.Submission:
    return ledger_night.Submission(outcome=entry["outcome"], hands=entry["hands"])


def current_hands(db: LedgerSession, night_id: str) -> list[Hand]:
    return list(db.exec(select(Hand).where(Hand.session_id == night_id, Hand.status != "superseded")
                        .order_by(Hand.number)))  # type: ignore[arg-type]


def step(db: LedgerSession, night_id: str, kind: str, data: st.DataObject) -> str:
    """Run one step of kind ``kind``; returns what happened (for the failure report)."""
    night = db.get(GameSession, night_id)
    assert night is not None
    hands = current_hands(db, night_id)
    played = [h for h in hands if h.kind != "close_pot"]
    seated = list(night.players)
    if kind == "seat":  # someone sits in at a table of three, or leaves a table of four
        kind = "sit_in" if len(seated) < 4 else "leave"
    try:
        if kind == "record":
            hand, _ = ledger_night.record_hand(db, night, submission(data.draw(entries(seated))))
            return f"recorded {hand.number} {hand.kind}"
        if kind == "void" and hands:
            target = data.draw(st.sampled_from(hands))
            try:
                ledger_night.void_hand(db, night, target.number)
            except NightError as err:
                assert target.kind == "close_pot" and err.code == "not_a_hand", (target.kind, err.code)
                db.rollback()
                return f"void {target.number} refused: {err.code}"
            assert target.kind != "close_pot"
            return f"voided {target.number}"
        if kind == "restore" and any(h.status == "voided" for h in hands):
            target = data.draw(st.sampled_from([h for h in hands if h.status == "voided"]))
            ledger_night.restore_hand(db, night, target.number)
            return f"restored {target.number}"
        if kind == "amend" and played:
            target = data.draw(st.sampled_from([h for h in hands if h.status == "counted"] or hands))
            entry = data.draw(entries(list(target.players)))
            try:
                ledger_night.amend_hand(db, night, target.number, target.version, submission(entry))
            except NightError as err:
                assert (err.code == "hand_voided" and target.status == "voided") or \
                       (err.code == "not_a_hand" and target.kind == "close_pot"), err.code
                db.rollback()
                return f"amend {target.number} refused: {err.code}"
            return f"amended {target.number} to {entry['outcome']['kind']}"
        if kind == "undo" and any(h.status == "counted" and h.kind != "close_pot" for h in hands):
            hand = ledger_night.undo_last_hand(db, night)
            assert hand.kind != "close_pot"
            return f"undid {hand.number}"
        if kind == "redo" and ledger_night.undone_hand(db, night) is not None:
            return f"redid {ledger_night.redo_undo(db, night).number}"
        if kind == "sit_in" and len(seated) < 4:
            name = data.draw(st.sampled_from([n for n in NAMES if n not in seated]))
            before = dict(ledger_night.pot_json(db, night)["pot"])
            change = seating.sit_in(db, night, name)
            closed_now(before, change.pot_closed, seated)
            return f"{name} sat in (pot closed: {change.pot_closed is not None})"
        if kind == "leave" and len(seated) > 3:
            name = data.draw(st.sampled_from(seated))
            before = dict(ledger_night.pot_json(db, night)["pot"])
            gone = seating.leave(db, night, name, data.draw(st.sampled_from(seating.SETTLE_CHOICES)))
            closed_now(before, gone.pot_closed, seated)
            if gone.settle == "now":  # their share of a split is in what they were paid or paid
                assert ledger_night.outstanding(db, night)[name] == gone.cash_out.remaining_minor
            return f"{name} left (pot closed: {gone.pot_closed is not None})"
        if kind == "swap" and played:
            a, b = data.draw(st.permutations(seated))[:2]
            seating.swap_seats(db, night, a, b, data.draw(st.integers(1, night.last_hand_number + 1)))
            return f"swapped {a} and {b}"
    except HandError as err:  # a correction that a later hand refuses in its new place: nothing changed
        db.rollback()
        return f"{kind} refused: {err.code}"
    except NightError as err:  # a swap from a hand where one of the two sat out, or that a hand refuses
        db.rollback()
        assert kind == "swap" and err.status == 422, (kind, err.code)
        return f"{kind} refused: {err.code}"
    return f"{kind}: nothing to do"


def closed_now(before: dict[str, Any], closed: Hand | None, seated: list[str]) -> None:
    """A seat change closed the pot exactly when it was open, among the seating before."""
    was_open = before["balance_minor"] > 0 or before["holder"] is not None
    assert (closed is not None) == was_open, (before, closed)
    if closed is not None:
        assert closed.kind == "close_pot" and closed.entry["outcome"]["reason"] == "seat_change"
        assert list(closed.players) == seated
        assert closed.result["pot"]["balance_before"] == before["balance_minor"]
        assert closed.result["state"]["holder"] is None and closed.result["state"]["streak"] == 0


def kept_equals_a_rescore(db: LedgerSession, night_id: str) -> None:
    """Players + pot at zero, and everything kept equal to a full re-score (and to what the
    session's JSON shows)."""
    db.expire_all()
    kept = rescored_from_the_start(db, night_id)
    night = db.get(GameSession, night_id)
    assert night is not None
    shown = ledger_night.pot_json(db, night)["pot"]
    assert (shown["balance_minor"], shown["holder"], shown["streak"]) == \
           (kept["pot"], kept["state"]["holder"], kept["state"]["streak"])
    assert sum(ledger_night.balances(db, night).values()) + kept["pot"] == 0
    for hand in current_hands(db, night_id):  # every kept hand's transfer rows are its (re-scored) result's
        rows = db.exec(select(HandTransfer).where(HandTransfer.hand_id == hand.id)
                       .order_by(HandTransfer.id)).all()  # type: ignore[arg-type]
        assert [{"from": r.payer, "to": r.payee, "amount": r.amount_minor} for r in rows] == \
            hand.result["transfers"], hand.number


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.data_too_large])
@given(ruleset=RULESETS, stake=st.sampled_from(STAKES), seats=st.integers(3, 4), data=st.data(),
       steps=st.lists(STEPS, min_size=4, max_size=24))
def test_random_tongits_nights_keep_the_pot_equal_to_a_full_rescore(
        app: Any, ruleset: dict[str, Any], stake: int, seats: int, data: st.DataObject, steps: list[str]) -> None:
    engine = app.extensions["ledger.engine"]
    with app.test_request_context(), LedgerSession(engine, expire_on_commit=False) as db:
        night, _ = ledger_night.create_night(db, name="Biyernes", currency="PHP", stake_minor=stake,
                                             rules=game("tongits").rules(ruleset), players=list(NAMES[:seats]),
                                             game="tongits")
        night_id = night.id
        story = []
        for kind in steps:
            story.append(step(db, night_id, kind, data))
            event(story[-1].split(" ")[0] if "pot closed" not in story[-1] else story[-1].split(" ", 1)[1])
            kept_equals_a_rescore(db, night_id)
        night = db.get(GameSession, night_id)
        assert night is not None
        before = ledger_night.pot_json(db, night)["pot"]
        ledger_night.close_night(db, night)
        kept_equals_a_rescore(db, night_id)
        after = ledger_night.pot_json(db, night)["pot"]
        carried = ruleset["toggles"]["pot_at_end"] == "carry"
        if before["balance_minor"] == 0:
            assert after["closed"] == "empty"
        else:
            assert after["closed"] == ("carried" if carried else "split"), story
            assert after["closed_minor"] == before["balance_minor"]
            assert after["balance_minor"] == (before["balance_minor"] if carried else 0)
        assert (after["holder"], after["streak"]) == (None, 0)  # a streak never outlives the night
