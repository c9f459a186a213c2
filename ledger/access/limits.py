"""Rate limits (Flask-Limiter) against guessing table codes and tokens.

Limits are per client address and kept in the server process (``memory://``), which fits the
single-process waitress server; a club running several processes sets ``RATELIMIT_STORAGE_URI``
(e.g. a Redis URL) in ``instance/config.py`` or the environment, so that every process counts
against one budget (``tests/test_scale_out.py``).
"""
from __future__ import annotations

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# typing a 6-character code wrong a few times is human; hundreds of tries is not
JOIN_LIMIT = "10 per minute;60 per hour"
# one budget per client for every door that takes a table code: ``POST /api/v1/join``, the
# phone's ``/join`` and ``/rejoin`` (each decorated with ``limiter.shared_limit(JOIN_LIMIT, scope=JOIN_SCOPE)``)
JOIN_SCOPE = "join-code"

# POST /api/v1/settle needs no token and its exact search costs up to ~0.2 s of CPU per call:
# per client, at most this many calls (config key ``SETTLE_LIMIT`` overrides it) ...
SETTLE_LIMIT = "30 per minute"
# ... and at most this many balances per call, of which at most this many non-zero
SETTLE_MAX_BALANCES = 64
SETTLE_MAX_NONZERO = 24

# no ``storage_uri`` here: an argument would override ``RATELIMIT_STORAGE_URI`` from the config
limiter = Limiter(key_func=get_remote_address, default_limits=[])


def settle_limit() -> str:
    """The app's ``SETTLE_LIMIT`` (Flask-Limiter string), default :data:`SETTLE_LIMIT`."""
    return str(current_app.config.get("SETTLE_LIMIT", SETTLE_LIMIT))


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("SETTLE_LIMIT", SETTLE_LIMIT)
    limiter.init_app(app)
    limiter.request_filter(_unlimited)


def _unlimited() -> bool:
    """Flask-Limiter's request filter: True (nothing to count) for a request whose endpoint has
    no limit. There are no default or application limits, only the ones the views above are
    decorated with, so the answer is the limit manager's own, asked once per endpoint of the app
    (the views are all registered by the first request) instead of on every request: recording
    a hand skipped ~300 calls of the limiter's own resolution (issue 24)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    unlimited: frozenset[str] | None = app.extensions.get("ledger.unlimited_endpoints")
    if unlimited is None:
        unlimited = app.extensions["ledger.unlimited_endpoints"] = frozenset(
            endpoint for endpoint in app.view_functions if not any(limiter.limit_manager.resolve_limits(
                app, endpoint, endpoint.rpartition(".")[0] or None, in_middleware=False)))
    return request.endpoint in unlimited
