"""A pool rummy night's end (RUMMY13.md §4.10, :mod:`ledger.night.pool`):

- ``POST /sessions/{id}/pool/end`` (host): ``{}`` pays the pot to the one player still in;
  ``{"split": "equal" | "by_drops"}`` splits it among the players still in → 201 the entry (a
  hand of kind ``pool_end``: its ``transfers`` and ``net``, and ``pool_end``: ``{pot, shares,
  end}``, minor units) with ``session_net``. 422 ``pool_not_over`` (two or more still in and no split),
  ``claim_mismatch`` (a split with one player in), ``split_not_allowed`` (by drops, when what is
  left after evening the drops is less than one entry fee), ``invalid_entry`` (the pool already
  ended, or the night is no pool); 409 ``session_closed``.

The session's ``pool`` (``GET /sessions/{id}``) says where the pool stands: ``limit``,
``scores``, ``out``, ``buy_ins``, ``pot``, ``ended``, ``last_in``. A hand of a pool night rejoins
players with ``"pool": {"rejoined": [names]}``; closing a pool night with one player left pays
the pot first, and with two or more still in is 409 ``pool_not_ended``.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify, request

from ledger.api.errors import ApiError
from ledger.api.openapi_parts import operation
from ledger.api.requests import authorised, bp, json_body
from ledger.games.rummy13.pool_night import SPLITS
from ledger.i18n import N_
from ledger.night import lifecycle as ledger_night
from ledger.night import pool
from ledger.storage.db import get_session

@bp.post("/sessions/<session_id>/pool/end")
def end_pool(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    raw = json_body() if request.get_data(cache=True).strip() else {}  # no body: the winner takes the pot
    if set(raw) - {"split"}:
        raise ApiError(422, "invalid_entry", N_("Send {\"split\": \"equal\"} or {\"split\": \"by_drops\"}, or nothing."),
                       "split")
    split = raw.get("split")
    if split is not None and split not in SPLITS:
        raise ApiError(422, "invalid_entry", N_("A split is \"equal\" or \"by_drops\"."), "split")
    db = get_session()
    entry = pool.end_pool(db, night, actor, split)
    return jsonify(ledger_night.hand_json(entry) | {"session_net": ledger_night.balances(db, night)}), 201


def pool_paths(hand: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The OpenAPI path of this call (``hand``: a hand answer), relative to ``/api/v1``."""
    body = {"type": "object", "properties": {"split": {"type": "string", "enum": list(SPLITS)}},
            "additionalProperties": False}
    return {"/sessions/{session_id}/pool/end": {"post": operation(
        "Host only, a pool rummy night (RUMMY13.md §4.10): pay the pot, entry fee x buy-ins, to the one player "
        "still in, or split it among those still in (split equal or by_drops). 422 pool_not_over, "
        "claim_mismatch, split_not_allowed, invalid_entry; 409 session_closed.", {201: hand}, (409,), body=body)}}
