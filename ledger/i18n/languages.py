"""The languages Tonk Ledger speaks, and the Babel locale each one formats money, numbers and dates in.

Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    """One language: ``code`` (the catalogue's directory and the ``lang`` attribute), ``name``
    (the language's own name for itself, shown in the switch), and ``format_locale`` (the Babel
    locale for money, numbers and dates: ``tr_TR`` writes ``₺1.234,50``)."""

    code: str
    name: str
    format_locale: str


# English first (the source language), then alphabetically by code.
LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "English", "en_US"),
        Language("es", "Español", "es_ES"),
        Language("et", "Eesti", "et_EE"),
        Language("fil", "Filipino", "fil_PH"),
        Language("lo", "ລາວ", "lo_LA"),
        Language("ml", "മലയാളം", "ml_IN"),
        Language("tr", "Türkçe", "tr_TR"),
    )
}
SOURCE = "en"
# Tagalog is written tl by older systems and phones; it is the same catalogue as Filipino.
ALIASES: dict[str, str] = {"tl": "fil"}
# A test-only language: every sentence in accented look-alike letters, to find English left unwrapped.
PSEUDO = "en-XA"


def known(code: str | None, *, pseudo: bool = False) -> str | None:
    """The catalogue code for a tag such as ``"tr-TR"``, ``"tl"`` or ``"ML"``, or ``None``."""
    if not code:
        return None
    tag = code.strip().replace("_", "-")
    if pseudo and tag.lower() == PSEUDO.lower():
        return PSEUDO
    base = tag.split("-", 1)[0].lower()
    base = ALIASES.get(base, base)
    return base if base in LANGUAGES else None
