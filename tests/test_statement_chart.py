"""Running-balance charts read back from the PDF: every series is named, and no two words
printed on the chart overlap (labels, axis figures, the axis title), at 8 players with direct
labels, at the 40 members of a club's season as small multiples over several pages, and on a
player's statement."""
from __future__ import annotations

import re
import subprocess
from html import unescape
from itertools import combinations

import pytest
from reportlab.lib.pagesizes import A4, landscape

from ledger.statements import fonts
from ledger.statements.chart import player_chart, table_chart
from ledger.statements.look import Money, build, frame_width

pytestmark = pytest.mark.skipif(
    subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0, reason="needs pdftotext"
)

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
PAGE = re.compile(r"<page .*?</page>", re.S)
MONEY = Money("USD", "en_US")


def pages_of_words(pdf: bytes) -> list[list[tuple[float, float, float, float, str]]]:
    out = subprocess.run(["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return [
        [(float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in WORD.findall(page)]
        for page in PAGE.findall(out.decode())
    ]


def overlaps(words: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than a hair."""
    hair = 0.3
    return [
        (a[4], b[4]) for a, b in combinations(words, 2)
        if min(a[2], b[2]) - max(a[0], b[0]) > hair and min(a[3], b[3]) - max(a[1], b[1]) > hair
    ]


def text_of(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def walk(players: list[str], hands: int, step: int = 25) -> dict[str, list[tuple[int, int]]]:
    """Running balances: at each hand one player wins what the others pay."""
    n = len(players)
    balance = dict.fromkeys(players, 0)
    series = {p: [(0, 0)] for p in players}
    for number in range(1, hands + 1):
        winner = players[(number * 7 + number // 5) % n]
        for p in players:
            balance[p] += step * (n - 1) if p == winner else -step
            series[p].append((number, balance[p]))
    return series


def render(players: list[str], chart, size=A4) -> bytes:  # type: ignore[no-untyped-def]
    with fonts.document("en_US", players):
        flowable = chart(frame_width(size))
        return build([flowable], {"chart": size}, title="Chart", subject="chart", locale="en_US")


MEMBERS = [f"Member {i:02d}" for i in range(1, 33)] + [
    "ജോൺ", "山田さくら", "שרה כהן", "محمد علي", "Zoë Łukasz", "Дмитрий Иванов", "สมชาย", "प्रिया शर्मा",
]


@pytest.mark.parametrize("size", [A4, landscape(A4)], ids=["portrait", "landscape"])
def test_forty_members_as_small_multiples_name_everyone_and_nothing_overlaps(size: tuple[float, float]) -> None:
    assert len(MEMBERS) == 40
    series = walk(MEMBERS, 300)
    pdf = render(MEMBERS, lambda width: table_chart(MEMBERS, series, MONEY, width), size)
    text = text_of(pdf)
    for member in MEMBERS:
        assert member in text, member
        assert MONEY(series[member][-1][1]) in text
    pages = pages_of_words(pdf)
    assert len(pages) >= 2  # the small multiples continue on the next page
    for words in pages:
        assert overlaps(words) == []


def test_small_multiples_clip_a_long_name_to_its_panel() -> None:
    members = [*MEMBERS[:39], "Bartholomew Fitzgerald-Montgomery the Third of Little Snoring"]
    series = walk(members, 50)
    pdf = render(members, lambda width: table_chart(members, series, MONEY, width))
    text = " ".join(text_of(pdf).split())
    assert "Bartholomew" in text and "\u2026" in text and "Little Snoring" not in text
    for words in pages_of_words(pdf):
        assert overlaps(words) == []


def test_eight_players_keep_direct_labels_that_never_overlap() -> None:
    players = ["Marcus", "Dee", "Tomás", "Zoë", "ജോൺ", "山田さくら", "שרה כהן", "Rosa"]
    series = walk(players, 40)
    for p in players[:4]:  # four lines ending on the same balance
        series[p][-1] = (40, 0)
    pdf = render(players, lambda width: table_chart(players, series, MONEY, width))
    pages = pages_of_words(pdf)
    assert len(pages) == 1
    text = text_of(pdf)
    for player in players:
        assert player in text
    assert "Hand" in text
    assert overlaps(pages[0]) == []


@pytest.mark.parametrize("end", ["top", "bottom"])
def test_a_players_chart_label_and_the_rest_of_the_table_never_overlap(end: str) -> None:
    players = ["Marcus", "Dee", "Tomás", "Zoë"]
    series = walk(players, 40)
    top = max(y for pts in series.values() for _, y in pts)
    low = min(y for pts in series.values() for _, y in pts)
    series["Dee"][-1] = (40, top if end == "top" else low)
    pdf = render(players, lambda width: player_chart(players, series, "Dee", MONEY, width))
    text = text_of(pdf)
    assert "Dee" in text and "rest of the table" in text
    assert overlaps(pages_of_words(pdf)[0]) == []
