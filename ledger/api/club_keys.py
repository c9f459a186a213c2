"""The club calls that withdraw a club's secrets (issue 20 item 6), owner's own link only:
``GET /clubs/{id}/devices``, ``DELETE /clubs/{id}/devices/{device_id}``, ``POST /clubs/{id}/rotate``
(see :mod:`ledger.clubs.keys`)."""
from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.api.clubs import club_authorised, club_share_json
from ledger.api.requests import bp
from ledger.clubs import carry, keys
from ledger.storage.db import get_session


@bp.get("/clubs/<club_id>/devices")
def club_devices(club_id: str) -> Any:
    """Owner (own link): ``[{id, name, role, joined}]``, the devices holding a live club token
    (the owner link and each that joined by code), oldest first. 403 ``role_forbidden``."""
    club, actor = club_authorised(club_id, "keys")
    return jsonify(keys.devices(get_session(), club, actor))


@bp.delete("/clubs/<club_id>/devices/<int(min=1, max=2147483647):device_id>")
def revoke_club_device(club_id: str, device_id: int) -> Any:
    """Owner (own link): remove a device → 200 the device with ``revoked_at``; its token answers
    401 ``token_revoked`` from then on. 404 ``device_not_found``, 409 ``own_device``, 403
    ``role_forbidden``."""
    club, actor = club_authorised(club_id, "keys")
    return jsonify(keys.revoke_device(get_session(), club, device_id, actor))


@bp.post("/clubs/<club_id>/rotate")
def rotate_club(club_id: str) -> Any:
    """Owner (own link): new owner token, member and viewer links and club code → 200 the shape
    of ``GET /clubs/{id}/share``; the old links answer 401 ``token_revoked``, the old code 404
    ``unknown_code`` at ``/clubs/join``; devices that joined keep their tokens. 403
    ``role_forbidden``."""
    club, actor = club_authorised(club_id, "keys")
    db = get_session()
    token = keys.rotate(db, club, actor)
    return jsonify(carry.club_json(db, club) | club_share_json(club, token))
