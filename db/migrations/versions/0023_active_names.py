"""One active character per name in a game: ``characters.name_key`` (the name as names are
compared — case, ё/е and runs of spaces aside) and a unique index of it over active characters,
so /sheet, /r and the trackers reach every one and two simultaneous /npc cannot both write

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-04 19:10:00

The key is filled here by the fold the bot compares names by (``engine.common.name_key``, as
of this revision). Active characters of one game whose names already compare equal are renamed
first: the first made (the lowest id) keeps its name, each later one, in the order they were
made, gets « 2», « 3»… — the smallest number that gives a name no character of the game (of any
status) has. Two active «Громила» become «Громила» and «Громила 2» (as ``/npc`` suggests for a
taken name); a name too long for 64 characters with its number is cut before it. The sheet's
own name changes with the row's; versions and history stay as they were.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME_MAX = 64


def _fold(name: str) -> str:
    # engine.common.name_key as of this revision (a migration keeps its own copy)
    return " ".join(name.casefold().replace("ё", "е").split())


def _numbered(name: str, number: int) -> str:
    suffix = f" {number}"
    return name[: NAME_MAX - len(suffix)].rstrip() + suffix


def _renames(rows: Sequence[sa.Row[Any]]) -> dict[int, str]:
    """id → new name for the later of the active characters whose names compare equal."""
    taken: dict[int, set[str]] = {}
    for row in rows:
        taken.setdefault(row.game_id, set()).add(_fold(row.name))
    active: dict[int, set[str]] = {}
    renamed: dict[int, str] = {}
    for row in rows:  # by id: the first made keeps its name
        if row.status != "active":
            continue
        held = active.setdefault(row.game_id, set())
        key = _fold(row.name)
        if key in held:
            number = 2
            while _fold(_numbered(row.name, number)) in taken[row.game_id]:
                number += 1
            renamed[row.id] = _numbered(row.name, number)
            key = _fold(renamed[row.id])
            taken[row.game_id].add(key)
        held.add(key)
    return renamed


def upgrade() -> None:
    op.add_column("characters", sa.Column("name_key", sa.Text(), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(
        sa.text("SELECT id, game_id, name, status FROM characters ORDER BY id")
    ).all()
    renamed = _renames(rows)
    if renamed:
        bind.execute(
            sa.text(
                "UPDATE characters SET name = CAST(:name AS varchar), "
                "sheet = jsonb_set(sheet, '{name}', to_jsonb(CAST(:name AS text)), false) "
                "WHERE id = :id"
            ),
            [{"id": i, "name": name} for i, name in renamed.items()],
        )
    if rows:
        bind.execute(
            sa.text("UPDATE characters SET name_key = :key WHERE id = :id"),
            [{"id": r.id, "key": _fold(renamed.get(r.id, r.name))} for r in rows],
        )
    op.alter_column("characters", "name_key", nullable=False)
    op.create_index(
        "characters_active_name", "characters", ["game_id", "name_key"], unique=True,
        postgresql_where=sa.text("status = 'active'"),
    )  # fmt: skip


def downgrade() -> None:
    op.drop_index("characters_active_name", table_name="characters")
    op.drop_column("characters", "name_key")
