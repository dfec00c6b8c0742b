"""What an earlier migration defined, for a later one that replaces it and must restore it on
downgrade. Migration files are not a package (Alembic loads them by path), so neither is this
lookup: the file is loaded by path from the migrations folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from db.database import MIGRATIONS_DIR


def earlier_definition(filename: str, constant: str) -> str:
    """The SQL ``constant`` of the migration ``filename``, as ``CREATE OR REPLACE``: run again,
    it puts the earlier definition back over a later one."""
    path = MIGRATIONS_DIR / "versions" / filename
    spec = importlib.util.spec_from_file_location(f"migration_{Path(filename).stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    definition: str = getattr(module, constant)
    return definition.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)
