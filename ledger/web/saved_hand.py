"""What a saved hand paid, in one whole sentence (the flash after "Save", the offline queue's
news), and whether a save came from the offline queue. Shared by the record flows of every game
(:mod:`ledger.web.record`, :mod:`ledger.web.tongits_record`) and the correction flow."""
from __future__ import annotations

from typing import Any

from flask import request

from ledger.i18n import N_, _
from ledger.storage.models import GameSession
from ledger.web.formatting import join_names, money

# What a saved hand paid, one whole sentence per case: recorded (``number``) or corrected
# (``number``, ``version``); ``name``/``names`` won ``amount`` (each), or ``gains`` when the
# winners won different amounts ("Dee won $1.00, Rosa won $0.50").
RECORDED = {
    "redeal": N_("Hand {number} recorded: redeal, nobody pays"),
    "nobody": N_("Hand {number} recorded: nobody pays"),
    "one": N_("Hand {number} recorded: {name} won {amount}"),
    "each": N_("Hand {number} recorded: {names} won {amount} each"),
    "several": N_("Hand {number} recorded: {gains}"),
    # a game with a pot (Tong-its): the winner's gain after their own ante, and the pot after
    "pot_one": N_("Hand {number} recorded: {name} won {amount}; the pot is at {pot}"),
    "pot_even": N_("Hand {number} recorded: {name} won, and came out even after the ante; the pot is at {pot}"),
    "pot_nobody": N_("Hand {number} recorded: nobody won; the pot is at {pot}"),
}
CORRECTED = {
    "redeal": N_("Hand {number} corrected (version {version}): redeal, nobody pays"),
    "nobody": N_("Hand {number} corrected (version {version}): nobody pays"),
    "one": N_("Hand {number} corrected (version {version}): {name} won {amount}"),
    "each": N_("Hand {number} corrected (version {version}): {names} won {amount} each"),
    "several": N_("Hand {number} corrected (version {version}): {gains}"),
    "pot_one": N_("Hand {number} corrected (version {version}): {name} won {amount}; the pot is at {pot}"),
    "pot_even": N_("Hand {number} corrected (version {version}): {name} won, and came out even after the ante; "
                   "the pot is at {pot}"),
    "pot_nobody": N_("Hand {number} corrected (version {version}): nobody won; the pot is at {pot}"),
}


def wants_json() -> bool:
    """A save sent by the offline queue (``Accept: application/json``), not by a page."""
    return request.accept_mimetypes.best == "application/json"


def saved_message(sentences: dict[str, str], night: GameSession, result: dict[str, Any], **params: Any) -> str:
    """What a saved hand paid, as the flash says it: ``"Hand 5 recorded: Dee won $0.75"``.
    ``sentences`` is :data:`RECORDED` or :data:`CORRECTED`; ``params`` their ``number``
    (and ``version``). A hand of a game with a pot (a result with ``pot``, TONGITS.md §8.2)
    says the winner's net and the pot's balance after it."""
    net = result.get("net", {})
    pot = result.get("pot")
    if isinstance(pot, dict) and not result.get("redeal"):
        after = money(int(pot.get("balance_after", 0)), night.currency)
        winner = next(iter(result.get("winners") or []), None)
        if winner is None:
            return _(sentences["pot_nobody"], pot=after, **params)
        gain = int(net.get(winner, 0))
        if gain > 0:
            return _(sentences["pot_one"], name=winner, amount=money(gain, night.currency), pot=after, **params)
        return _(sentences["pot_even"], name=winner, pot=after, **params)
    gains = [(w, int(net.get(w, 0))) for w in result.get("winners", []) if int(net.get(w, 0)) > 0]
    if not gains:
        return _(sentences["redeal" if result.get("redeal") else "nobody"], **params)
    if len({amount for _name, amount in gains}) == 1:
        amount = money(gains[0][1], night.currency)
        if len(gains) == 1:
            return _(sentences["one"], name=gains[0][0], amount=amount, **params)
        return _(sentences["each"], names=join_names([w for w, _amount in gains]), amount=amount, **params)
    # winners who won different amounts: a list of whole clauses
    won = [_("{name} won {amount}", name=w, amount=money(a, night.currency)) for w, a in gains]
    return _(sentences["several"], gains=", ".join(won), **params)
