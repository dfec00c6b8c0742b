"""Changing characters' sheets through the ledger: lock, apply an engine rule, save, record.

Every resource change (a fate point spent, a stress box marked, a milestone for the whole
table) goes through ``change_sheets``: all the characters involved are locked in one
statement, the engine operation runs on each sheet (an ``EngineError`` from any of them changes
nothing), the new sheets are written in one statement and the ledger rows in one more — so a
milestone over a hundred characters is still a handful of statements. Concurrent spends queue
on the row locks and the database's CHECK refuses an overspend whatever the code path.
The caller commits once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import N_
from bot.services.characters import diff
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.ledger import LedgerDTO, NewEntry
from db.uow import UnitOfWork
from engine.common import SheetModel

Mutation = Callable[[SheetModel], SheetModel]


class LedgerError(Exception):
    """A refused change; ``reason`` is a msgid."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Changed:
    character_id: int
    name: str
    before: SheetModel
    after: SheetModel
    diff: list[dict[str, Any]]


def new_batch() -> str:
    return secrets.token_hex(8)


async def change_sheets(
    uow: UnitOfWork,
    *,
    game: GameDTO,
    actor_user_id: int,
    kind: str,
    changes: Mapping[int, Mutation],
    reason: str | None = None,
    batch: str | None = None,
) -> list[Changed]:
    """Apply ``changes`` (character id → engine operation on its sheet) as one action.

    Characters of other games, or not active, are refused. Raises ``EngineError`` (from the
    rule) or ``LedgerError``; nothing is written then. Does not commit.
    """
    spec = SYSTEMS[game.system]
    rows = await uow.characters.lock_many(sorted(changes))
    if len(rows) != len(changes) or any(r.game_id != game.id for r in rows):
        raise LedgerError(N_("No such character."))
    batch = batch or new_batch()
    results: list[Changed] = []
    entries: list[NewEntry] = []
    sheets: dict[int, dict[str, Any]] = {}
    for row in rows:
        before = spec.load(row.sheet, row.schema_version)
        after = changes[row.id](before)
        before_json, after_json = before.model_dump(mode="json"), after.model_dump(mode="json")
        changed = diff(before_json, after_json)
        if not changed:
            continue
        sheets[row.id] = after_json
        entries.append(_entry(game, row, actor_user_id, kind, reason, batch, changed, after_json))
        results.append(Changed(row.id, row.name, before, after, changed))
    await uow.characters.write_sheets(sheets, spec.schema_version)
    await uow.ledger.add_many(entries)
    return results


def _entry(
    game: GameDTO,
    row: CharacterDTO,
    actor_user_id: int,
    kind: str,
    reason: str | None,
    batch: str,
    changed: list[dict[str, Any]],
    after: dict[str, Any],
) -> NewEntry:
    return NewEntry(
        game_id=game.id, character_id=row.id, actor_user_id=actor_user_id, kind=kind,
        reason=reason, batch=batch, diff=changed, sheet_before=row.sheet, sheet_after=after,
        version_before=row.version, version_after=row.version + 1,
    )  # fmt: skip


async def undo_last(
    uow: UnitOfWork,
    *,
    game: GameDTO,
    actor_user_id: int,
    max_age: timedelta | None = None,
) -> list[LedgerDTO]:
    """The GM undoes the game's newest action (a whole batch) if nothing touched those sheets
    since; the undo is itself a ledger entry. Raises ``LedgerError`` otherwise. No commit."""
    entries = await uow.ledger.last_batch(game.id)
    if not entries:
        raise LedgerError(N_("Nothing to undo."))
    if max_age is not None and datetime.now(UTC) - entries[0].created_at > max_age:
        raise LedgerError(N_("That change is too old to undo."))
    return await _restore(uow, game, entries, actor_user_id)


async def undo_batch(
    uow: UnitOfWork, *, game: GameDTO, batch: str, actor_user_id: int
) -> list[LedgerDTO]:
    """Undo one given batch (a tracker's step) if nothing touched those sheets since; an
    already undone or unknown batch restores nothing. Raises ``LedgerError``. No commit."""
    entries = await uow.ledger.batch_entries(game.id, batch)
    return await _restore(uow, game, entries, actor_user_id) if entries else []


async def _restore(
    uow: UnitOfWork, game: GameDTO, entries: list[LedgerDTO], actor_user_id: int
) -> list[LedgerDTO]:
    rows = {r.id: r for r in await uow.characters.lock_many([e.character_id for e in entries])}
    if any(rows[e.character_id].version != e.version_after for e in entries):
        raise LedgerError(N_("Those sheets changed since; undo is not possible."))
    spec = SYSTEMS[game.system]
    batch = new_batch()
    restored = {e.character_id: e.sheet_before for e in entries}
    await uow.characters.write_sheets(restored, spec.schema_version)
    await uow.ledger.add_many([_undo_entry(e, actor_user_id, batch) for e in entries])
    await uow.ledger.mark_undone(entries[0].batch)
    return entries


def _undo_entry(entry: LedgerDTO, actor_user_id: int, batch: str) -> NewEntry:
    return NewEntry(
        game_id=entry.game_id,
        character_id=entry.character_id,
        actor_user_id=actor_user_id,
        kind="undo",
        reason=entry.batch,
        batch=batch,
        diff=diff(entry.sheet_after, entry.sheet_before),
        sheet_before=entry.sheet_after,
        sheet_after=entry.sheet_before,
        version_before=entry.version_after,
        version_after=entry.version_after + 1,
    )
