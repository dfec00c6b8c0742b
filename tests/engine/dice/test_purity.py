"""House rules for the dice core: no frameworks, no global random, no print; frozen results."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import engine.dice
from engine.dice import ScriptedSource, parse, roll

DICE_DIR = Path(engine.dice.__file__).parent
FILES = [*sorted(DICE_DIR.glob("*.py")), DICE_DIR.parent / "verify.py"]
FORBIDDEN = {"aiogram", "sqlalchemy", "sqlmodel", "apscheduler", "asyncpg", "aiohttp", "random"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_framework_or_global_random(path: Path) -> None:
    allowed = {"random"} if path.name == "source.py" else set()
    assert not (_imports(path) & (FORBIDDEN - allowed))


@pytest.mark.parametrize("path", [p for p in FILES if p.name != "verify.py"], ids=lambda p: p.name)
def test_no_print(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        n for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
    ]  # fmt: skip
    assert not calls


def test_results_and_tree_are_frozen() -> None:
    result = roll("3d6kh2+1", ScriptedSource([1, 2, 3]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.total = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.dice[0].face = 6  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parse("2d6").root.count = 3  # type: ignore[union-attr, misc]
    assert isinstance(result.faces, tuple)
