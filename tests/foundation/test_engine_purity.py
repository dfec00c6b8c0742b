"""engine/ must stay pure: no framework, database, scheduler or network import anywhere in it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("aiogram", "sqlalchemy", "sqlmodel", "apscheduler", "asyncpg", "aiohttp")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_forbidden_import_statement_in_engine() -> None:
    offenders = [
        f"{path.relative_to(ENGINE.parent)}: {name}"
        for path in sorted(ENGINE.rglob("*.py"))
        for name in _imported_modules(path)
        if name.split(".")[0] in FORBIDDEN
    ]
    assert offenders == []


def test_importing_every_engine_module_loads_no_framework() -> None:
    # Catches indirect imports too: load all of engine/ in a clean interpreter.
    modules = [
        ".".join(p.relative_to(ENGINE.parent).with_suffix("").parts).removesuffix(".__init__")
        for p in sorted(ENGINE.rglob("*.py"))
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == ""
