"""The bot never branches on a rule system's name: what differs between systems comes from the
registry (``bot/systems.py`` and the protocols of ``engine/systems/base.py``).

Every module of ``bot/`` and ``handlers/`` (the registry itself, the emulator and the sandbox
aside) is parsed; a comparison with a system id, a dict literal keyed by two or more system
ids or a ``match`` case on one is a branch that belongs in the system's own package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_IDS = frozenset({"fate", "lifegear", "cliche", "storyteller", "matter"})
EXEMPT = (
    ROOT / "bot" / "systems.py",
    ROOT / "bot" / "emulator",
    ROOT / "bot" / "sandbox",
)
COMPARISONS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def _modules() -> list[Path]:
    paths = sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "handlers").rglob("*.py"))
    return [p for p in paths if not any(p == e or e in p.parents for e in EXEMPT)]


def _names_system(node: ast.AST | None) -> bool:
    """A string constant equal to a system id, or a tuple/set/list/frozenset(...) holding one."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in SYSTEM_IDS
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_system(e) for e in node.elts)
    if isinstance(node, ast.Call) and node.args:
        return _names_system(node.args[0])  # frozenset({"fate", ...})
    return False


def _pattern_names_system(pattern: ast.pattern) -> bool:
    return any(isinstance(p, ast.MatchValue) and _names_system(p.value) for p in ast.walk(pattern))


def system_branches(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for each branch on a system id in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, (left, right) in zip(node.ops, pairwise(sides), strict=True):
                if isinstance(op, COMPARISONS) and (_names_system(left) or _names_system(right)):
                    yield node.lineno, "comparison with a system id"
        elif isinstance(node, ast.Dict):
            # two or more: a table per system (one key may be a word that is also a system
            # id: a cliché in a wizard's data, a Matter sheet's ``matter`` field)
            if sum(_names_system(k) for k in node.keys) >= 2:
                yield node.lineno, "dict keyed by system ids"
        elif isinstance(node, ast.match_case):
            if _pattern_names_system(node.pattern):
                yield node.pattern.lineno, "match case on a system id"


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('if system == "fate": pass', 1),
        ('ok = "matter" != game.system', 1),
        ('ok = system in ("cliche", "lifegear")', 1),
        ('ok = system not in {"storyteller"}', 1),
        ('ok = system in frozenset({"fate"})', 1),
        ('VIEWS = {"fate": 1, "matter": 2}', 1),
        ('match system:\n    case "fate":\n        pass\n    case _:\n        pass', 1),
        ('if kind == "aspect": pass', 0),
        ('spec = SYSTEMS["fate"]', 0),
        ('VIEWS = {"aspect": 1}', 0),
        ('VIEWS = {("fate", 1): 1, ("matter", 1): 2}', 1),
        ('update = {"matter": kept, "name": name}', 0),
    ],
)
def test_the_checker_finds_each_kind_of_branch(source: str, found: int) -> None:
    assert len(list(system_branches(source))) == found


def test_bot_and_handlers_do_not_branch_on_system_names() -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in _modules()
        for line, what in system_branches(path.read_text(encoding="utf-8"))
    ]
    assert not offences, f"{len(offences)} branches on a system name:\n" + "\n".join(offences)
