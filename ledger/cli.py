"""Command line: ``tonk-ledger serve`` runs the app with waitress; ``tonk-ledger demo`` loads a
scripted night (default ``nights/night-01.json``) as a new session and prints its table link."""
from __future__ import annotations

import argparse
import gc
import json
import signal
import sys
from pathlib import Path
from typing import Any, Sequence

from ledger.statements import render_pool
from ledger.app import PROJECT_ROOT

DEFAULT_NIGHT = PROJECT_ROOT / "nights" / "night-01.json"


def load_night(app: Any, path: Path) -> tuple[str, str, int]:
    """Record the night file at ``path`` (RULES.md §8.1 hands plus a session header: name,
    currency, stake, ruleset, players, first_dealer; with ``"game": "tongits"`` a TONGITS.md
    §8.4 night file, with ``"game": "rummy13"`` a RUMMY13.md §8.5 one; without ``"game"``, the game of
    the file's preset when only one game has it, else Tonk) as a new session through the same service the API uses. Returns
    ``(session id, token, hands recorded)``.

    A Tong-its night file is replayed through the engine first
    (:func:`ledger.games.tongits.night_file.replay_night`: each hand from the pot and dealer the
    hands before it left, never the file's): a file whose figures disagree raises
    :class:`~ledger.games.tongits.night_file.NightFileMismatch` naming the first path, and
    nothing is stored; the ledger then keeps the pot itself, hand by hand.

    Raises :class:`ledger.games.tonk.HandError` if any hand is refused (nothing after it is stored).
    """
    from ledger.night import lifecycle as ledger_night
    from ledger.storage.db import get_session
    from ledger.games import DEFAULT_GAME, game, game_of_preset
    from ledger.games.tonk import RuleSet
    from ledger.games.tongits.night_file import replay_night

    data = json.loads(path.read_text(encoding="utf-8"))
    if "game" in data:
        chosen = game(data["game"])
    else:  # a file without "game": its preset decides when only one game has it (the shared rummy night's)
        ruleset = data.get("ruleset")
        preset = ruleset.get("preset") if isinstance(ruleset, dict) else None
        chosen = game_of_preset(preset) or game(None)
    if chosen.name == DEFAULT_GAME:
        rules: Any = RuleSet.from_spec(data.get("ruleset"))
    else:
        if chosen.name == "tongits":
            replay_night(data)  # trusts no figure of the file: refused before anything is stored
        rules = chosen.rules(data.get("ruleset"))
    with app.app_context():
        db = get_session()
        night, token = ledger_night.create_night(
            db,
            name=data["name"],
            currency=data["currency"],
            stake_minor=data["stake"],
            rules=rules,
            players=data["players"],
            first_dealer=data.get("first_dealer"),
            game=chosen.name,
        )
        for hand in data["hands"]:
            # the game's own parts too (a RUMMY13.md night's wild_rank); the ledger scores each hand itself
            ledger_night.record_hand(db, night, ledger_night.Submission.of_entry(hand, dealer=hand.get("dealer")))
        return night.id, token, len(data["hands"])


def _stop_on_signals() -> None:
    """SIGTERM (systemd, ``docker stop``) and SIGINT (Ctrl-C) stop ``serve`` in order: waitress
    ends its loop on the ``SystemExit`` raised here, then the PDF pool is shut down. Without
    this, SIGTERM ended the process at once and left its PDF worker and multiprocessing's
    resource tracker running. A second signal ends the process at once."""

    def stop(signum: int, _frame: Any) -> None:
        signal.signal(signum, signal.SIG_DFL)
        raise SystemExit(0)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tonk-ledger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the app (waitress) on the embedded SQLite database")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, so phones on the Wi-Fi can join)")
    serve.add_argument("--port", type=int, default=8000)
    demo = commands.add_parser("demo", help="load a scripted night as a new session")
    demo.add_argument("night", nargs="?", type=Path, default=DEFAULT_NIGHT)
    demo.add_argument("--base-url", default="http://127.0.0.1:8000")
    args = parser.parse_args(argv)

    from ledger import create_app

    app = create_app()
    if args.command == "serve":
        from waitress import serve as waitress_serve

        # what start-up built (the app, catalogues, fonts: ~150,000 objects) lives as long as the
        # process; frozen, the collector's full passes skip it instead of pausing every request
        # for ~0.1 s now and then (gunicorn does the same in gunicorn.conf.py)
        gc.freeze()
        print(f"Tonk Ledger on http://{args.host}:{args.port}/  (database: {app.config['DATABASE_URL']})")
        _stop_on_signals()
        try:
            waitress_serve(app, host=args.host, port=args.port, threads=8)
        finally:
            render_pool.shutdown_all()  # the PDF workers (and the resource tracker) end with the server
        return 0
    session_id, token, count = load_night(app, args.night)
    from ledger.access.roles import table_secrets

    base = args.base_url.rstrip("/")
    table = table_secrets(token, session_id)
    print(f"Loaded {count} hands as session {session_id}.")
    print(f"Host's link (this phone can correct, void, undo and close): {base}/join/{session_id}/{token}")
    print(f"Players' link (for the other phones): {base}/join/{session_id}/{table.player_token}")
    print(f"Table code: {table.table_code}   Recovery code (makes another phone the host): {table.recovery_code}")
    print(f"API token (host): {token}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
