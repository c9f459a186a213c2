"""The pages of the Tong-its record flow (``templates/record_tongits.html``): the outcome, the
hand on one page, and the payouts with the pot (TONGITS.md §8.2, §8.3), each sentence whole and
in the request's language. Called by :mod:`ledger.web.tongits_record`; reads only what it shows.
Amounts are minor units."""
from __future__ import annotations

from typing import Any

from flask import render_template, url_for

from ledger.night import lifecycle as ledger_night
from ledger.storage.db import get_session
from ledger.games.tongits import TongitsResult
from ledger.games.tongits.describe import describe_lines
from ledger.i18n import _
from ledger.storage.models import GameSession
from ledger.web.tongits_form import Correction, TongitsForm

POT = "pot"
ENTRY_STEP = "whole"  # the hand on one page; the name the offline queue and sw.js know


def render(night: GameSession, form: TongitsForm, step: str, *, result: TongitsResult | None = None,
           status: int = 200, correction: Correction | None = None) -> Any:
    """The page of ``step`` (``outcome``, ``whole`` = the hand, ``preview``)."""
    db = get_session()
    dealer = ledger_night.next_dealer(db, night) if correction is None else correction.dealer
    context: dict[str, Any] = {
        "night": night, "form": form, "step": step, "players": list(enumerate(form.players)),
        "dealer": dealer,
        "hidden": form.hidden_fields(everything=step == "preview"),
        "action": correction.action if correction else url_for("web.record", session_id=night.id),
        "cancel": correction.back if correction else url_for("web.table", session_id=night.id),
        "table_url": url_for("web.table", session_id=night.id),
        "correction": correction,
        "preview": preview(night, form, result) if result is not None else None,
    }
    return render_template("record_tongits.html", **context), status


def preview(night: GameSession, form: TongitsForm, result: TongitsResult) -> dict[str, Any]:
    """What the payouts page shows: the hand in whole sentences, who pays whom (the pot as a
    party: antes in, a take out), each player's amount, and the pot after (balance, who holds
    the streak, and how long it is). Amounts are minor units."""
    stored = result.to_json() | {"detail": result.detail, "points": result.points}
    lines = [str(line) for line in describe_lines(submission_outcome(form), stored)]
    transfers = [(transfer_words(t), t.amount_minor) for t in result.transfers]
    pot = result.pot
    return {
        "lines": lines,
        "transfers": transfers,
        "net": [(p, result.net.get(p, 0)) for p in form.players],
        "points": [(p, result.points[p]) for p in form.players if p in result.points],
        "redeal": result.redeal,
        "pot": {"before": pot.balance_before, "antes": pot.antes, "taken_by": pot.taken_by, "taken": pot.taken,
                "after": pot.balance_after, "holder": pot.holder, "streak": pot.streak},
    }


def transfer_words(t: Any) -> str:
    """One netted payment in a whole sentence, the pot being a party (§8.3): "Ana puts into the
    pot", "Ana takes from the pot", "Ben pays Ana"."""
    if t.payee == POT:
        return _("{payer} puts into the pot", payer=t.payer)
    if t.payer == POT:
        return _("{payee} takes from the pot", payee=t.payee)
    return _("{payer} pays {payee}", payer=t.payer, payee=t.payee)


def submission_outcome(form: TongitsForm) -> dict[str, Any]:
    kept = dict(form.errors)  # building the entry again starts its checks afresh: keep what the page says
    submission = form.submission()
    form.errors = kept
    return dict(submission.outcome) if submission is not None else {"kind": form.kind}
