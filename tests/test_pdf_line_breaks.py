"""Scripts in PDFs (issue 23 item 7): Lao and Thai break between syllables, never inside one
("ຮັ / ບ"), in paragraphs, in narrow table cells and in narrow column headings: every line break
pdftotext reads back out of the PDF is one of ICU's line break opportunities."""
from __future__ import annotations

import subprocess
import unicodedata

import pytest
import regex
from reportlab.lib.units import mm
from reportlab.platypus import Table

from ledger.i18n import use_language
from ledger.statements import fonts, render_session_summary
from ledger.statements.breaks import boundaries, lines, segments
from ledger.statements.heading import Heading
from ledger.statements.look import Wrapped, build, reportlab_paragraph, styles, text
from ledger.statements.fonts import markup
from test_statement_scripts import _report

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)

LAO_NAME = "ສົມພອນວົງສະຫວັນພູມມະຈັນທະວີສັກ"  # 30 characters, no spaces
LAO_SENTENCE = ("ຂອບໃຈຫຼາຍໆສຳລັບການຫຼິ້ນໄພ່ໃນຄືນນີ້ພວກເຮົາຈະພົບກັນອີກໃນອາທິດໜ້າ "
                "ແລະຢ່າລືມຈ່າຍເງິນໃຫ້ໝູ່ທີ່ຊະນະກ່ອນກັບບ້ານ")
THAI_SENTENCE = "ขอบคุณมากสำหรับการเล่นไพ่คืนนี้แล้วพบกันใหม่สัปดาห์หน้าอย่าลืมจ่ายเงินให้เพื่อนที่ชนะ"
LAO_HEADING = "ຍອດລວມສຸດທິຂອງຄືນນີ້"
SPACELESS = regex.compile(r"[\p{Script=Thai}\p{Script=Lao}]+")


def pdftotext(pdf: bytes) -> list[str]:
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return [unicodedata.normalize("NFC", line) for line in out.splitlines()]


def breaks_of(whole: str, pieces: list[str]) -> list[int]:
    """Where in ``whole`` each of ``pieces`` (its lines, in order, spaces at the breaks dropped)
    after the first starts."""
    out, at = [], 0
    for i, piece in enumerate(pieces):
        found = whole.index(piece, at)
        assert whole[at:found].strip() == "", (whole[at:found], piece)
        if i:
            out.append(found)
        at = found + len(piece)
    assert whole[at:].strip() == ""
    return out


def test_icu_breaks_lao_and_thai_between_syllables() -> None:
    assert segments("ຮັບເງິນແລ້ວ") == ["ຮັບ", "ເງິນ", "ແລ້ວ"]
    assert "ຮັ" not in segments("ຮັບເງິນແລ້ວ")
    assert segments("ภาษาไทยง่าย") == ["ภาษา", "ไทย", "ง่าย"]
    assert segments("Best night ever") == ["Best ", "night ", "ever"]
    assert boundaries("😀ສະບາຍ")[0] == 0 and boundaries("😀ສະບາຍ")[-1] == len("😀ສະບາຍ")  # code points, not UTF-16
    # filling: every line ends at a break opportunity, none wider than the line unless one syllable is
    filled = lines(LAO_SENTENCE, 60, lambda s: 5.0 * len(s))
    assert len(filled) > 3 and all(5.0 * len(line) <= 60 for line in filled)
    assert set(breaks_of(LAO_SENTENCE, filled)) <= set(boundaries(LAO_SENTENCE))


def test_reportlab_alone_would_break_inside_a_syllable() -> None:
    """The reason for all this: a Paragraph of a long Lao word in a narrow cell, left to
    reportlab, is cut between characters that ICU keeps together."""
    fonts.ensure_fonts()
    paragraph = reportlab_paragraph(markup(LAO_NAME), styles(8.5).cell)
    paragraph.wrap(16 * mm, 500)
    cut = ["".join(frag.text for frag in line.words) for line in paragraph.blPara.lines]
    assert len(cut) > 1
    assert not set(breaks_of(LAO_NAME, cut)) <= set(boundaries(LAO_NAME))


def test_narrow_cells_headings_and_paragraphs_wrap_only_at_icu_breaks() -> None:
    fonts.ensure_fonts()
    st = styles(8.5)
    with use_language("lo", "lo_LA"):
        cells = [[Heading(LAO_HEADING, st.head)], [text(LAO_NAME, st.cell)], [text(LAO_SENTENCE, st.cell)],
                 [text(THAI_SENTENCE, st.cell_right)]]
        story = [Table(cells, colWidths=[16 * mm]), text(LAO_SENTENCE * 3, st.body)]
        assert all(isinstance(row[0], (Heading, Wrapped)) for row in cells)
        pdf = build(story, {"page": (120 * mm, 297 * mm)}, title="ICU", subject="line breaks", locale="lo_LA")
    got = [line.strip() for line in pdftotext(pdf)]
    checked = 0
    for whole in (LAO_HEADING, LAO_NAME, LAO_SENTENCE, THAI_SENTENCE, LAO_SENTENCE * 3):
        pieces = _lines_of(whole, got)
        assert len(pieces) > 1, (whole, pieces)  # it did wrap
        bad = set(breaks_of(whole, pieces)) - set(boundaries(whole))
        assert not bad, [(whole[:b], whole[b:]) for b in bad]
        checked += len(pieces)
    assert checked > 15


def _lines_of(whole: str, got: list[str]) -> list[str]:
    """The consecutive lines of ``got`` that together spell ``whole`` (spaces aside)."""
    target = whole.replace(" ", "")
    for start in range(len(got)):
        joined, end = "", start
        while end < len(got) and len(joined) < len(target):
            joined += got[end].replace(" ", "")
            end += 1
        if joined == target:
            return got[start:end]
    raise AssertionError(f"{whole[:12]}… is not in the PDF's text: {got}")


def test_a_lao_nights_summary_breaks_names_only_at_icu_breaks() -> None:
    """A real summary PDF in Lao with 30-character Lao names: every stretch of Lao that
    pdftotext reads (a name whole, or a line's part of it) starts and ends at a break."""
    players = (LAO_NAME, "ບຸນມີແສງອາທິດສີສຸວັນນະພູມໄຊ", "Dee", "Rosa")
    with use_language("lo", "lo_LA"):
        pdf = render_session_summary(_report(players, 12), locale="lo_LA")
    got = pdftotext(pdf)
    for name in players[:2]:
        marks = set(boundaries(name))
        pieces = {run for line in got for run in SPACELESS.findall(line) if run in name}
        assert name in pieces or len(pieces) > 1
        for run in pieces:
            start = name.index(run)
            assert start in marks and start + len(run) in marks, (name, run)
