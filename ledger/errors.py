"""The ledger's refusals outside the rules: :class:`NightError` carries the HTTP status, the
error code, a sentence and the field, as :class:`~ledger.games.tonk.HandError` does for the rules."""
from __future__ import annotations

from typing import Any, Mapping

from ledger.sentences import english, render


class NightError(Exception):
    """A request the ledger refuses for a reason outside the rules: ``status`` is the HTTP
    status (404 unknown hand, 409 closed session...), ``code``/``template``/``params``/``field``
    as in :class:`~ledger.games.tonk.HandError`; ``message`` is the sentence in the reader's language."""

    def __init__(
        self, status: int, code: str, template: str, field: str | None = None,
        extra: Mapping[str, Any] | None = None, /, **params: Any,
    ) -> None:
        super().__init__(english(template, params))
        self.status = status
        self.code = code
        self.template = template
        self.params = params
        self.field = field
        self.extra = dict(extra or {})

    @property
    def message(self) -> str:
        return render(self.template, self.params)

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "field": self.field} | self.extra
