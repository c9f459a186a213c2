"""Layout rules of the statements, read back from the PDFs: column headings break between
words or are abbreviated, never split inside a word; a totals row never stands alone on a
page; file names are safe in any script (RFC 6266)."""
from __future__ import annotations

import dataclasses
import io
import re
import subprocess
from html import unescape
from urllib.parse import quote, unquote

import pytest
from pypdf import PdfReader

from ledger.statements.downloads import content_disposition
from ledger.night.report import HandLine, SessionReport
from ledger.statements import file_name, render_player_statement, render_session_summary
from test_statement_scripts import _report

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
ELLIPSIS = "\u2026"


def first_page_words(pdf: bytes, page: int) -> list[tuple[float, float, str]]:
    """(yMin, yMax, word) of the words on ``page`` (1-based)."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), "-", "-"],
                         input=pdf, capture_output=True, check=True).stdout.decode()
    return [(float(b), float(d), unescape(w)) for _a, b, _c, d, w in WORD.findall(out)]


def heading_words(pdf: bytes) -> list[str]:
    """The words of the hands table's heading row, on the page where it first appears: from
    below the "Hands" title and its note down to the "Dealer" heading (headings sit on the row's bottom)."""
    reader = PdfReader(io.BytesIO(pdf))
    page = next(i for i, p in enumerate(reader.pages, 1) if "Dealer" in p.extract_text())
    words = first_page_words(pdf, page)
    dealer = next(w for w in words if w[2] == "Dealer")
    title = max((w for w in words if w[2] == "Hands" and w[1] < dealer[0]), key=lambda w: w[1])
    # the table's note sits between the title and the table, its last word "hand."
    note = max((w for w in words if w[2] == "hand." and title[1] < w[0] < dealer[0]), key=lambda w: w[1])
    return [w for y0, y1, w in words if y0 > note[1] and y1 <= dealer[1] + 0.5]


@pytest.mark.parametrize("players", [
    tuple(chr(ord("A") + i) * 34 + f"-seat{i + 1}" for i in range(8)),  # one long word each
    ("Bartholomew Fitzgerald-Montgomery the Third", "Maximiliana Oberhuber-Kleinschmidt", "Dee",
     "Rosa", "Tomás", "Zoë Łukasz", "ജോൺ കെവിൻ മനു", "Konstantinopolitanischer Dudelsackpfeifer"),
])
def test_column_headings_break_between_words_or_abbreviate_never_inside_a_word(players: tuple[str, ...]) -> None:
    pdf = render_session_summary(_report(players, 12))
    headings = heading_words(pdf)
    assert {"#", "Dealer", "Outcome", "Winner(s)"} <= set(headings)
    whole = {w for p in players for w in p.split()}
    for word in set(headings) - {"#", "Dealer", "Outcome", "Winner(s)"}:
        if word.endswith(ELLIPSIS):  # abbreviated: the start of one of the name's words
            assert any(w.startswith(word[:-1]) for w in whole), word
        else:
            assert word in whole, word  # never a piece of a word
    shown = " ".join(headings)
    for player in players:
        first = player.split()[0]
        assert first in shown or any(h.endswith(ELLIPSIS) and first.startswith(h[:-1]) for h in headings)


def _pages(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages]


PLAYERS = ("Marcus", "Dee", "Rosa", "Tomás")


def _square_night(hands: int) -> SessionReport:
    """``hands`` square hands: everything but the hands table is the same at any count, so
    adding a hand moves only the table's end."""
    lines = tuple(HandLine(n, PLAYERS[(n - 1) % 4], "A square hand", (), dict.fromkeys(PLAYERS, 0))
                  for n in range(1, hands + 1))
    return dataclasses.replace(_report(PLAYERS, 2), hands=lines, net_minor=dict.fromkeys(PLAYERS, 0),
                               settlement=(), payments=())


def _page_breaks(page_of, low: int, high: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Every hand count in ``(low, high]`` at which ``page_of`` (non-decreasing) first rises."""
    seen: dict[int, int] = {}

    def page(n: int) -> int:
        if n not in seen:
            seen[n] = page_of(n)
        return seen[n]

    found: list[int] = []

    def search(lo: int, hi: int) -> None:
        if page(lo) == page(hi):
            return
        if hi - lo == 1:
            found.append(hi)
            return
        middle = (lo + hi) // 2
        search(lo, middle)
        search(middle, hi)

    search(low, high)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("document", ["summary", "statement"])
def test_the_totals_row_never_stands_alone_on_a_page(document: str) -> None:
    """At every hand count where the totals row first lands on a new page (the hands before
    filling the page before), the last hand goes over with it."""
    totals = "Net over" if document == "summary" else "Final net"
    pages: dict[int, list[str]] = {}

    def render(hands: int) -> list[str]:
        if hands not in pages:
            report = _square_night(hands)
            pdf = render_session_summary(report) if document == "summary" else render_player_statement(report, 1)
            pages[hands] = _pages(pdf)
        return pages[hands]

    def totals_page(hands: int) -> int:
        return max(i for i, text in enumerate(render(hands)) if totals in text)

    breaks = _page_breaks(totals_page, 20, 100)
    assert breaks  # the table's end crosses at least one page
    for hands in breaks:
        last = f"{hands} {PLAYERS[(hands - 1) % 4]} A square hand" if document == "summary" else f"{hands} A square hand"
        assert last in render(hands)[totals_page(hands)], (document, hands)


@pytest.mark.parametrize("name", [
    "Friday / Tonk: \"big\" night?", "Ночь у Ди", "ליל שישי", "東京 Tonk 夜", "Tab\there\r\nSet-Cookie: x=1",
])
def test_file_names_are_safe_in_any_script_and_sent_per_rfc_6266(name: str) -> None:
    report = dataclasses.replace(_report(("Dee", "Rosa"), 2, tz="America/New_York"), name=name)
    pdf_name = file_name(report)
    assert pdf_name.endswith("-2024-11-29.pdf")  # the night's local date (02:30 UTC on the 30th)
    assert not set(pdf_name) & set('/\\:*?"<>|\t\r\n')
    disposition = content_disposition(pdf_name)
    assert "\r" not in disposition and "\n" not in disposition
    fallback, exact = re.fullmatch(r'attachment; filename="([ -~]+)"; filename\*=UTF-8\'\'(\S+)', disposition).groups()
    assert fallback.endswith(".pdf") and '"' not in fallback
    assert unquote(exact) == pdf_name and quote(pdf_name, safe="") == exact
    statement = file_name(report, "Dee")
    assert statement.endswith("-2024-11-29-Dee.pdf")


def test_file_names_keep_the_night_name_in_its_own_script() -> None:
    report = dataclasses.replace(_report(("Dee", "Rosa"), 2), name="ליל שישי")
    assert file_name(report) == "ליל שישי-2024-11-30.pdf"
    assert file_name(report, "Rosa") == "ליל שישי-2024-11-30-Rosa.pdf"
    assert file_name(report, pack=True) == "ליל שישי-2024-11-30-pack.pdf"


# the fallback keeps what has an ASCII spelling, no stray dashes, and where letters of another
# script were left out, six hex characters of the whole name's hash (so that fallbacks never collide)
@pytest.mark.parametrize(("name", "player", "fallback"), [
    ("ຄືນວັນສຸກ", None, r"tonk-2024-11-30-[0-9a-f]{6}\.pdf"),
    ("ຄືນວັນສຸກ", "ສົມ", r"tonk-2024-11-30-[0-9a-f]{6}\.pdf"),
    ("വെള്ളിയാഴ്ച രാത്രി", "Dee", r"2024-11-30-Dee-[0-9a-f]{6}\.pdf"),
    ("東京 Tonk 夜", None, r"Tonk-2024-11-30-[0-9a-f]{6}\.pdf"),
    ("İsmail Şık «Gece»", None, r"Ismail Sik Gece-2024-11-30\.pdf"),
])
def test_the_ascii_file_name_of_a_name_in_another_script_has_no_stray_dashes(
    name: str, player: str | None, fallback: str
) -> None:
    report = dataclasses.replace(_report(("Dee", "ສົມ"), 2), name=name)
    disposition = content_disposition(file_name(report, player))
    assert re.fullmatch(fallback, re.match(r'attachment; filename="([ -~]+)";', disposition).group(1))


def test_no_two_files_of_a_night_share_an_ascii_file_name() -> None:
    """A phone that reads only ``filename`` keeps the summary, the pack and every statement side
    by side, whatever script the night's and players' names are in."""
    report = dataclasses.replace(_report(("Dee", "ສົມ", "ഉണ്ണി", "دانيال"), 2), name="ຄືນວັນສຸກ")
    names = [file_name(report), file_name(report, pack=True)] + [file_name(report, p) for p in report.players]
    fallbacks = [re.match(r'attachment; filename="([ -~]+)";', content_disposition(n)).group(1) for n in names]
    assert len(set(fallbacks)) == len(fallbacks), fallbacks
