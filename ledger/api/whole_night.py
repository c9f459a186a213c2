"""A night undone as a whole by its host (issue 23, :mod:`ledger.night.whole_night`):

- ``POST /sessions/{id}/remove``: a night started by mistake (no hands, no payments) leaves every
  list → 200 the session (``status`` ``removed``); afterwards every call on it answers 410
  ``night_removed``. 409 ``night_has_hands`` when it has hands or payments (void it instead).
- ``POST /sessions/{id}/void``: the whole night is kept, struck through and out of its club's
  standings → 200 the session (``status`` ``voided``; again: the same). 409 ``night_carried``
  for a club night whose balances were carried into the club.
- ``POST /sessions/{id}/restore``: a voided night counts again, closed → 200 the session
  (``status`` ``closed``); 409 ``night_not_voided``.

Host only (403 ``role_forbidden`` for a player or viewer); no body.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.api.openapi_parts import operation
from ledger.api.requests import authorised, bp
from ledger.night import lifecycle as ledger_night
from ledger.night import whole_night
from ledger.storage.db import get_session


@bp.post("/sessions/<session_id>/remove")
def remove_night(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    db = get_session()
    return jsonify(ledger_night.session_json(db, whole_night.remove_night(db, night, actor)))


@bp.post("/sessions/<session_id>/void")
def void_night(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    db = get_session()
    return jsonify(ledger_night.session_json(db, whole_night.void_night(db, night, actor)))


@bp.post("/sessions/<session_id>/restore")
def restore_night(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    db = get_session()
    return jsonify(ledger_night.session_json(db, whole_night.restore_night(db, night, actor)))


def whole_night_paths(session: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The OpenAPI paths of these calls (``session``: the session answer), relative to ``/api/v1``."""
    return {
        "/sessions/{session_id}/remove": {"post": operation(
            "Host only: remove a night started by mistake (no hands, no payments); later calls on it answer 410 "
            "night_removed. 409 night_has_hands: void it instead.", {200: session}, (409,))},
        "/sessions/{session_id}/void": {"post": operation(
            "Host only: void the whole night (kept, struck through, out of its club's standings; an open night is "
            "closed by it). 409 night_carried for a club night carried into the club.", {200: session}, (409,))},
        "/sessions/{session_id}/restore": {"post": operation(
            "Host only: a voided night counts again, as a closed night. 409 night_not_voided.", {200: session}, (409,))},
    }
