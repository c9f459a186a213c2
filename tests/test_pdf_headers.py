"""Table headings in the PDFs wrap between words, never inside one, in every script, and every
font in the files is embedded (no stray Helvetica).

The tester's report: a Turkish player statement set "Ödenen veya alınan" as "Ödene / n veya /
alınan" and the club summary "Yakaland / ı"; in Malayalam "നൽകിയതോ ലഭിച്ചതോ" and the season
statement's "ഇതുവരെയുള്ള ആകെ" showed missing-glyph boxes where a shaped word was cut; and
``pdffonts`` listed a non-embedded Helvetica.
"""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import regex

from ledger.i18n import gettext, use_language
from ledger.statements.fonts import drawn, ensure_fonts
from ledger.statements.heading import FLOOR, heading_lines
from ledger.statements.season import render_club_summary, render_season_statement
from test_pdf_languages import NAMES, bearer, flat, make_night, pdf_text, season

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)

# what a cut shaped word reads back as: private-use codes with no text, or the replacement character
_BROKEN = regex.compile(r"[\uE000-\uF8FF\U000F0000-\U0010FFFD\uFFFD]")


def catalogue(lang: str, source: str) -> str:
    with use_language(lang):
        return gettext(source)


def tokens(pdf: bytes) -> list[str]:
    return pdf_text(pdf).split()


def not_embedded(pdf: bytes, tmp_path: Path) -> list[str]:
    """``pdffonts``'s lines for fonts the file does not embed."""
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    listed = subprocess.run(["pdffonts", str(path)], capture_output=True, check=True).stdout.decode()
    lines = listed.splitlines()[2:]
    assert lines, listed
    return [line for line in lines if line.split()[-5] != "yes"]


def statement(client: Any, lang: str) -> bytes:
    night = make_night(client)
    response = client.get(f"/api/v1/sessions/{night['id']}/statements/1.pdf?lang={lang}",
                          headers=bearer(night["token"]))
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return response.data


def test_a_turkish_statements_headings_keep_their_words_whole(client: Any) -> None:
    heading = catalogue("tr", "Paid or received")
    assert heading == "Ödenen veya alınan"  # the shipped catalogue's words, which the tester saw cut
    words = tokens(statement(client, "tr"))
    for word in heading.split():
        assert word in words, (word, words[:80])
    assert "Ödene" not in words


def test_a_turkish_club_summarys_narrow_heading_shrinks_rather_than_breaking() -> None:
    heading = catalogue("tr", "Caught")
    assert heading == "Yakalandı"
    words = tokens(render_club_summary(season(), language="tr"))
    assert heading in words and "Yakaland" not in words and "ı" not in words


@pytest.mark.parametrize("source", ["Paid or received", "Running balance"])
def test_a_malayalam_statements_headings_read_back_as_the_catalogues_sentence(client: Any, source: str) -> None:
    heading = catalogue("ml", source)
    assert heading != source and not heading.isascii()
    text = pdf_text(statement(client, "ml"))
    assert heading in flat(text)
    assert _BROKEN.findall(text) == []


def test_a_malayalam_season_statements_headings_read_back_whole() -> None:
    text = pdf_text(render_season_statement(season(), NAMES[0], language="ml"))
    for source in ("Running total", "Owed after", "Result"):
        assert catalogue("ml", source) in flat(text), source
    assert _BROKEN.findall(text) == []


@pytest.mark.parametrize("lang", ["tr", "ml", "en"])
def test_every_font_of_the_statements_and_club_pdfs_is_embedded(client: Any, lang: str, tmp_path: Path) -> None:
    assert not_embedded(statement(client, lang), tmp_path) == []
    assert not_embedded(render_club_summary(season(), language=lang), tmp_path) == []
    assert not_embedded(render_season_statement(season(), NAMES[0], language=lang), tmp_path) == []


# -- the line breaking itself --------------------------------------------------------------------------
def test_a_heading_breaks_between_words_at_its_own_size_when_each_word_fits() -> None:
    ensure_fonts()
    lines, size = heading_lines("Ödenen veya alınan", 40, 8.0)
    assert size == 8.0
    assert " ".join(lines) == "Ödenen veya alınan" and all(line.strip() == line for line in lines)
    assert "Ödenen" in lines[0].split()


def test_a_word_wider_than_its_column_shrinks_the_heading_instead_of_breaking() -> None:
    ensure_fonts()
    word = "പിടിക്കപ്പെട്ടു"
    at_seven = sum(width for _font, _piece, width in drawn(word, 7.0, bold=True))
    lines, size = heading_lines(word, at_seven + 1, 8.5)  # fits at 7 points, not at 8.5
    assert lines == [word] and 7.0 <= size < 8.5


def test_a_word_too_wide_even_at_the_floor_is_abbreviated_between_grapheme_clusters() -> None:
    ensure_fonts()
    word = "ഇതുവരെയുള്ളതുകകളുടെആകെത്തുക"
    lines, size = heading_lines(word + " ആകെ", 30, 8.5)
    assert size == FLOOR and lines[-1] == "ആകെ" and len(lines) == 2
    kept = lines[0]
    assert kept.endswith("\u2026") and word.startswith(kept[:-1]) and len(kept) > 2
    clusters = regex.findall(r"\X", word)
    assert len(kept) - 1 in {len("".join(clusters[:i])) for i in range(1, len(clusters))}  # never inside a cluster


def test_a_lao_heading_without_spaces_wraps_between_clusters() -> None:
    ensure_fonts()
    word = "ຍອດເງິນສະສົມ"
    lines, size = heading_lines(word, 25, 8.0)
    assert size == 8.0 and len(lines) > 1 and "".join(lines) == word
    clusters = regex.findall(r"\X", word)
    ends = {len("".join(clusters[:i])) for i in range(len(clusters) + 1)}
    assert all(sum(len(line) for line in lines[: i + 1]) in ends for i in range(len(lines)))
