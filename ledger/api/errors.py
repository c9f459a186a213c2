"""JSON errors for ``/api/v1``: ``{"error": code, "message": sentence, "field": path|null}``."""
from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from marshmallow import ValidationError

from ledger.night import NightError
from ledger.rules import HandError


class ApiError(Exception):
    """An HTTP error with a JSON body. ``status`` 4xx; ``code`` a stable machine word."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field


def error_response(status: int, code: str, message: str, field: str | None = None) -> tuple[Response, int]:
    return jsonify({"error": code, "message": message, "field": field}), status


def first_schema_error(err: ValidationError) -> tuple[str | None, str]:
    """The first ``(field path, message)`` of a marshmallow error, paths dotted."""

    def walk(messages: Any, path: list[str]) -> tuple[str | None, str]:
        if isinstance(messages, dict):
            key = sorted(messages, key=str)[0]
            return walk(messages[key], path + [str(key)])
        if isinstance(messages, list) and messages:
            if all(isinstance(m, str) for m in messages):
                return (".".join(path) or None), messages[0]
            return walk(messages[0], path)
        return (".".join(path) or None), str(messages)

    return walk(err.messages, [])


def handle_api_error(err: ApiError) -> tuple[Response, int]:
    return error_response(err.status, err.code, err.message, err.field)


def handle_hand_error(err: HandError) -> tuple[Response, int]:
    return error_response(422, err.code, err.message, err.field)


def handle_night_error(err: NightError) -> tuple[Response, int]:
    response = jsonify(err.to_json())
    if "retry_after" in err.extra:  # 503 pdf_busy: when to ask again, in seconds
        response.headers["Retry-After"] = str(err.extra["retry_after"])
    return response, err.status
