"""JSON errors for ``/api/v1``: ``{"error": code, "message": sentence, "field": path|null}``.

The ``message`` is written in the request's language (``Accept-Language``, ``?lang=``; see
:mod:`ledger.web.language`): every error carries an English template and its parameters, and
the body is made inside the request. Codes and fields stay English and stable. Marshmallow's
own messages ("Missing data for required field.") and our schemas' are read back into
catalogue templates by :func:`schema_sentence`.
"""
from __future__ import annotations

import re
import string
from typing import Any

from flask import Response, jsonify
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ledger.i18n import N_
from ledger.night.lifecycle import NightError
from ledger.games.tonk import HandError
from ledger.sentences import Sentence, english, render


class ApiError(Exception):
    """An HTTP error with a JSON body. ``status`` 4xx; ``code`` a stable machine word;
    ``template`` an English sentence marked for the catalogue with ``N_`` (or a
    :class:`~ledger.sentences.Sentence`), filled from ``params``; ``message`` is it in the
    language being written now."""

    def __init__(self, status: int, code: str, template: str | Sentence, field: str | None = None,
                 /, **params: Any) -> None:
        if isinstance(template, Sentence):
            template, params = template.template, dict(template.params) | params
        super().__init__(english(template, params))
        self.status, self.code, self.template, self.params, self.field = status, code, template, params, field

    @property
    def message(self) -> str:
        return render(self.template, self.params)


def error_response(status: int, code: str, message: str | Sentence, field: str | None = None) -> tuple[Response, int]:
    """The JSON error; ``message`` (a ``str`` or a :class:`Sentence`) is put into words now, in
    the request's language."""
    return jsonify({"error": code, "message": str(message), "field": field}), status


# Marshmallow's messages for the fields and validators our schemas use, and our schemas' own,
# as catalogue templates. A message is read back into its template (and parameters) by
# :func:`schema_sentence`; keep each one exactly as marshmallow or the schema writes it.
SCHEMA_MESSAGES: tuple[str, ...] = (
    # marshmallow fields (marshmallow.fields ... default_error_messages) and Schema
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid integer."),
    N_("Not a valid number."),
    N_("Number too large."),
    N_("Not a valid boolean."),
    N_("Not a valid mapping type."),
    N_("Not a valid list."),
    N_("Not a valid date."),
    N_("Not a valid aware datetime."),
    N_("Invalid type."),
    N_("Invalid input type."),
    N_("Unknown field."),
    # marshmallow validators (Length, Range, OneOf, Regexp, Equal)
    N_("Length must be between {min} and {max}."),
    N_("Length must be {equal}."),
    N_("Longer than maximum length {max}."),
    N_("Shorter than minimum length {min}."),
    N_("Must be greater than or equal to {min} and less than or equal to {max}."),
    N_("Must be greater than or equal to {min} and less than {max}."),
    N_("Must be greater than {min} and less than or equal to {max}."),
    N_("Must be greater than {min} and less than {max}."),
    N_("Must be greater than or equal to {min}."),
    N_("Must be greater than {min}."),
    N_("Must be less than or equal to {max}."),
    N_("Must be less than {max}."),
    N_("Must be one of: {choices}."),
    N_("String does not match expected pattern."),
    N_("Must be equal to {other}."),
    # our schemas (ledger.api.schemas, club_schemas, seating_schemas)
    N_("Send an IANA time zone name such as Europe/Paris."),
    N_("Say which version of the hand you are correcting."),
    N_('Send the table code as {"code": "…"}.'),
    N_('Send the recovery code as {"code": "…"}.'),
    N_("Send the club's code."),
    N_("Send at most {most} balances at once; {count} were sent."),
    N_("Settle at most {most} non-zero balances at once; {count} were sent."),
    N_("A player must be named by a non-empty text."),
    N_("{name} is not one of the balances sent."),
    N_("A line needs two different players."),
    N_("The period must start on or before the day it ends."),
    N_("Send one of the language codes {choices}, or null to follow the reader."),
    N_("unknown currency code {code}"),
)

_FORMATTER = string.Formatter()


def _pattern(template: str) -> re.Pattern[str]:
    """``template`` as a regular expression whose named groups are its placeholders (a
    template whose braces are no placeholders is matched as it is)."""
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError:
        parts = [(template, None, None, None)]
    if any(name is not None and not name.isidentifier() for _, name, _, _ in parts):
        return re.compile(re.escape(template))
    regex = "".join(re.escape(text) + (f"(?P<{name}>.+?)" if name else "") for text, name, _, _ in parts)
    return re.compile(regex, re.S)


# the most literal text first: "Must be greater than or equal to {min}." before "Must be greater than {min}."
_PATTERNS = sorted(((t, _pattern(t)) for t in SCHEMA_MESSAGES),
                   key=lambda item: -len(re.sub(r"\{\w+\}", "", item[0])))


def schema_sentence(message: str) -> Sentence:
    """A marshmallow message as a catalogue :class:`Sentence` (``"Longer than maximum length
    120."`` → the template ``"Longer than maximum length {max}."`` with ``max="120"``); a
    message not in :data:`SCHEMA_MESSAGES` is kept as it is."""
    for template, pattern in _PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            return Sentence(template, found.groupdict())
    return Sentence("{message}", {"message": message})


FIELD_PROBLEM = N_("{field}: {problem}")


def first_schema_error(err: ValidationError) -> tuple[str | None, Sentence]:
    """The first ``(field path, sentence)`` of a marshmallow error, paths dotted; the
    sentence is :func:`schema_sentence` of marshmallow's message."""

    def walk(messages: Any, path: list[str]) -> tuple[str | None, str]:
        if isinstance(messages, dict):
            key = sorted(messages, key=str)[0]
            return walk(messages[key], path + [str(key)])
        if isinstance(messages, list) and messages:
            if all(isinstance(m, str) for m in messages):
                return (".".join(path) or None), messages[0]
            return walk(messages[0], path)
        return (".".join(path) or None), str(messages)

    field, message = walk(err.messages, [])
    return field, schema_sentence(message)


def schema_error(err: ValidationError, codes: dict[str, str] | None = None) -> ApiError:
    """422 naming the first bad field: ``"{field}: {problem}"`` (the problem alone for the body
    as a whole). ``codes`` maps a top-level field to a §9.1 code (default ``invalid_entry``)."""
    field, problem = first_schema_error(err)
    code = (codes or {}).get((field or "").split(".")[0], "invalid_entry")
    if field:
        return ApiError(422, code, FIELD_PROBLEM, field, field=field, problem=problem)
    return ApiError(422, code, problem, None)


# werkzeug's own descriptions of the HTTP errors an API client can meet, for the catalogue
HTTP_DESCRIPTIONS: dict[int, str] = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    404: N_("The requested URL was not found on the server. If you entered the URL manually please check your "
            "spelling and try again."),
    405: N_("The method is not allowed for the requested URL."),
    413: N_("The data value transmitted exceeds the capacity limit."),
    415: N_("The server does not support the media type transmitted in the request."),
}
TOO_MANY_ATTEMPTS = N_("Too many attempts; wait a minute and try again.")
INTERNAL_ERROR = N_("Something went wrong on our side; nothing was recorded.")


def http_sentence(err: HTTPException) -> Sentence:
    """werkzeug's description of ``err`` as a catalogue sentence when it is werkzeug's own."""
    description = err.description or err.name or "Error"
    known = HTTP_DESCRIPTIONS.get(err.code or 0)
    if known is not None and description == known:
        return Sentence(known)
    return Sentence("{message}", {"message": description})


def handle_api_error(err: ApiError) -> tuple[Response, int]:
    return error_response(err.status, err.code, err.message, err.field)


def handle_hand_error(err: HandError) -> tuple[Response, int]:
    return error_response(422, err.code, err.message, err.field)


def handle_night_error(err: NightError) -> tuple[Response, int]:
    response = jsonify(err.to_json())
    if "retry_after" in err.extra:  # 503 pdf_busy: when to ask again, in seconds
        response.headers["Retry-After"] = str(err.extra["retry_after"])
    return response, err.status
