"""The ledger's refusals outside the rules: :class:`NightError` carries the HTTP status, the
error code, a sentence and the field, as :class:`~ledger.rules.HandError` does for the rules."""
from __future__ import annotations

from typing import Any, Mapping


class NightError(Exception):
    """A request the ledger refuses for a reason outside the rules: ``status`` is the HTTP
    status (404 unknown hand, 409 closed session...), ``code``/``message``/``field`` as in
    :class:`~ledger.rules.HandError`."""

    def __init__(
        self, status: int, code: str, message: str, field: str | None = None, extra: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.extra = dict(extra or {})

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "field": self.field} | self.extra
