"""The house laid out by concept (issue 21 item 6): ``ledger/`` keeps the app factory, the command
line and a few shared modules beside its packages; every package says in one line what it is; the
import layers and the no-cycles rule are declared for import-linter (``make lint``, run by CI)."""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LEDGER = ROOT / "ledger"
SHARED = {"__init__.py", "app.py", "cli.py", "errors.py", "money.py", "names.py", "sentences.py", "transfers.py"}


def test_ledger_keeps_only_the_app_the_command_line_and_a_few_shared_modules() -> None:
    top = {p.name for p in LEDGER.glob("*.py")}
    assert top == SHARED


def test_every_package_says_what_it_is_in_one_line() -> None:
    packages = [p for p in LEDGER.rglob("__init__.py") if "translations" not in p.parts]
    assert len(packages) >= 12
    for init in packages:
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(ROOT)} has no docstring"
        first = doc.splitlines()[0]
        assert first.strip() and first.rstrip().endswith((".", ")", ":")), f"{init.relative_to(ROOT)}: {first!r}"


def test_the_layers_and_no_cycles_are_declared_for_import_linter() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    kinds = {contract["type"]: contract for contract in config["contracts"]}
    assert kinds["acyclic_siblings"]["ancestors"] == ["ledger"]
    layers = [layer.split(" : ") for layer in kinds["layers"]["layers"]]
    order = [name for layer in layers for name in layer]
    for upper, lower in [("ledger.web", "ledger.statements"), ("ledger.statements", "ledger.clubs"),
                         ("ledger.clubs", "ledger.night"), ("ledger.night", "ledger.storage"),
                         ("ledger.storage", "ledger.games"), ("ledger.games", "ledger.money")]:
        assert order.index(upper) < order.index(lower)
    every_game = {p.parent.name for p in (LEDGER / "games").glob("*/__init__.py")}
    assert {m.rsplit(".", 1)[1] for m in kinds["independence"]["modules"]} == every_game
