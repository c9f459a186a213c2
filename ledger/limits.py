"""Rate limits (Flask-Limiter) against guessing table codes and tokens.

Limits are per client address and kept in the server process (``memory://``), which fits the
single-process waitress server; a club running several processes sets ``RATELIMIT_STORAGE_URI``
(e.g. a Redis URL) in ``instance/config.py`` or the environment, so that every process counts
against one budget (``tests/test_scale_out.py``).
"""
from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# typing a 6-character code wrong a few times is human; hundreds of tries is not
JOIN_LIMIT = "10 per minute;60 per hour"
# one budget per client for every door that takes a table code: ``POST /api/v1/join``, the
# phone's ``/join`` and ``/rejoin`` (each decorated with ``limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)``)
JOIN_SCOPE = "join-code"

# no ``storage_uri`` here: an argument would override ``RATELIMIT_STORAGE_URI`` from the config
limiter = Limiter(key_func=get_remote_address, default_limits=[])


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter.init_app(app)
