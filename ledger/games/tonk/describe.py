"""Hands in words, for history lists and statements ("Rosa knocked with 4 and won").

Works on the JSON forms stored by the ledger (the entry's ``outcome`` and a result's
``winners``, ``redeal`` and ``detail``), so old hands read the same however they were stored.

Every description is one whole sentence per case (with or without the count, with or without
the multiplier), returned as a :class:`~ledger.sentences.Sentence`: ``str()`` it, or put it in
a template, to read it in the current language.

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from ledger.sentences import N_, Sentence, render

OUTCOME_TITLE_TEMPLATES: dict[str, str] = {
    "deal_tonk": N_("Tonk on the deal"),
    "tonk_out": N_("Tonk out"),
    "discard_out": N_("Out by discard"),
    "knock": N_("Knock (drop)"),
    "dry_stock": N_("Dry stock"),
    "double_double": N_("Double-double"),
}


class Titles(Mapping[str, str]):
    """Short titles by key, each looked up in the language being written now: ``titles[kind]``
    is a ``str`` in the current language. ``titles | {"cards": N_("Cards and spreads")}`` adds
    more English templates (looked up the same way)."""

    def __init__(self, templates: Mapping[str, str]) -> None:
        self._templates = dict(templates)

    def __getitem__(self, key: str) -> str:
        return render(self._templates[key], {})

    def __iter__(self) -> Iterator[str]:
        return iter(self._templates)

    def __len__(self) -> int:
        return len(self._templates)

    def template(self, key: str) -> str:
        """The English template of ``key`` (for a :class:`Sentence`)."""
        return self._templates[key]

    def __or__(self, other: Mapping[str, str]) -> Titles:
        more = other._templates if isinstance(other, Titles) else dict(other)
        return Titles(self._templates | more)

    def __ror__(self, other: Mapping[str, str]) -> Titles:
        return Titles(dict(other)) | self


# the outcome kinds' titles, in the current language when looked up ("Knock (drop)")
OUTCOME_TITLES = Titles(OUTCOME_TITLE_TEMPLATES)


def outcome_title(kind: str) -> Sentence:
    """The title of outcome ``kind`` as a sentence (the kind itself if unknown)."""
    template = OUTCOME_TITLE_TEMPLATES.get(kind)
    return Sentence(template) if template else Sentence("{kind}", {"kind": str(kind)})


NOBODY = N_("nobody")


def join_names(names: Sequence[str]) -> Sentence:
    """``"Dee, Rosa and Marcus"`` joined as the current language joins a list; ``"nobody"``
    when empty. ``str()`` it (or put it in a template) to read it."""
    names = [str(n) for n in names]
    if not names:
        return Sentence(NOBODY)
    # "{names}" is no catalogue sentence: only the list is put into words
    return Sentence("{names}", {"names": tuple(names)})


def _names(names: Sequence[str]) -> Any:
    return tuple(str(n) for n in names) if names else Sentence(NOBODY)


def _multiple(mult: Any) -> bool:
    return isinstance(mult, int) and not isinstance(mult, bool) and mult != 1


# (with the count, with the multiplier) → sentence
DEAL_TONK = {
    (True, True): N_("{names} tonked on the deal with {total} ({mult}×)"),
    (True, False): N_("{names} tonked on the deal with {total}"),
    (False, True): N_("{names} tonked on the deal ({mult}×)"),
    (False, False): N_("{names} tonked on the deal"),
}
KNOCKER_WINS = {
    (True, True): N_("{knocker} knocked with {count} and won ({mult}×)"),
    (True, False): N_("{knocker} knocked with {count} and won"),
    (False, True): N_("{knocker} knocked and won ({mult}×)"),
    (False, False): N_("{knocker} knocked and won"),
}
# with the count → sentence
KNOCK_TIE_SINGLE = {
    True: N_("{knocker} knocked with {count} and tied; {names} collect single"),
    False: N_("{knocker} knocked and tied; {names} collect single"),
}
KNOCK_CATCH_TIE = {
    True: N_("{knocker} knocked with {count} and was caught: catch tie between {names}"),
    False: N_("{knocker} knocked and was caught: catch tie between {names}"),
}
KNOCK_CAUGHT = {
    True: N_("{knocker} knocked with {count} and was caught by {names}"),
    False: N_("{knocker} knocked and was caught by {names}"),
}


def describe_hand(outcome: Mapping[str, Any], result: Mapping[str, Any]) -> Sentence:
    """One sentence for a recorded hand, e.g. ``"Dee knocked with 7 and was caught by Rosa"``.

    ``outcome`` is the §8.1 outcome object; ``result`` holds ``winners`` (list), ``redeal``
    (bool) and ``detail`` (dict) as produced by the engine. Returns a
    :class:`~ledger.sentences.Sentence` (``str()`` gives it in the current language).
    """
    kind = outcome.get("kind")
    winners = list(result.get("winners") or [])
    detail = result.get("detail") or {}
    redeal = bool(result.get("redeal"))
    mult = detail.get("mult")
    times = _multiple(mult)
    if kind == "deal_tonk":
        if redeal:
            return Sentence(N_("Deal tonks by {names}: redeal, nobody pays"),
                            {"names": _names(outcome.get("claimants") or [])})
        total = detail.get("total")
        shown = isinstance(total, int)
        return Sentence(DEAL_TONK[(shown, times)], {"names": _names(winners), "total": total, "mult": mult})
    if kind == "tonk_out":
        template = N_("{winner} tonked out ({mult}×)") if times else N_("{winner} tonked out")
        return Sentence(template, {"winner": str(outcome.get("winner")), "mult": mult})
    if kind == "discard_out":
        return Sentence(N_("{winner} went out by discard"), {"winner": str(outcome.get("winner"))})
    if kind == "knock":
        params = {"knocker": str(outcome.get("knocker")), "count": detail.get("knocker_count"),
                  "names": _names(winners), "mult": mult}
        with_count = isinstance(params["count"], int)
        res = detail.get("result")
        if res == "knocker_wins":
            return Sentence(KNOCKER_WINS[(with_count, times)], params)
        if res == "tie_single":
            return Sentence(KNOCK_TIE_SINGLE[with_count], params)
        if detail.get("catch_tie"):
            return Sentence(KNOCK_CATCH_TIE[with_count], params)
        return Sentence(KNOCK_CAUGHT[with_count], params)
    if kind == "dry_stock":
        params = {"low": detail.get("low_count"), "names": _names(winners)}
        if redeal:
            return Sentence(N_("Dry stock, tie for low at {low}: redeal, nobody pays"), params)
        if len(winners) > 1:
            return Sentence(N_("Dry stock: {names} tie for low at {low}"), params)
        return Sentence(N_("Dry stock: {names} lowest with {low}"), params)
    if kind == "double_double":
        return Sentence(N_("Double-double: {names} collects 4×"), {"names": _names(winners)})
    return outcome_title(str(kind))
