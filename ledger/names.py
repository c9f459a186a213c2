"""Names of nights and players: one cleaning for every place a name is given (starting a
night, every name inside a hand's §8.1 entry, a dealer, a payment's ``from``/``to``).

A name is NFC-normalised and trimmed, so an accent typed two ways (``é`` or ``e`` + combining
accent) is one name. It is then read as grapheme clusters (``regex``'s ``\\X``, Unicode
UAX #29): every cluster must start with a visible character; zero-width joiner and non-joiner
(U+200D, U+200C) and tag characters (flags of subdivisions) are accepted inside a cluster, so
``علی‌رضا``, ``👩‍💻 Dana`` and ``🏳️‍🌈 Sam`` are names. Any other format character (bidi
overrides, embeddings and isolates, zero-width space, BOM...), control, private-use,
surrogate or unassigned code point is refused, as is a name of invisible characters only.

Pure domain code: no Flask.
"""
from __future__ import annotations

import unicodedata
from typing import Any

import regex

from ledger.rules.errors import HandError
from ledger.rules.words import N_

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
INVISIBLE_STARTS = REFUSED_CATEGORIES | {"Mn", "Mc", "Me", "Zs", "Zl", "Zp"}
JOINERS = frozenset({"\u200c", "\u200d"})
GRAPHEME = regex.compile(r"\X")


def _joins_a_cluster(ch: str) -> bool:
    """A format character that may sit inside a grapheme cluster: ZWNJ, ZWJ, or a tag."""
    return ch in JOINERS or "\U000e0020" <= ch <= "\U000e007f"


def normalise_name(text: str) -> str:
    """``text`` NFC-normalised and trimmed: the form every name is compared and stored in."""
    return unicodedata.normalize("NFC", text).strip()


def name_key(name: str) -> str:
    """The form two display names are compared in, so that names a table would take for one
    are one: NFC, trimmed, casefolded, and the Turkish dotted capital İ and dotless ı read as
    i (``"ALİ"``, ``"Ali"``, ``"ALI"`` and ``"Alı"`` share the key ``"ali"``, since a phone
    typing Turkish and one typing English write the same name in these ways)."""
    folded = normalise_name(name).casefold()  # "İ" casefolds to "i" + COMBINING DOT ABOVE
    return unicodedata.normalize("NFC", folded.replace("i\u0307", "i").replace("ı", "i"))


def alike_names(name: str, other: str, field: str) -> HandError:
    """The refusal (``duplicate_player``, naming ``field``) of ``name`` beside ``other`` when
    they share a :func:`name_key`: they differ only in capitals, or in a dotted or dotless i."""
    if name.casefold() == other.casefold() or _turkish_lower(name) == _turkish_lower(other):
        return HandError("duplicate_player", N_("{name} and {other} differ only in capitals; give players names "
                                                "that are easy to tell apart."), field, name=name, other=other)
    return HandError("duplicate_player", N_("{name} and {other} differ only in a dotted or dotless i; give players "
                                            "names that are easy to tell apart."), field, name=name, other=other)


def _turkish_lower(name: str) -> str:
    """``name`` in lower case the Turkish way (I → ı, İ → i), where "ALİ" and "Ali" differ in capitals only."""
    return name.replace("I", "ı").replace("İ", "i").lower()


def has_hidden_characters(name: str) -> bool:
    """Whether a (normalised) name holds a character that is not part of a visible grapheme
    cluster: see the module docstring."""
    for cluster in GRAPHEME.findall(name):
        head = unicodedata.category(cluster[0])
        if head == "Zs" and len(cluster) == 1:  # a space between words
            continue
        if head in INVISIBLE_STARTS:
            return True
        for ch in cluster[1:]:
            if unicodedata.category(ch) in REFUSED_CATEGORIES and not _joins_a_cluster(ch):
                return True
        tags = [ch for ch in cluster if "\U000e0020" <= ch <= "\U000e007f"]
        # tag characters only spell a flag: a black flag, tag letters, then CANCEL TAG
        if tags and not (cluster[0] == "\U0001f3f4" and cluster.endswith("\U000e007f")):
            return True
    return False


def clean_name(text: str, field: str, longest: int) -> str:
    """A display name (a night's or a player's): normalised, 1 to ``longest`` characters, with
    no hidden characters. Raises :class:`HandError` ``invalid_entry`` naming ``field``."""
    cleaned = normalise_name(text)
    if not cleaned or len(cleaned) > longest:
        raise HandError("invalid_entry", N_("Names must be 1 to {most} characters."), field, most=longest)
    if has_hidden_characters(cleaned):
        raise HandError("invalid_entry", N_("Names cannot hold control or invisible characters."), field)
    return cleaned


def normalise_entry(value: Any, path: str = "") -> Any:
    """A raw JSON entry (a hand's ``outcome``, ``hands`` or ``side_bets``) with every text and
    every object key normalised like a name, so the names in it (winner, knocker, claimants,
    the ``hands`` keys, side-bet players...) match the seated ones. Card texts and other words
    are ASCII or symbols that normalising leaves as they are. Raises :class:`HandError`
    ``invalid_entry`` when two keys of one object become the same name."""
    if isinstance(value, str):
        return normalise_name(value)
    if isinstance(value, list):
        return [normalise_entry(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            name = normalise_name(key) if isinstance(key, str) else key
            where = f"{path}.{name}" if path else str(name)
            if name in out:
                raise HandError("invalid_entry", N_("{name} is named twice."), where, name=name)
            out[name] = normalise_entry(item, where)
        return out
    return value
