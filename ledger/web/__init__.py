"""The phone pages (server-rendered, work without JavaScript)."""
from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from ledger.web.views import bp

csrf = CSRFProtect()


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    from ledger.api import bp as api_bp

    csrf.exempt(api_bp)  # the JSON API authenticates by bearer token, not cookies
    app.register_blueprint(bp)
