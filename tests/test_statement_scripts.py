"""Any script, any size: names in every vendored script come back out of the PDFs with the
English words around them, an emoji prints as a visible stand-in, times are local with the
zone named, and the night pack lays out at the largest night the rules allow."""
from __future__ import annotations

import io
import os
import subprocess
import unicodedata
from datetime import datetime, timezone

import pytest
from pypdf import PdfReader

from ledger.night.report import HandLine, SessionReport
from ledger.statements import cjk, render_night_pack, render_player_statement, render_session_summary
from ledger.transfers import Transfer

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)

NAMES = {
    "Latin": "Zoë Łukasz",
    "Greek": "Ζωή Παπαδοπούλου",
    "Cyrillic": "Дмитрий Иванов",
    "Lao": "ສົມພອນ",
    "Malayalam": "മനു",
    "Thai": "สมชาย",
    "Devanagari": "प्रिया शर्मा",
    "Hebrew": "שרה כהן",
    "Arabic": "محمد علي",
    "CJK": "山田太郎",
}
BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def extracted(pdf: bytes) -> str:
    """pdftotext's text, compatibility-normalised (Arabic presentation forms become letters)
    and without the invisible direction marks it adds around right-to-left runs."""
    raw = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return unicodedata.normalize("NFKC", raw).translate(BIDI_CONTROLS).replace("\u00a0", " ")


def _report(players: tuple[str, ...], hands: int, *, payments: int = 0, tz: str = "UTC",
            name: str = "Script night") -> SessionReport:
    n = len(players)
    lines, net = [], dict.fromkeys(players, 0)
    for number in range(1, hands + 1):
        winner = players[(number * 3 + number // 7) % n]
        amounts = {p: -25 for p in players}
        amounts[winner] = 25 * (n - 1)
        for p, a in amounts.items():
            net[p] += a
        lines.append(HandLine(number, players[(number - 1) % n], f"{winner} knocked and won", (winner,), amounts))
    paid = []
    left = dict(net)
    for i in range(payments):
        payer = min(left, key=lambda p: left[p])
        payee = max(left, key=lambda p: left[p])
        if left[payer] >= 0:
            break
        paid.append(Transfer(payer, payee, 1))
        left[payer] += 1
        left[payee] -= 1
    plan = []
    while any(left.values()):
        payer = min(left, key=lambda p: left[p])
        payee = max(left, key=lambda p: left[p])
        amount = min(-left[payer], left[payee])
        plan.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return SessionReport(
        name=name, currency="USD", stake_minor=25, preset="classic",
        created_at=datetime(2024, 11, 30, 2, 30, tzinfo=timezone.utc), players=players, hands=tuple(lines),
        net_minor=net, settlement=tuple(plan), payments=tuple(paid), timezone=tz,
    )


def test_names_in_every_script_come_back_with_the_words_around_them() -> None:
    players = tuple(NAMES.values())
    report = _report(players, len(players) * 2)
    pack = extracted(render_night_pack(report))
    lines = pack.splitlines()
    for script, name in NAMES.items():
        assert name in pack, script
        knocked = [line for line in lines if name in line and "knocked and won" in line]
        assert knocked, (script, "outcome words beside the name")
    for seat, name in enumerate(players, start=1):
        statement = extracted(render_player_statement(report, seat))
        assert statement.lstrip().startswith(name), name
        owes = [t for t in report.settlement if t.payer == name]
        for t in owes:
            assert f"You pay {t.payee} " in statement, (name, t)


# Names whose shaping reorders or ligates glyphs: a Malayalam vowel sign drawn before its
# consonant (ജോ, കെ), Devanagari conjuncts, Arabic ligatures (the word Muhammad is one glyph).
SHAPED_NAMES = ("ജോൺ", "മനു", "കെവിൻ", "ສົມພອນ", "สมชาย", "प्रिया शर्मा", "שרה כהן", "محمد علي")


def pypdf_text(pdf: bytes) -> str:
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return unicodedata.normalize("NFKC", raw).translate(BIDI_CONTROLS).replace("\u00a0", " ")


@pytest.mark.parametrize("seat", [None, 1, 7])
def test_shaped_names_come_back_exactly_where_they_are_printed(seat: int | None) -> None:
    """Every place a name is printed (tables, sentences, chart labels, page footers) gives the
    name back exactly, with the words after it, from pdftotext; pypdf finds it as often."""
    report = _report(SHAPED_NAMES, 16)
    pdf = render_night_pack(report) if seat is None else render_player_statement(report, seat)
    text, other = extracted(pdf), pypdf_text(pdf)
    lines = text.splitlines()
    for name in SHAPED_NAMES:
        assert any(line.strip() == f"{name} knocked and won" for line in lines), (name, seat)
        least = 3 if seat is None else 1  # the pack: hands table, sentences, chart, statements
        assert text.count(name) == other.count(name) >= least, (name, seat, text.count(name), other.count(name))
    if seat is not None:
        name = SHAPED_NAMES[seat - 1]
        assert text.lstrip().startswith(f"{name}\nPlayer statement") or text.lstrip().startswith(name)
        assert f"Tonk Ledger \u00b7 {name} \u00b7 Script night" in text  # the page footer


def test_a_word_set_in_several_fonts_draws_no_missing_glyph() -> None:
    """The summary's seat list joins "1." and a name with a no-break space, so one word holds
    two fonts; every glyph drawn must be a real glyph of its font (never .notdef, a box)."""
    from reportlab.pdfbase import pdfmetrics

    from ledger.statements.fonts import markup
    from ledger.statements.look import para, styles

    names = ("ജോൺ", "मनु", "محمد علي", "สมชาย", "ສົມພອນ", "שרה כהן")
    paragraph = para(" \u00b7 ".join(f"{i}.\u00a0{markup(n)}" for i, n in enumerate(names, 1)), styles(8).body)
    paragraph.wrap(500, 100)
    glyphs = [
        (frag.fontName, pdfmetrics.getFont(frag.fontName).face.charToGlyph.get(ord(c)))
        for line in paragraph.blPara.lines for frag in line.words for c in frag.text
    ]
    assert len(glyphs) > 30
    assert [g for g in glyphs if not g[1]] == []


def pdffonts(pdf: bytes) -> list[tuple[str, bool, bool]]:
    """(name, embedded, subset) of every font ``pdffonts`` lists."""
    out = subprocess.run(["pdffonts", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    rows = [line.split() for line in out.splitlines()[2:] if line.strip()]
    return [(row[0], row[-5] == "yes", row[-4] == "yes") for row in rows]


def test_chinese_and_japanese_names_print_in_an_embedded_noto_cjk_subset() -> None:
    players = ("王小明", "山田さくら", "Dee", "Rosa")
    report = _report(players, 8, name="周五 Tonk")
    pdf = render_night_pack(report, locale="zh_CN")
    text = extracted(pdf)
    lines = [line.strip() for line in text.splitlines()]
    for name in players:
        assert f"{name} knocked and won" in lines, name
    assert "周五 Tonk" in text
    if cjk.system_font() is None:
        reason = "no Noto Sans CJK on this system (apt-get install fonts-noto-cjk)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    listed = pdffonts(pdf)
    embedded = {name.split("+", 1)[-1].split("-")[0] for name, emb, sub in listed if emb and sub}
    assert {"NotoSansCJKsc", "NotoSansCJKjp"} <= embedded, listed  # Chinese forms, and the kana name's
    not_embedded = [name for name, emb, _ in listed if not emb and name != "Helvetica"]
    assert not_embedded == [], listed  # no CID font left for a viewer to supply


def test_embedded_cjk_fonts_are_cached_by_characters_and_dropped_when_idle() -> None:
    from reportlab.pdfbase import pdfmetrics

    if cjk.system_font() is None:
        pytest.skip("no Noto Sans CJK on this system")
    first = cjk.acquire("JP", "山田")
    assert first is not None and first.covers("山田") and not first.covers("花")
    again = cjk.acquire("JP", "田山")
    assert again == first  # the same characters: the same font
    cjk.release(first)
    assert first.name in pdfmetrics.getRegisteredFontNames()  # still in use once
    cjk.release(again)
    for i in range(cjk.KEEP + 2):
        cjk.release(cjk.acquire("JP", "山" + chr(0x4E00 + i)))
    assert first.name not in pdfmetrics.getRegisteredFontNames()
    assert f"{first.name}-Bold" not in pdfmetrics.getRegisteredFontNames()


def test_a_name_mixing_scripts_keeps_every_word() -> None:
    players = ("മനു knocked", "Dee", "Rosa")
    text = extracted(render_session_summary(_report(players, 6)))
    assert "മനു knocked" in text


def test_an_emoji_prints_as_a_visible_stand_in_never_a_blank() -> None:
    players = ("Dee \U0001F600", "Rosa", "Tomás")
    text = extracted(render_session_summary(_report(players, 6)))
    assert "Dee [grinning face]" in text


def test_times_are_local_with_the_zone_named() -> None:
    report = _report(("Dee", "Rosa"), 2, tz="America/New_York")
    text = " ".join(extracted(render_session_summary(report)).split())
    assert "November 29, 2024, 9:30 PM" in text and "America/New York" in text  # 02:30 UTC on the 30th
    utc = " ".join(extracted(render_session_summary(_report(("Dee", "Rosa"), 2))).split())
    assert "November 30, 2024, 2:30 AM UTC" in utc


@pytest.mark.slow
def test_stress_pack_at_eight_players_two_thousand_hands_five_hundred_payments_long_names() -> None:
    players = tuple(chr(ord("A") + i) * 74 + f"-seat{i + 1}" for i in range(8))
    assert all(len(p) == 80 for p in players)
    report = _report(players, 2000, payments=500, name="N" * 80)
    assert len(report.payments) == 500
    pdf = render_night_pack(report)
    reader = PdfReader(io.BytesIO(pdf))
    assert [item.title for item in reader.outline][0] == "Summary" and len(reader.outline) == 9
    text = "".join(extracted(pdf).split())
    for player in players:
        assert player in text
    assert "Netover2000countedhands" in text


def test_a_zone_name_that_cldr_brackets_is_bracketed_once() -> None:
    """CLDR's short Estonian name of America/Chicago is "(Ameerika Ühendriigid (Chicago))": the
    sentence brackets the zone already, so it reads "(America/Chicago, Ameerika Ühendriigid (Chicago))"."""
    from datetime import datetime, timezone

    from ledger.i18n import use_language
    from ledger.statements.look import when

    with use_language("et"):
        shown = when(datetime(2024, 11, 30, 2, 30, tzinfo=timezone.utc), "et_EE", "America/Chicago")
    assert shown.endswith("(America/Chicago, Ameerika Ühendriigid (Chicago))"), shown
