"""Every message the package builds exists in both locales with the fields the code passes."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import engine.systems.cliche as package
from engine.systems.cliche.messages import MESSAGES
from engine.text import has_message, template

PACKAGE_DIR = Path(package.__file__).parent
FORBIDDEN = ("aiogram", "sqlalchemy", "sqlmodel", "apscheduler", "asyncpg", "aiohttp", "random")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _msg_calls() -> list[tuple[str, str, set[str]]]:
    found = []
    for path in sorted(PACKAGE_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "msg"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                keywords = {k.arg for k in node.keywords if k.arg is not None}
                found.append((path.name, str(node.args[0].value), keywords))
    return found


def test_locales_agree_on_fields() -> None:
    for key, texts in MESSAGES.items():
        assert key.startswith("cliche.")
        assert _fields(texts["ru"]) == _fields(texts["en"]), key


@pytest.mark.parametrize(("module", "key", "params"), _msg_calls())
def test_every_msg_call_matches_its_template(module: str, key: str, params: set[str]) -> None:
    assert has_message(key), f"{module}: {key}"
    # the package's own messages, or the shared ones it uses (``cards.*``)
    ru = template(key, "ru")
    assert ru is not None and _fields(ru) == params, f"{module}: {key}"


def test_dynamic_keys_exist() -> None:
    for name in ("trivial", "professional", "heroic", "master", "joking"):
        assert has_message(f"cliche.target.{name}")
    for level in range(1, 7):
        assert has_message(f"cliche.reaction.{level}")


def test_package_stays_pure() -> None:
    for path in sorted(PACKAGE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "print", path.name
