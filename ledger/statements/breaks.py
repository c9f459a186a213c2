"""Where a line of a PDF may break, in any script (issue 23 item 7): Unicode's line-breaking
algorithm (UAX #14) as ICU implements it, with ICU's dictionaries for the scripts written without
spaces between words (Thai, Lao, Khmer, Myanmar; Han and kana by their own rules), so Lao and Thai
break between syllables and words, never inside one ("ຮັ / ບ").

reportlab breaks a Paragraph only at spaces, and cuts a word wider than its column between any
two characters: the text of a PDF is broken here instead and handed to reportlab line by line
(:func:`lines`; :class:`ledger.statements.look.Wrapped`, :mod:`ledger.statements.heading`).
"""
from __future__ import annotations

import threading
from collections.abc import Callable

import icu
import regex

__all__ = ["NEEDS_DICTIONARY", "boundaries", "clip_points", "cluster_ends", "lines", "needs_breaking", "opportunities",
           "segments"]

# scripts ICU breaks by dictionary: a line of them has no spaces to break at
NEEDS_DICTIONARY = regex.compile(r"[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]")
_CLUSTER = regex.compile(r"\X")
_local = threading.local()


def _iterator() -> icu.BreakIterator:
    """This thread's line break iterator (an ICU iterator is not shared between threads)."""
    found = getattr(_local, "iterator", None)
    if found is None:
        found = _local.iterator = icu.BreakIterator.createLineInstance(icu.Locale.getRoot())
    return found


def needs_breaking(text: str) -> bool:
    """Whether ``text`` holds a script written without spaces (so reportlab would cut it badly)."""
    return NEEDS_DICTIONARY.search(text) is not None


def boundaries(text: str) -> list[int]:
    """The indices (into the Python string, code points) where a line may break, ``0`` and
    ``len(text)`` included, as ICU's line break iterator finds them."""
    if not text:
        return [0]
    iterator = _iterator()
    iterator.setText(text)
    # ICU counts UTF-16 code units; a character beyond the BMP is two of them
    units_to_index: dict[int, int] = {}
    unit = 0
    for index, ch in enumerate(text):
        units_to_index[unit] = index
        unit += 2 if ord(ch) > 0xFFFF else 1
    units_to_index[unit] = len(text)
    out = [0]
    for position in iterator:
        index = units_to_index.get(int(position))
        if index is not None and index > out[-1]:
            out.append(index)
    if out[-1] != len(text):
        out.append(len(text))
    return out


def opportunities(text: str) -> list[int]:
    """The :func:`boundaries` a PDF breaks a line at: after a space, or beside a letter of a
    script written without spaces (Lao, Thai...). Other text keeps its words whole, as the
    statements always did (a hyphenated name "Fitzgerald-Montgomery" is one word)."""
    end = len(text)
    return [b for b in boundaries(text)
            if b in (0, end) or text[b - 1].isspace() or needs_breaking(text[b - 1]) or needs_breaking(text[b])]


def segments(text: str) -> list[str]:
    """``text`` cut at every break :func:`opportunity <opportunities>` (each piece keeps the
    spaces that follow it; joined, they give ``text`` back)."""
    marks = opportunities(text)
    return [text[a:b] for a, b in zip(marks, marks[1:])]


def cluster_ends(text: str, start: int, end: int) -> list[int]:
    """The ends of the grapheme clusters of ``text[start:end]`` (indices into ``text``)."""
    out, at = [], start
    for cluster in _CLUSTER.findall(text[start:end]):
        at += len(cluster)
        out.append(at)
    return out


def clip_points(text: str) -> list[int]:
    """Where ``text`` may be cut short with an ellipsis, after index 0: at its line break
    opportunities when it holds a script written without spaces (a Lao name is cut between
    syllables), else between its grapheme clusters (never inside one)."""
    if needs_breaking(text):
        return [i for i in opportunities(text) if i > 0]
    return cluster_ends(text, 0, len(text))


def lines(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """``text`` filled into lines at most ``width`` wide (``measure`` gives a string's width),
    broken only at break opportunities (:func:`boundaries`); the spaces at a break are dropped.
    A piece wider than ``width`` on its own keeps a line of its own, cut between grapheme
    clusters only when even one of its words is wider than the line (never inside a cluster)."""
    out: list[str] = []
    line = ""
    for piece in segments(" ".join(text.split("\n"))):
        candidate = line + piece
        if not line or measure(candidate.rstrip()) <= width:
            line = candidate
            if measure(line.rstrip()) > width:  # one piece wider than the line: cut it by clusters
                head, line = _cut(line, width, measure)
                out += head
            continue
        out.append(line.rstrip())
        line = piece
        if measure(line.rstrip()) > width:
            head, line = _cut(line, width, measure)
            out += head
    if line.strip() or not out:
        out.append(line.rstrip())
    return out


def _cut(piece: str, width: float, measure: Callable[[str], float]) -> tuple[list[str], str]:
    """A piece wider than ``width`` as full lines of whole grapheme clusters and what is left."""
    done: list[str] = []
    line = ""
    for cluster in _CLUSTER.findall(piece):
        if line and measure((line + cluster).rstrip()) > width:
            done.append(line.rstrip())
            line = cluster.lstrip()
        else:
            line += cluster
    return done, line
