"""The phone pages (server-rendered, work without JavaScript).

Modules: :mod:`~ledger.web.views` (start, join, table, history, undo, PDF),
:mod:`~ledger.web.record` (the record-a-hand flow), :mod:`~ledger.web.amend` (correcting a
hand; it imports the record flow, never the other way round), :mod:`~ledger.web.entry_form` (the
flow's form state), the Tong-its flow read top to bottom (:mod:`~ledger.web.tongits_form` asks
what the hand needs, :mod:`~ledger.web.tongits_page` renders, :mod:`~ledger.web.tongits_record`
answers and saves; :mod:`~ledger.web.tongits_rules` its rules page), :mod:`~ledger.web.saved_hand`
(what a saved hand paid, in words), :mod:`~ledger.web.start_form` and
:mod:`~ledger.web.house_rules` (starting a night and its toggles), :mod:`~ledger.web.card_grid`,
:mod:`~ledger.web.rules_page`, :mod:`~ledger.web.share` (links, QR, table code),
:mod:`~ledger.web.hosts_page` (phones, co-hosts, recovery, restore), :mod:`~ledger.web.live` (polling updates),
:mod:`~ledger.web.seats_page` (seats and stake), :mod:`~ledger.web.settle_page` (settle-up and
payments), :mod:`~ledger.web.log_page` (history and exports), :mod:`~ledger.web.resubmit`
(expired forms keep what was entered), :mod:`~ledger.web.access` (the table token in the
cookie and its role), :mod:`~ledger.web.formatting` (template filters) and
:mod:`~ledger.web.errors` (403/404/410/400 pages), :mod:`~ledger.web.whole_night` (a night removed,
voided or restored by its host).
"""
from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from werkzeug.exceptions import NotFound

from ledger.web import (  # noqa: F401  (register routes)
    amend, club_carry, club_devices, club_forms, language, club_members, club_pages, club_payments, club_standings, errors, formatting, hosts_page, js_words, live, log_page, my_handles, offline, record, resubmit, rules_page, seats_page,
    pool_page, settle_page, share, views, whole_night,
)
from ledger.web.blueprint import bp

csrf = CSRFProtect()


def init_app(app: Flask) -> None:
    language.init_app(app)  # first: a refusal by the CSRF check is in the reader's language too
    csrf.init_app(app)
    from ledger.api import bp as api_bp

    csrf.exempt(api_bp)  # the JSON API authenticates by bearer token, not cookies
    app.register_blueprint(bp)
    app.register_error_handler(NotFound, errors.any_not_found)
