"""The host ends a pool rummy night's pool from the table (RUMMY13.md §4.10,
:func:`ledger.night.pool.end_pool`): the last one in takes the pot, or the players still in split
it (``split`` ``equal`` or ``by_drops``). Back to the table with what was paid, or why not."""
from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for

from ledger.errors import NightError
from ledger.games.errors import HandError
from ledger.games.rummy13.pool_night import SPLITS
from ledger.i18n import _
from ledger.night import pool
from ledger.storage.db import get_session
from ledger.web.access import authorised
from ledger.web.blueprint import bp
from ledger.web.formatting import money


@bp.post("/s/<session_id>/pool/end")
def end_pool(session_id: str) -> Any:
    night, actor = authorised(session_id, "close")
    split = request.form.get("split") or None
    try:
        entry = pool.end_pool(get_session(), night, actor, split if split in SPLITS else None)
    except (HandError, NightError) as err:
        flash(err.message, "error")
    else:
        flash(_("The pool ended: the pot of {amount} is paid.", amount=money(int(entry.result["pot"]), night.currency)),
              "success")
    return redirect(url_for("web.table", session_id=night.id))
