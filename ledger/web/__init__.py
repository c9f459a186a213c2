"""The phone pages (server-rendered, work without JavaScript).

Modules: :mod:`~ledger.web.views` (start, join, table, history, settle, PDF),
:mod:`~ledger.web.record` (the record-a-hand flow), :mod:`~ledger.web.entry_form` (its form
state), :mod:`~ledger.web.start_form`, :mod:`~ledger.web.card_grid`,
:mod:`~ledger.web.access` (table token in the cookie), :mod:`~ledger.web.formatting`
(template filters) and :mod:`~ledger.web.errors` (403/404/400 pages).
"""
from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from ledger.web import errors, formatting, record, rules_page, views  # noqa: F401  (register routes)
from ledger.web.blueprint import bp

csrf = CSRFProtect()


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    from ledger.api import bp as api_bp

    csrf.exempt(api_bp)  # the JSON API authenticates by bearer token, not cookies
    app.register_blueprint(bp)
