"""Why an entry is refused, for every game: :class:`HandError` with a code and named parameters.

Each game declares its own codes in their order of precedence (Tonk: ``RULES.md`` §9.1 in
:mod:`ledger.games.tonk.errors`; Tong-its: ``TONGITS.md`` §9.1) and registers them with
:func:`register_codes` when its package is imported (importing any part of ``ledger.games``
imports every game first); the web, API and storage layers catch :class:`HandError` and never
need to know which game refused. Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, Iterable

from ledger.sentences import english, render

# every code any game (or the ledger's own checks of a game's entry) may refuse with
_KNOWN_CODES: set[str] = set()


def register_codes(codes: Iterable[str]) -> None:
    """Declare a game's refusal codes (called once by each game's ``errors`` module)."""
    _KNOWN_CODES.update(codes)


class HandError(ValueError):
    """An entry the rules refuse.

    ``code`` is one of the refusing game's codes (or ``invalid_entry`` / ``invalid_ruleset``
    for input that is not shaped like an entry or names an unknown toggle); ``template`` is an
    English sentence with named placeholders, marked for the catalogue with ``N_``, and
    ``params`` fill it; ``message`` is that sentence in the reader's language (see
    :mod:`ledger.sentences`), ``str()`` of it the English one (put into words only when asked
    for); ``field`` is the path of the offending part of the entry, e.g.
    ``"hands.Dee.cards[2]"``, or ``None`` when the entry as a whole is at fault.

    Constructing one with a code no game registered raises ``ValueError`` (a typo in a rule
    must not become a new public error code).
    """

    def __init__(self, code: str, template: str, field: str | None = None, /, **params: Any) -> None:
        if code not in _KNOWN_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(code)
        self.code = code
        self.template = template
        self.params = params
        self.field = field

    def __str__(self) -> str:
        # the English sentence, put into words only when asked for (a log, a traceback): the
        # rules refuse entries often, and the web and API layers read ``message`` instead
        return english(self.template, self.params)

    @property
    def message(self) -> str:
        """The sentence in the language being written now (English outside a request)."""
        return render(self.template, self.params)

    def to_json(self) -> dict[str, str | None]:
        return {"error": self.code, "message": self.message, "field": self.field}

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, {str(self)!r}, field={self.field!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickled whole (a refusal raised in a worker process comes back as it was raised)
        return _rebuilt, (self.code, self.template, self.field, self.params)


def _rebuilt(code: str, template: str, field: str | None, params: dict[str, Any]) -> HandError:
    return HandError(code, template, field, **params)
