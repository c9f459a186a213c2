"""Issue 23, item 4: no PDF page holds only a note or a footer, and a summary that runs to a
second page fills at least half of its first (it never breaks early and leaves it mostly
blank). Read back with pdftotext, for nights of every length up to three pages, portrait and
landscape, the summary and a player statement."""
from __future__ import annotations

import io
import subprocess
from html import unescape

import pytest
from pypdf import PdfReader

from ledger.statements import render_player_statement, render_session_summary
from test_statement_layout import WORD
from test_statement_scripts import _report

pytestmark = [pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
), pytest.mark.slow]

FOOTER_BAND = 40.0  # points above the page's bottom edge where the running footer sits
NOTES = (  # the notes beside a hands table: words that alone do not make a page
    "Amounts are each player’s net for the hand. Struck-through VOID hands are shown for the record and not "
    "counted; REDEAL marks a redealt hand.",
    "Amounts are what you received (+) or paid (-) in the hand; struck-through VOID hands are shown for the "
    "record and do not count.",
)
NOTE_WORDS = {w for note in NOTES for w in note.split()}
FOUR = ("Dee", "Marcus", "Rosa", "Tomás")
EIGHT = FOUR + ("Ed", "Bo", "Ana", "Lek")


def pages(pdf: bytes) -> list[tuple[float, list[tuple[float, str]]]]:
    """Each page's height and its words above the footer, as ``(yMax, word)`` (y grows downwards)."""
    out = []
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages, 1):
        height = float(page.mediabox.height)
        boxes = subprocess.run(["pdftotext", "-bbox", "-f", str(number), "-l", str(number), "-", "-"],
                               input=pdf, capture_output=True, check=True).stdout.decode()
        words = [(float(y1), unescape(w)) for _x0, _y0, _x1, y1, w in WORD.findall(boxes)]
        out.append((height, [(y, w) for y, w in words if y < height - FOOTER_BAND]))
    return out


def check_pages(pdf: bytes, what: str) -> int:
    shown = pages(pdf)
    for number, (_height, words) in enumerate(shown, 1):
        assert words, f"{what}: page {number} holds only its footer"
        assert {w for _y, w in words} - NOTE_WORDS, f"{what}: page {number} holds only a note"
    if len(shown) > 1:
        height, words = shown[0]
        lowest = max(y for y, _w in words)
        assert lowest >= height / 2, f"{what}: the first page is mostly blank (its text ends at {lowest / height:.0%})"
    return len(shown)


@pytest.mark.parametrize("players", [FOUR, EIGHT], ids=["portrait", "landscape"])
def test_no_summary_page_is_only_a_note_and_the_first_is_never_mostly_blank(players: tuple[str, ...]) -> None:
    most = 0
    for hands in range(0, 90):
        count = check_pages(render_session_summary(_report(players, hands)), f"{hands} hands")
        most = max(most, count)
        if count >= 3:
            break
    assert most >= 3  # the lengths tried reach three pages


def test_no_statement_page_is_only_a_note() -> None:
    most = 0
    for hands in range(0, 120, 2):
        report = _report(FOUR, hands)
        most = max(most, check_pages(render_player_statement(report, 1), f"{hands} hands"))
        if most >= 3:
            break
    assert most >= 2
