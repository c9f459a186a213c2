"""Names of nights and players: one cleaning for every place a name is given (starting a
night, every name inside a hand's §8.1 entry, a dealer, a payment's ``from``/``to``).

A name is NFC-normalised and trimmed, so an accent typed two ways (``é`` or ``e`` + combining
accent) is one name. It is then read as grapheme clusters (``regex``'s ``\\X``, Unicode
UAX #29): every cluster must start with a visible character; zero-width joiner and non-joiner
(U+200D, U+200C) and tag characters (flags of subdivisions) are accepted inside a cluster, so
``علی‌رضا``, ``👩‍💻 Dana`` and ``🏳️‍🌈 Sam`` are names. Any other format character (bidi
overrides, embeddings and isolates, zero-width space, BOM...), control, private-use,
surrogate or unassigned code point is refused, as is a name of invisible characters only.

A default-ignorable character (Unicode's Default_Ignorable_Code_Point: it draws nothing) is
kept only where a script or an emoji needs it (:func:`has_hidden_characters`): a zero-width
joiner or non-joiner where UTS #31 §2.3 allows one (after a virama, as in Malayalam's
``ന്‍``, Sinhala's ``ශ්‍රී`` or Devanagari's ``क्‌ष``; a ZWJ before a virama, as in Bengali's
``র‍্য``; a ZWNJ breaking a cursive join, as in Persian's ``علی‌رضا``), a joiner, VS16 or tag
inside an emoji sequence (UTS #51's possible-emoji form: ``👩‍💻``, ``❤️``, ``1️⃣``), VS15 after
an emoji, a variation selector after an ideograph (ideographic variation sequences) or a
Myanmar, Phags-pa or Manichaean letter, and a Mongolian free variation selector after a
Mongolian letter. Anywhere else it is refused: a ZWJ inside ``Ro‍sa``, VS16 after a letter
(``Ann️``), the Hangul filler U+3164 (``Annㅤ``), the combining grapheme joiner.

Two names *look alike* (:func:`look_alike`) when they share a confusable skeleton (UTS #39
§4, ICU's spoof checker, ``icu.SpoofChecker.getSkeleton``), taken of the NFKC form with runs of
spaces read as one (``"Dее"`` in Cyrillic, ``"Ｄｅｅ"`` and ``"Dee"``; ``"Ian"`` and
``"lan"``), or of the NFKC-casefolded :func:`name_key` (``"DЕЕ"`` in Cyrillic capitals and
``"Dee"``). An accent is no look-alike (``"Dée"`` and ``"Dee"`` are two names), nor is a
digit or a word more (``"Ann"`` and ``"Ann 2"``).

Pure domain code: no Flask.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterable, Sequence

import icu
import regex

from ledger.games.errors import HandError
from ledger.sentences import N_

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
INVISIBLE_STARTS = REFUSED_CATEGORIES | {"Mn", "Mc", "Me", "Zs", "Zl", "Zp"}
JOINERS = frozenset({"\u200c", "\u200d"})
GRAPHEME = regex.compile(r"\X")
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# UTS #51 §1.4.9, possible emoji: elements (a flag's two regional indicators, or an emoji with a
# skin tone, VS16 (and keycap) or tag sequence) joined by ZWJ
_EMOJI_ELEMENT = r"(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{EMod}|\uFE0F\u20E3?|[\U000E0020-\U000E007E]+\U000E007F)?)"
EMOJI_SEQUENCE = regex.compile(rf"{_EMOJI_ELEMENT}(?:\u200D{_EMOJI_ELEMENT})*")
# UTS #31 §2.3 A1: a ZWNJ breaking a cursive connection (Arabic script, Persian's ``علی‌رضا``)
CURSIVE_BREAK = regex.compile(r"(?<=[\p{jt=L}\p{jt=D}]\p{jt=T}*)\u200C(?=\p{jt=T}*[\p{jt=R}\p{jt=D}])")
VIRAMA = regex.compile(r"\p{ccc=Virama}")
EMOJI = regex.compile(r"\p{Emoji}")
VARIED = regex.compile(r"[\p{Ideographic}\p{sc=Myanmar}\p{sc=Phags_Pa}\p{sc=Manichaean}]")
MONGOLIAN = regex.compile(r"\p{scx=Mongolian}")
SPACES = regex.compile(r"\s+")
_SPOOF = icu.SpoofChecker()
_NFKC = icu.Normalizer2.getNFKCInstance()
_NFKC_CASEFOLD = icu.Normalizer2.getNFKCCasefoldInstance()


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


def _skeleton(text: str) -> str:
    """UTS #39's confusable skeleton of ``text`` (ICU), with runs of spaces read as one."""
    return SPACES.sub(" ", _SPOOF.getSkeleton(0, text))


def look_alike_keys(name: str) -> tuple[str, str]:
    """The two forms :func:`look_alike` compares: the skeleton of ``name`` in NFKC, and the
    skeleton of its :func:`name_key` NFKC-casefolded (so capitals in another script look alike
    too). Both drop default-ignorable characters (UTS #39 skeleton, step 2)."""
    spaced = SPACES.sub(" ", normalise_name(name))
    return _skeleton(_NFKC.normalize(spaced)), _skeleton(_NFKC_CASEFOLD.normalize(name_key(spaced)))


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that a table could take for ``name``: one with the same
    :func:`name_key`, or the same confusable skeleton (see the module docstring), else ``None``.
    (``name`` itself among ``others`` is found too: leave it out where it is the same person.)"""
    plain, folded = look_alike_keys(name)
    for other in others:
        other_plain, other_folded = look_alike_keys(other)
        if plain == other_plain or folded == other_folded:
            return other
    return None


def look_alike_pair(names: Sequence[str], *, same_key: bool = True) -> tuple[int, str] | None:
    """The first ``(index, other)`` where ``names[index]`` looks like an earlier name ``other``
    (:func:`look_alike`), or ``None``; in one pass (each name's keys are worked out once). With
    ``same_key`` false, two names with one :func:`name_key` are not counted."""
    seen: dict[tuple[int, str], dict[str, str]] = {}
    for index, name in enumerate(names):
        own = name_key(name)
        keys = list(enumerate(look_alike_keys(name)))
        for key in keys:
            for other_key, other in seen.get(key, {}).items():
                if same_key or other_key != own:
                    return index, other
        for key in keys:
            seen.setdefault(key, {}).setdefault(own, name)
    return None


def alike_names(name: str, other: str, field: str) -> HandError:
    """The refusal (``duplicate_player``, naming ``field``) of ``name`` beside ``other`` when
    they :func:`look_alike`: they differ only in capitals, or in a dotted or dotless i (the
    same :func:`name_key`), or only in letters that look the same (the same skeleton)."""
    if name_key(name) != name_key(other):
        return HandError("duplicate_player", N_("{name} looks like {other}; give players names that are easy to "
                                                "tell apart."), field, name=name, other=other)
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
    cluster, or a default-ignorable one where no script or emoji needs it: see the module
    docstring."""
    if _needless_ignorable(name):
        return True
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


def _needless_ignorable(name: str) -> bool:
    """Whether ``name`` holds a default-ignorable character where no script or emoji needs it."""
    if not IGNORABLE.search(name):
        return False
    in_emoji = {i for m in EMOJI_SEQUENCE.finditer(name) for i in range(m.start(), m.end())}
    breaks = {m.start() for m in CURSIVE_BREAK.finditer(name)}
    for index, ch in enumerate(name):
        if not IGNORABLE.match(ch) or index in in_emoji or index in breaks:
            continue
        before = name[index - 1] if index else ""
        after = name[index + 1:index + 2]
        if not (ch in JOINERS and (VIRAMA.match(before) or (ch == "\u200d" and VIRAMA.match(after)))
                or ch == "\ufe0e" and EMOJI.match(before)
                or ("\ufe00" <= ch <= "\ufe0d" or "\U000e0100" <= ch <= "\U000e01ef") and VARIED.match(before)
                or ch in "\u180b\u180c\u180d\u180f" and MONGOLIAN.match(before)
                or "\U000e0020" <= ch <= "\U000e007f"):  # tags: only in a flag (has_hidden_characters)
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
