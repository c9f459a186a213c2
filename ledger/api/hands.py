"""The JSON API's hand calls (``/api/v1/sessions/{id}/…``): list and record hands, preview an
entry, read one hand and its versions, void, restore and amend it, undo and redo the last hand.
Answers are :func:`ledger.night.lifecycle.hand_json` shapes; money is JSON integers in minor units.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify

from ledger.night import lifecycle as ledger_night
from ledger.api.errors import ApiError
from ledger.api.requests import authorised, authorised_night, bp, idempotency_key, json_body, load
from ledger.api.schemas import AmendSchema, HandCreateSchema
from ledger.storage.db import get_session
from ledger.i18n import N_
from ledger.storage.models import GameSession
from ledger.night.lifecycle import Submission

# built once: a marshmallow 4 schema keeps no state between loads (its messages are English
# sentences, put into the request's language when the error is answered)
_HAND = HandCreateSchema()
_AMENDMENT = AmendSchema()


@bp.get("/sessions/<session_id>/hands")
def list_hands(session_id: str) -> Any:
    night = authorised_night(session_id)
    hands = ledger_night.hands_of(get_session(), night)
    return jsonify({"hands": [ledger_night.hand_json(h) for h in hands]})


def _submission(data: dict[str, Any]) -> Submission:
    return _submission_of(load(_HAND, data))


def _submission_of(body: dict[str, Any]) -> Submission:
    """A :class:`Submission` from a loaded :class:`HandCreateSchema` body and the request's
    ``Idempotency-Key`` header."""
    seen = body.get("seen")
    return Submission(
        outcome=body["outcome"],
        hands=body["hands"],
        side_bets=body["side_bets"],
        dealer=body["dealer"],
        idempotency_key=idempotency_key(),  # stored whole or refused, "" too (ledger.night.lifecycle.check_idempotency_key)
        number=body["number"],
        seen_players=tuple(seen["players"]) if seen else None,
        seen_stake_minor=seen["stake"] if seen else None,
        game_parts={key: body[key] for key in ("wild_rank", "pool") if body[key] is not None} or None,
    )


@bp.post("/sessions/<session_id>/hands")
def record_hand(session_id: str) -> Any:
    """One entry (``outcome``, ``hands``, optional ``side_bets`` and ``dealer``) → 201
    ``{number, transfers, net, redeal, next_dealer, ...}``; a repeated ``Idempotency-Key``
    → 200 with the hand already recorded."""
    night, actor = authorised(session_id, "record")
    db = get_session()
    hand, created, balances = ledger_night.record_hand_kept(db, night, _submission(json_body()), actor)
    body = ledger_night.hand_json(hand)
    # a hand just recorded was the last to count when it was stored, and its transaction wrote
    # the balances; a replay reads who is next and the balances
    body["next_dealer"] = ledger_night.dealer_after(night, hand) if created else ledger_night.next_dealer(db, night)
    body["session_net"] = balances if balances is not None else ledger_night.balances(db, night)
    return jsonify(body), 201 if created else 200


@bp.post("/sessions/<session_id>/preview")
def preview_hand(session_id: str) -> Any:
    """Score an entry under the session's rules without recording it (200 or 422)."""
    night = authorised_night(session_id, "record")
    result = ledger_night.preview_hand(night, _submission(json_body()))
    return jsonify(result.to_json())


@bp.get("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>")
def get_hand(session_id: str, number: int) -> Any:
    night = authorised_night(session_id)
    return jsonify(ledger_night.hand_json(ledger_night.get_hand(get_session(), night, number)))


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/void")
def void_hand(session_id: str, number: int) -> Any:
    """Void a hand: it is kept and stops counting. 200 the hand, 404 unknown, 409 closed."""
    night, actor = authorised(session_id, "void")
    db = get_session()
    hand, totals = ledger_night.void_hand_kept(db, night, number, actor)
    if totals is None:
        return jsonify(_hand_with_totals(db, night, hand))
    return jsonify(ledger_night.hand_json(hand) | totals)


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/restore")
def restore_hand(session_id: str, number: int) -> Any:
    """Host: count a voided hand again → 200 the hand; 404 unknown, 409 closed."""
    night, actor = authorised(session_id, "restore")
    db = get_session()
    hand = ledger_night.restore_hand(db, night, number, actor)
    return jsonify(_hand_with_totals(db, night, hand))


def _hand_with_totals(db: Any, night: GameSession, hand: Any) -> dict[str, Any]:
    body = ledger_night.hand_json(hand)
    body["next_dealer"] = ledger_night.next_dealer(db, night)
    body["session_net"] = ledger_night.balances(db, night)
    return body


@bp.post("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/amend")
def amend_hand(session_id: str, number: int) -> Any:
    """Host only. Body: an entry plus ``version`` (the version being corrected) → 201 the new
    version; 409 ``stale_version`` with the ``current`` hand when another phone was first."""
    night, actor = authorised(session_id, "amend")
    body = load(_AMENDMENT, json_body())
    db = get_session()
    hand, created = ledger_night.amend_hand(db, night, number, body["version"], _submission_of(body), actor)
    return jsonify(_hand_with_totals(db, night, hand)), 201 if created else 200


@bp.get("/sessions/<session_id>/hands/<int(min=1, max=2147483647):number>/versions")
def hand_versions(session_id: str, number: int) -> Any:
    """Every version of hand ``number``, oldest first (amendments keep the old ones)."""
    night = authorised_night(session_id)
    versions = [h for h in ledger_night.hands_of(get_session(), night, all_versions=True) if h.number == number]
    if not versions:
        raise ApiError(404, "hand_not_found", N_("This night has no hand number {number}."), "number", number=number)
    return jsonify({"versions": [ledger_night.hand_json(h) for h in versions]})


@bp.post("/sessions/<session_id>/undo")
def undo(session_id: str) -> Any:
    """Host only: void the most recent counted hand."""
    night, actor = authorised(session_id, "undo")
    db = get_session()
    hand = ledger_night.undo_last_hand(db, night, actor)
    return jsonify(_hand_with_totals(db, night, hand))


@bp.post("/sessions/<session_id>/redo")
def redo(session_id: str) -> Any:
    """Host: undo the last undo (count again the hand it voided); 404 ``nothing_to_redo``."""
    night, actor = authorised(session_id, "restore")
    db = get_session()
    hand = ledger_night.redo_undo(db, night, actor)
    return jsonify(_hand_with_totals(db, night, hand))
