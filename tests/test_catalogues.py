"""Every catalogue is complete and safe to ship.

- Every sentence the code marks (``pybabel extract`` over ``ledger/`` and ``templates/``, the same
  mapping as ``babel.cfg``) is in the template and in every language's ``.po``.
- No entry is untranslated or fuzzy; plural entries have as many forms as the language's
  plural rule; each translation uses exactly the ``{placeholders}`` of its English sentence, so
  no page can fail (or silently fall back to English) on a translation.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from ledger.i18n import LANGUAGES, SOURCE
from ledger.i18n.catalogs import TEMPLATE, po_path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = sorted(code for code in LANGUAGES if code != SOURCE)
KEYWORDS = dict(DEFAULT_KEYWORDS) | {"N_": None, "pgettext": ((1, "c"), 2)}
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def _method_map() -> list[tuple[str, str]]:
    methods = []
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        found = re.fullmatch(r"\[(\w+):\s*(.+)\]", line.strip())
        if found:
            methods.append((found.group(2), found.group(1)))
    return methods


def _key(message_id: str | tuple[str, ...], context: str | None) -> tuple[str | None, str]:
    return context, message_id[0] if isinstance(message_id, tuple) else message_id


@pytest.fixture(scope="module")
def marked() -> set[tuple[str | None, str]]:
    found = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map=_method_map(), keywords=KEYWORDS
    ):
        found.add(_key(message, context))
    return found


def _read(path: Path, locale: str | None = None):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def test_the_code_marks_sentences_for_the_catalogue(marked: set[tuple[str | None, str]]) -> None:
    # a floor, so that a broken extraction (an empty catalogue) cannot pass the tests below
    assert len(marked) > 500, len(marked)
    assert (None, "Language") in marked


def test_the_template_holds_every_marked_sentence(marked: set[tuple[str | None, str]]) -> None:
    template = {_key(m.id, m.context) for m in _read(TEMPLATE) if m.id}
    missing = sorted(marked - template, key=str)
    assert not missing, f"run `make translations`: {len(missing)} sentences are not in messages.pot, e.g. {missing[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_sentence_is_translated(code: str, marked: set[tuple[str | None, str]]) -> None:
    catalogue = _read(po_path(code), locale=code)
    present = {}
    for message in catalogue:
        if message.id:
            present[_key(message.id, message.context)] = message
    missing = sorted(marked - set(present), key=str)
    assert not missing, f"{code}: {len(missing)} sentences missing from the .po (run `make translations`), e.g. {missing[:5]}"
    fuzzy = [m.id for m in present.values() if m.fuzzy]
    assert not fuzzy, f"{code}: fuzzy entries are never used; review them: {fuzzy[:5]}"
    untranslated = [m.id for m in present.values() if not m.string or (isinstance(m.string, tuple) and not all(m.string))]
    assert not untranslated, f"{code}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_entries_have_every_form_of_the_language(code: str) -> None:
    catalogue = _read(po_path(code), locale=code)
    wrong = [
        (m.id, len(m.string)) for m in catalogue
        if m.id and m.pluralizable and len(m.string) != catalogue.num_plurals
    ]
    assert not wrong, f"{code} has {catalogue.num_plurals} plural forms: {wrong[:5]}"


def _names(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_of_their_sentence(code: str) -> None:
    problems = []
    for message in _read(po_path(code), locale=code):
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            wanted = _names(message.id[0]) | _names(message.id[1])
            for form in message.string:
                # a form may leave out {count} (one form: "a hand"), never add a name
                if not _names(form) <= wanted or not (_names(message.id[1]) - {"count"}) <= _names(form):
                    problems.append((message.id[0], form))
        elif _names(message.string) != _names(message.id):
            problems.append((message.id, message.string))
    assert not problems, f"{code}: placeholders differ from the English sentence: {problems[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_fill_without_error(code: str) -> None:
    """Every translation formats with its sentence's parameters (no stray brace)."""
    failing = []
    for message in _read(po_path(code), locale=code):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        params = {name: "x" for text in ids for name in _names(text) if name}
        if not params:
            continue
        for form in forms:
            try:
                form.format(**params)
            except (KeyError, IndexError, ValueError) as exc:
                failing.append((form, repr(exc)))
    assert not failing, f"{code}: {failing[:5]}"
