"""Session summary PDF: content is real extractable text, names are escaped, layout adapts."""
from __future__ import annotations

import io
import re
from datetime import datetime, timezone

import pytest
from pypdf import PdfReader

from ledger.money import format_minor
from ledger.night.report import HandLine, SessionReport
from ledger.statements import render_session_summary as reexported
from ledger.statements.pack import render_session_summary
from ledger.transfers import Transfer

FOUR = ("Marcus", "Dee", "Tomás", 'A<B & "C"')
EIGHT = (
    "Marcus",
    "Dee",
    "Tomás",
    "Zoë",
    "Łukasz",
    "<img src=x onerror=alert(1)>",
    "Bartholomew Fitzgerald-Montgomery the Third",
    "Rosa",
)


def _settle(net: dict[str, int]) -> tuple[Transfer, ...]:
    """Greedy largest-debtor-to-largest-creditor plan that clears ``net``."""
    left = dict(net)
    out: list[Transfer] = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], p))
        payee = max(left, key=lambda p: (left[p], p))
        amount = min(-left[payer], left[payee])
        out.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return tuple(out)


def _hands(players: tuple[str, ...], count: int, stake: int) -> list[HandLine]:
    """Deterministic hands: winner takes stake (x2 on a tonk) from every other player."""
    hands: list[HandLine] = []
    n = len(players)
    for number in range(1, count + 1):
        dealer = players[(number - 1) % n]
        if number == 7:
            zero = dict.fromkeys(players, 0)
            hands.append(HandLine(number, dealer, "Misdeal, cards redealt", (), zero, redeal=True))
            continue
        winner = players[(number * 7 + number // 3) % n]
        mult = 2 if number % 5 == 0 else 1
        amounts = {p: -stake * mult for p in players}
        amounts[winner] = stake * mult * (n - 1)
        text = f"{winner} tonked" if mult == 2 else f"{winner} dropped and won with the low count"
        hands.append(
            HandLine(number, dealer, text, (winner,), amounts, voided=(number == 12))
        )
    return hands


def _report(
    players: tuple[str, ...] = FOUR,
    *,
    count: int = 30,
    currency: str = "USD",
    stake: int = 25,
    name: str = "Friday <b>Tonk</b> & Friends",
    adjust: bool = True,
    minimal: bool = True,
) -> SessionReport:
    hands = _hands(players, count, stake)
    if adjust:
        # One extra counted hand so the nets are not round stakes: Marcus -5.25, Dee +5.25.
        extra = dict.fromkeys(players, 0)
        extra[players[0]], extra[players[1]] = -525, 525
        caught = f"{players[1]} caught {players[0]}"
        hands.append(HandLine(count + 1, players[0], caught, (players[1],), extra))
    net = dict.fromkeys(players, 0)
    for hand in hands:
        if not hand.voided:
            for p, a in hand.amounts_minor.items():
                net[p] += a
    return SessionReport(
        name=name,
        currency=currency,
        stake_minor=stake,
        preset="house-classic",
        created_at=datetime(2024, 11, 29, 21, 30, tzinfo=timezone.utc),
        players=players,
        hands=tuple(hands),
        net_minor=net,
        settlement=_settle(net),
        settlement_minimal=minimal,
        rules_lines=("Tonk pays double", "Caught dropping pays the catcher <x2>"),
    )


def _text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    raw = "\n".join(page.extract_text() for page in reader.pages)
    return " ".join(raw.replace("\u00a0", " ").replace("\u202f", " ").split())


def _norm(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").replace("\u202f", " ").split())


def _assert_complete(report: SessionReport, text: str, locale: str = "en_US") -> None:
    for player in report.players:
        assert player in text, player
    tokens = set(re.findall(r"\d+", text))
    for hand in report.hands:
        assert str(hand.number) in tokens, hand.number
    for player in report.players:
        assert _norm(format_minor(report.net_minor[player], report.currency, locale)) in text
    for t in report.settlement:
        line = f"{t.payee} {_norm(format_minor(t.amount_minor, report.currency, locale))}"
        assert f"{t.payer} pays {line}" in text


def test_four_players_usd_has_all_content() -> None:
    report = _report()
    pdf = render_session_summary(report)
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata is not None and reader.metadata.title == report.name
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (595, 842)  # A4 portrait

    text = _text(pdf)
    _assert_complete(report, text)
    assert report.name in text  # markup-looking session name shown literally
    assert "$5.25" in text and "-$5.25" in text
    assert report.net_minor["Marcus"] < 0 and report.net_minor["Dee"] > 0
    assert "$0.25" in text and "USD" in text and "house-classic" in text
    assert "November 29, 2024" in text and "UTC" in text
    assert "Caught dropping pays the catcher <x2>" in text
    n = len(report.settlement)
    assert n >= 2 and f"{n} transfers, minimal" in text
    assert "VOID" in text and "REDEAL" in text
    assert "Net over 30 counted hands" in text  # 31 hands, one void
    assert reexported is render_session_summary


def test_void_hand_is_not_counted() -> None:
    report = _report(adjust=False)
    voided = next(h for h in report.hands if h.voided)
    bumped = dict(report.net_minor)
    for p, a in voided.amounts_minor.items():
        bumped[p] += a
    bad = SessionReport(**{**_fields(report), "net_minor": bumped, "settlement": _settle(bumped)})
    with pytest.raises(ValueError, match="disagrees"):
        render_session_summary(bad)


def _fields(report: SessionReport) -> dict[str, object]:
    return {name: getattr(report, name) for name in SessionReport.__slots__}


def test_jpy_has_no_minor_digits() -> None:
    report = _report(currency="JPY", stake=100, name="円 night")
    pdf = render_session_summary(report)
    assert pdf.startswith(b"%PDF")
    text = _text(pdf)
    _assert_complete(report, text)
    assert "JPY" in text and _norm(format_minor(100, "JPY")) in text
    assert "¥100" in text and "¥525" in text and "¥5.25" not in text


def test_eight_players_go_landscape_with_unicode_and_hostile_names() -> None:
    report = _report(EIGHT, count=40, minimal=False, name='<img src=x onerror=alert(1)> & "night"')
    pdf = render_session_summary(report)
    assert pdf.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(pdf))
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert width > height  # landscape
    assert reader.metadata is not None and reader.metadata.title == report.name
    text = _text(pdf)
    _assert_complete(report, text)
    assert "Zoë" in text and "Łukasz" in text and "Tomás" in text
    assert f"{len(report.settlement)} transfers (heuristic)" in text


def test_other_locale_formats_money_and_date() -> None:
    report = _report(currency="EUR")
    text = _text(render_session_summary(report, locale="de_DE"))
    _assert_complete(report, text, "de_DE")
    assert "29. November 2024" in text


def test_names_beyond_dejavu_use_a_cid_fallback_and_still_extract() -> None:
    players = ("山田太郎", "김민준", "Łukasz", "Zoë")
    report = _report(players, currency="JPY", stake=100, name="東京 Tonk 夜")
    pdf = render_session_summary(report, locale="ja_JP")
    text = _text(pdf)
    _assert_complete(report, text, "ja_JP")
    assert "2024年11月29日" in text and report.name in text


def test_nothing_to_settle_and_no_hands() -> None:
    players = ("Marcus", "Dee")
    report = SessionReport(
        name="Quiet night",
        currency="USD",
        stake_minor=25,
        preset="house-classic",
        created_at=datetime(2024, 11, 29, 21, 30),  # naive: taken as UTC
        players=players,
        hands=(),
        net_minor=dict.fromkeys(players, 0),
        settlement=(),
    )
    text = _text(render_session_summary(report))
    assert "Nothing to settle" in text
    assert "No hands recorded" in text and "No counted hands yet" in text


def test_only_square_hands_still_render() -> None:
    report = _report(count=3, adjust=False)
    even = tuple(
        HandLine(h.number, h.dealer, "Redeal", (), {p: 0 for p in report.players}, redeal=True)
        for h in report.hands
    )
    zero = dict.fromkeys(report.players, 0)
    changes = {"hands": even, "net_minor": zero, "settlement": ()}
    square = SessionReport(**{**_fields(report), **changes})
    text = _text(render_session_summary(square))
    assert "Nothing to settle" in text and "$0.00" in text


def test_long_sessions_repeat_the_header_on_each_page() -> None:
    report = _report(count=120)
    reader = PdfReader(io.BytesIO(render_session_summary(report)))
    assert len(reader.pages) >= 3
    table_pages = [p.extract_text() for p in reader.pages[1:]]
    assert all("Outcome" in t and "Winner(s)" in t for t in table_pages)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"stake_minor": 0.25}, "stake_minor"),
        ({"players": ("Marcus", "Marcus", "Dee", "Zoë")}, "unique"),
        ({"settlement": ()}, "do not clear"),
    ],
)
def test_incoherent_reports_are_rejected(change: dict[str, object], message: str) -> None:
    bad = SessionReport(**{**_fields(_report()), **change})
    with pytest.raises(ValueError, match=message):
        render_session_summary(bad)


def test_float_hand_amount_is_rejected() -> None:
    report = _report(count=3, adjust=False)
    first = report.hands[0]
    amounts = {**first.amounts_minor, "Marcus": 0.5}
    floaty = HandLine(first.number, first.dealer, first.outcome_text, first.winners, amounts)
    bad = SessionReport(**{**_fields(report), "hands": (floaty, *report.hands[1:])})
    with pytest.raises(ValueError, match="int in minor units"):
        render_session_summary(bad)
