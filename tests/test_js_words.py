"""The scripts' words (ledger/web/js_words.py): every page carries them in its language, a
counted sentence holds the form the catalogue gives for each plural category, and in the pseudo
language none of them is left in English."""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

import pytest
from babel import Locale

from i18n_text import english_left
from ledger import create_app
from ledger.i18n import LANGUAGES, PSEUDO, use_language
from ledger.web import js_words
import words_catalogues
from test_pseudo_pages import catalogue_template_is_current

SAMPLES = list(range(0, 230)) + [1_000, 1_000_000, 2_000_000]


@pytest.fixture
def counted_catalogues() -> Iterator[None]:
    yield from words_catalogues.installed()


def words_in(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="ui-words"[^>]*>(.*?)</script>', page, re.S)
    assert found, "the page carries no words for its scripts"
    return json.loads(found.group(1))


@pytest.mark.parametrize("code", words_catalogues.TRANSLATED)
def test_each_plural_category_holds_the_form_the_catalogue_gives(counted_catalogues: None, code: str) -> None:
    locale = Locale.parse(code)
    with use_language(code):
        words = js_words.ui_words()
        for key, make in js_words.COUNTED.items():
            forms = words[key]
            assert isinstance(forms, dict) and "other" in forms
            assert set(forms) == set(locale.plural_form.tags) | {"other"}, (code, key, forms)
            for n in SAMPLES:
                # what the phone picks (Intl.PluralRules, the same CLDR rules) is what the server writes
                assert forms[locale.plural_form(n)] == make(n), (code, key, n)
            assert all(form.startswith("[") for form in forms.values()), f"{key}: no test form in {forms}"


def test_the_forms_differ_where_the_language_counts_differently(counted_catalogues: None) -> None:
    with use_language("es"):
        assert js_words.ui_words()["points"] == {"one": "[0] {count} pts", "many": "[1] {count} pts",
                                                 "other": "[2] {count} pts"}
    with use_language("lo"):
        assert js_words.ui_words()["points"] == {"other": "[0] {count} pts"}
    with use_language("fil"):  # one: 1, 2, 3, 5, 7, 8, 10…; other: 4, 6, 9, 14…
        assert js_words.ui_words()["points"] == {"one": "[0] {count} pts", "other": "[1] {count} pts"}


def test_english_words_are_the_source_sentences() -> None:
    with use_language("en"):
        words = js_words.ui_words()
    assert words["hand_kept"] == "Hand {number} is kept on this phone and sent when the connection returns."
    assert words["points"] == {"one": "{count} pt", "other": "{count} pts"}
    assert words["preset_with_changes"] == {"one": "{preset}, with {count} house change",
                                           "other": "{preset}, with {count} house changes"}
    assert set(words) == set(js_words.SENTENCES) | set(js_words.COUNTED)


def test_in_the_pseudo_language_no_script_word_is_english(database_url: str) -> None:
    catalogue_template_is_current()
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "I18N_PSEUDO": True})
    try:
        page = app.test_client().get(f"/join?lang={PSEUDO}").get_data(as_text=True)
    finally:
        app.extensions["ledger.engine"].dispose()
    assert '<html lang="en"' in page and f'id="ui-words" data-lang="{PSEUDO}"' in page
    words = words_in(page)
    texts = [w for value in words.values() for w in (value.values() if isinstance(value, dict) else [value])]
    assert len(texts) >= len(js_words.SENTENCES) + len(js_words.COUNTED)
    left = [t for t in texts if english_left(f"<p>{re.sub(r'{[a-z_]+}', ' ', t)}</p>")]
    assert left == []
    assert all(t.startswith("⟦") for t in texts)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_page_carries_the_words_of_its_language(client: Any, code: str) -> None:
    page = client.get(f"/join?lang={code}").get_data(as_text=True)
    assert f'<html lang="{code}"' in page and f'id="ui-words" data-lang="{code}"' in page
    with use_language(code):
        assert words_in(page) == json.loads(json.dumps(js_words.ui_words()))
