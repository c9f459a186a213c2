"""The phone's session cookie: Flask's signed cookie sessions, with the signing serializer made
once per set of secret keys instead of on every request (Flask builds it afresh each time, ~100
calls of every API call and poll that carries no cookie at all; issue 24). A change of
``SECRET_KEY`` or ``SECRET_KEY_FALLBACKS`` (a rotated secret) makes a new one at once."""
from __future__ import annotations

from typing import Any

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer


class KeptSerializerSessions(SecureCookieSessionInterface):
    """:class:`flask.sessions.SecureCookieSessionInterface` with its serializer kept, keyed by the
    app's secret key and fallbacks (a serializer holds no state between calls)."""

    def __init__(self) -> None:
        self._kept: tuple[Any, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]
