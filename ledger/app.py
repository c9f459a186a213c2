"""The Flask application factory (pattern of Flask's tutorial "flaskr").

Configuration, lowest to highest precedence: built-in defaults (SQLite file under the
instance folder), ``instance/config.py``, the environment (``DATABASE_URL``, ``SECRET_KEY``,
``RATELIMIT_STORAGE_URI``, ``PDF_POOL``, ``PDF_WORKERS``, ``PDF_NICE``, ``IMPORT_MAX_BYTES``),
then ``test_config``. ``MAX_CONTENT_LENGTH`` (256 KiB) bounds every request body but a club
import's, which ``IMPORT_MAX_BYTES`` bounds (64 MiB by default, where a 1,000-hand club's export
takes a few MB; see :func:`ledger.api.clubs.import_club`). The secret key is generated once into ``instance/secret_key``.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, Response

from ledger.web import assets
from ledger.storage import db
from ledger.access import limits
from ledger.statements import render_pool

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=f"sqlite:///{Path(app.instance_path) / 'ledger.sqlite3'}",
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=256 * 1024,
        IMPORT_MAX_BYTES=64 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # Only a request that changes the session writes the cookie: a live poll or a kept
        # copy answered late must never put back an older cookie (a one-time message lost).
        # The month a remembered token lasts counts from when it was last changed.
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        LOCALE="en_US",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        for key in ("DATABASE_URL", "SECRET_KEY", "RATELIMIT_STORAGE_URI", "PDF_POOL", "PDF_WORKERS",
                    "PDF_NICE", "IMPORT_MAX_BYTES"):
            if os.environ.get(key):
                app.config[key] = os.environ[key]
    else:
        app.config.from_mapping(test_config)
    app.config["IMPORT_MAX_BYTES"] = int(app.config["IMPORT_MAX_BYTES"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))
    app.json.sort_keys = False  # type: ignore[attr-defined]

    db.init_app(app)
    limits.init_app(app)
    assets.init_app(app)
    render_pool.init_app(app)

    from ledger.api import init_app as init_api
    from ledger.web import init_app as init_web

    init_api(app)
    init_web(app)
    app.after_request(_security_headers)
    return app


def _security_headers(response: Response) -> Response:
    """Join links carry secrets in their path: never send them on as a Referer; no framing."""
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _instance_secret(instance: Path) -> str:
    path = instance / "secret_key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    path.write_text(key)
    path.chmod(0o600)
    return key
