"""Benchmark the PDFs by hand: `.venv/bin/python bench/bench_pdf.py [--hands 500] [--players 8]`.

Prints, for a night of ``--hands`` hands at ``--players`` players (plus some payments):
(1) the session summary and the whole night pack rendered from the report model, each beside a
bare reportlab table of the same rows (plain strings, one font, no styling) rendered in the same
run, with the ratio; (2) through the app (SQLite file): the first download of the pack and a
second download of the unchanged night (served from the version-keyed cache). Best of
``--repeat`` runs. Nothing here is asserted; tests never time anything.
"""
from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportlab.lib.pagesizes import A4, landscape  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table  # noqa: E402

from ledger.night.report import HandLine, SessionReport  # noqa: E402
from ledger.statements import render_night_pack, render_session_summary  # noqa: E402
from ledger.statements.fonts import ensure_fonts  # noqa: E402
from ledger.transfers import Transfer  # noqa: E402

NAMES = ("Dee", "Marcus", "Rosa", "Tomás", "Zoë", "Łukasz", "Priya", "Sam", "Ana", "Bo")


def night(players: tuple[str, ...], hands: int) -> SessionReport:
    n = len(players)
    lines, net = [], dict.fromkeys(players, 0)
    for number in range(1, hands + 1):
        winner = players[(number * 3 + number // 7) % n]
        amounts = {p: -25 for p in players}
        amounts[winner] = 25 * (n - 1)
        for p, a in amounts.items():
            net[p] += a
        lines.append(HandLine(number, players[(number - 1) % n], f"{winner} knocked with 4 and won", (winner,), amounts))
    left, plan = dict(net), []
    while any(left.values()):
        payer, payee = min(left, key=left.__getitem__), max(left, key=left.__getitem__)
        amount = min(-left[payer], left[payee])
        plan.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return SessionReport(name="Bench night", currency="USD", stake_minor=25, preset="classic",
                         created_at=datetime(2024, 11, 29, 21, 30, tzinfo=timezone.utc), players=players,
                         hands=tuple(lines), net_minor=net, settlement=tuple(plan))


def bare_table(report: SessionReport, copies: int = 1) -> bytes:
    """The same hand rows as a plain reportlab table: the floor any styled PDF stands on."""
    rows = [["#", "Dealer", "Outcome", *report.players]]
    rows += [[str(h.number), h.dealer, h.outcome_text, *(str(h.amounts_minor[p]) for p in report.players)]
             for h in report.hands]
    buffer = io.BytesIO()
    story = [Table(rows, repeatRows=1) for _ in range(copies)]
    SimpleDocTemplate(buffer, pagesize=landscape(A4) if len(report.players) > 5 else A4).build(story)
    return buffer.getvalue()


def best(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def through_the_app(hands: int, players: tuple[str, ...]) -> tuple[float, float]:
    from ledger import create_app
    from ledger.night import lifecycle as ledger_night
    from ledger.storage.db import get_session

    folder = tempfile.mkdtemp()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3", "SECRET_KEY": "bench"})
    client = app.test_client()
    body = {"name": "Bench night", "currency": "USD", "stake": 25,
            "ruleset": {"preset": "classic", "toggles": {"max_players": 8}}, "players": list(players),
            "first_dealer": players[0]}
    created = client.post("/api/v1/sessions", json=body).get_json()
    with app.app_context():
        db = get_session()
        game = ledger_night.find_night(db, created["id"])
        for i in range(hands):
            winner = players[(i * 3 + i // 7) % len(players)]
            ledger_night.record_hand(db, game, ledger_night.Submission({"kind": "discard_out", "winner": winner}, None))
    url = f"/api/v1/sessions/{created['id']}/statements.pdf"
    headers = {"Authorization": f"Bearer {created['token']}"}
    start = time.perf_counter()
    first = client.get(url, headers=headers)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    second = client.get(url, headers=headers)
    warm = time.perf_counter() - start
    assert first.status_code == second.status_code == 200 and first.data == second.data
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    players = NAMES[: args.players]
    report = night(players, args.hands)
    ensure_fonts()
    render_session_summary(report)  # warm up: font loading, first-use caches
    bare = best(lambda: bare_table(report), args.repeat)
    summary = best(lambda: render_session_summary(report), args.repeat)
    bare_pack = best(lambda: bare_table(report, 1 + len(players)), args.repeat)
    pack = best(lambda: render_night_pack(report), args.repeat)
    print(f"{args.hands} hands x {len(players)} players (best of {args.repeat})")
    print(f"  bare reportlab table, same rows : {bare * 1000:7.0f} ms")
    print(f"  session summary                 : {summary * 1000:7.0f} ms  ({summary / bare:.1f}x bare)")
    print(f"  bare tables x {1 + len(players)} (pack's rows) : {bare_pack * 1000:7.0f} ms")
    print(f"  night pack (summary + {len(players)} statements): {pack * 1000:7.0f} ms  ({pack / bare_pack:.1f}x bare)")
    cold, warm = through_the_app(args.hands, players)
    print(f"  pack download via the app, first: {cold * 1000:7.0f} ms; unchanged night again: {warm * 1000:.1f} ms (cache)")


if __name__ == "__main__":
    main()
