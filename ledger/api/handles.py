"""Payment handles (issue 22): ``GET|PUT /sessions/{id}/players/{name}/handles`` and
``GET|PUT /clubs/{id}/members/{member_id}/handles``.

``PUT`` body: ``{"venmo"?, "cashapp"?, "paypal"?, "upi"?, "iban"?, "bic"?, "name"?, "qr"?}`` (strings;
``name`` is the account holder, required with ``iban``; a missing, empty or null key is no such
handle: the body replaces every handle). → 200 ``{"player", "handles"}`` (night) or
``{"member_id", "name", "handles"}`` (club). 403 ``role_forbidden`` for a viewer or another
player's phone (a host or the owner may set anyone's), 404 ``player_not_found`` /
``member_not_found``, 422 ``invalid_handle`` naming the field (:mod:`ledger.settlement.handoffs`).
``GET`` is open to any token of that night or club (another night's token: 403 ``forbidden``).
"""
from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.api.clubs import club_authorised
from ledger.api.requests import authorised, authorised_night, bp, json_body
from ledger.clubs import handles as club_handles
from ledger.night import handles as night_handles
from ledger.storage.db import get_session


@bp.get("/sessions/<session_id>/players/<name>/handles")
def get_player_handles(session_id: str, name: str) -> Any:
    night = authorised_night(session_id)
    return jsonify(night_handles.player_handles(get_session(), night, name))


@bp.put("/sessions/<session_id>/players/<name>/handles")
def put_player_handles(session_id: str, name: str) -> Any:
    night, actor = authorised(session_id, "handles")
    return jsonify(night_handles.set_player_handles(get_session(), night, name, json_body(), actor))


@bp.get("/clubs/<club_id:club_id>/members/<int(min=1, max=2147483647):member_id>/handles")
def get_member_handles(club_id: str, member_id: int) -> Any:
    club, _actor = club_authorised(club_id)
    return jsonify(club_handles.member_handles(get_session(), club, member_id))


@bp.put("/clubs/<club_id:club_id>/members/<int(min=1, max=2147483647):member_id>/handles")
def put_member_handles(club_id: str, member_id: int) -> Any:
    club, actor = club_authorised(club_id, "handles")
    return jsonify(club_handles.set_member_handles(get_session(), club, member_id, json_body(), actor))
