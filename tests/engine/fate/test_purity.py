"""The FATE package stays pure: no framework imports, no print, no global random."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.systems.fate as fate

FORBIDDEN = {"aiogram", "sqlalchemy", "sqlmodel", "apscheduler", "asyncpg", "aiohttp", "random"}
FILES = sorted(Path(fate.__file__).parent.glob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_module_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            roots = {(node.module or "").split(".")[0]}
        else:
            roots = set()
        assert not roots & FORBIDDEN, f"{path.name} imports {roots & FORBIDDEN}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "print", f"print() in {path.name}"


def test_public_api_is_documented() -> None:
    assert fate.__doc__
    for name in fate.__all__:
        obj = getattr(fate, name)
        if callable(obj) and getattr(obj, "__module__", "").startswith("engine.systems.fate"):
            assert obj.__doc__, f"{name} has no docstring"
