"""The seating calls of ``/api/v1`` (host only): sit in, leave with a cash-out, change the
stake, swap two seats from a hand on, rename a player. Each takes effect from the next hand
(``from_hand``) and is one audit event; see :mod:`ledger.night.seating` for the rules of each.
Errors as everywhere in the API: ``{"error", "message", "field"}``.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.night import lifecycle as ledger_night
from ledger.night import seating
from ledger.api.requests import authorised, bp, json_body, load
from ledger.api.seating_schemas import LeaveSchema, RenameSchema, SitInSchema, StakeSchema, SwapSchema
from ledger.clubs import seat_renames
from ledger.storage.db import get_session


@bp.post("/sessions/<session_id>/players")
def sit_in(session_id: str) -> Any:
    """``{"name", "after"?}`` → 201 ``{players, from_hand, next_dealer}``; 422
    ``too_many_players``, ``duplicate_player``, ``unknown_player`` (``after`` not seated)."""
    night, actor = authorised(session_id, "seat")
    data = load(SitInSchema(), json_body())
    db = get_session()
    change = seat_renames.sit_in(db, night, data["name"], data["after"], actor)
    return jsonify({"players": list(change.players), "from_hand": change.from_hand,
                    "next_dealer": ledger_night.next_dealer(db, night)}), 201


@bp.post("/sessions/<session_id>/players/leave")
def leave(session_id: str) -> Any:
    """``{"name", "settle": "now" | "at_end"}`` → 200 ``{players, from_hand, as_of_hand,
    balance, cash_out: {transfers: [{from, to, amount}], remaining}, payments, outstanding}``;
    422 ``unknown_player`` for a player not seated."""
    night, actor = authorised(session_id, "seat")
    data = load(LeaveSchema(), json_body())
    db = get_session()
    gone = seating.leave(db, night, data["name"], data["settle"], actor)
    return jsonify({
        "name": gone.name, "players": list(gone.players), "from_hand": gone.from_hand,
        "as_of_hand": gone.as_of_hand, "balance": gone.balance_minor, "settle": gone.settle,
        "cash_out": gone.cash_out.to_json(),
        "payments": [ledger_night.payment_json(p) for p in gone.payments],
        "outstanding": ledger_night.outstanding(db, night),
        "next_dealer": ledger_night.next_dealer(db, night),
    })


@bp.post("/sessions/<session_id>/stake")
def change_stake(session_id: str) -> Any:
    """``{"stake": int}`` (minor units) → 200 ``{stake, from_hand}``; 422 ``invalid_stake``."""
    night, actor = authorised(session_id, "seat")
    data = load(StakeSchema(), json_body(), {"stake": "invalid_stake"})
    stake, from_hand = seating.change_stake(get_session(), night, data["stake"], actor)
    return jsonify({"stake": stake, "from_hand": from_hand})


@bp.post("/sessions/<session_id>/seats/swap")
def swap_seats(session_id: str) -> Any:
    """``{"a", "b", "from_hand"}`` → 200 ``{hands: [{number, version}], players, net}``: the
    re-entered hands' new versions; 422 naming the first hand that refuses (``hand``)."""
    night, actor = authorised(session_id, "seat")
    data = load(SwapSchema(), json_body())
    db = get_session()
    made = seating.swap_seats(db, night, data["a"], data["b"], data["from_hand"], actor)
    return jsonify({"hands": [{"number": h.number, "version": h.version} for h in made],
                    "players": list(night.players), "from_hand": data["from_hand"],
                    "net": ledger_night.balances(db, night)})


@bp.post("/sessions/<session_id>/players/rename")
def rename(session_id: str) -> Any:
    """``{"from", "to"}`` → 200 ``{players, from, to, net}``; 422 ``unknown_player``,
    ``duplicate_player``."""
    night, actor = authorised(session_id, "seat")
    data = load(RenameSchema(), json_body())
    db = get_session()
    seat_renames.rename_player(db, night, data["old"], data["new"], actor)
    return jsonify({"players": list(night.players), "from": data["old"], "to": data["new"],
                    "net": ledger_night.balances(db, night)})
