"""Changing characters' sheets through the ledger: lock, apply an engine rule, save, record.

Every resource change (a fate point spent, a stress box marked, a milestone for the whole
table) goes through ``change_sheets``: all the characters involved are locked in one
statement, the engine operation runs on each sheet (an ``EngineError`` from any of them changes
nothing), the new sheets are written in one statement and the ledger rows in one more — so a
milestone over a hundred characters is still a handful of statements. Concurrent spends queue
on the row locks and the database's CHECK refuses an overspend whatever the code path.
An undo names the batch it undoes (``undo_batch``); nothing here undoes "the newest".
The caller commits once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from bot.i18n import N_
from bot.services.characters import diff
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.ledger import LedgerDTO, NewEntry
from db.uow import UnitOfWork
from engine.common import SheetModel

Mutation = Callable[[SheetModel], SheetModel]

# DECISION: an undo is for a mistake just made. Past an hour the button lying in the chat is
# refused (the opposite press, or a fresh action, puts things right instead); the same bound
# for the resource panel, milestones and trackers.
UNDO_WINDOW: Final = timedelta(hours=1)
ALREADY_UNDONE: Final = N_("Already undone.")
TOO_OLD: Final = N_("That change is too old to undo.")


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
    asked_by: int | None = None,
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
        entry = _entry(game, row, actor_user_id, kind, reason, batch, changed, after_json)
        entries.append(replace(entry, asked_by_user_id=asked_by) if asked_by else entry)
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


async def undo_batch(
    uow: UnitOfWork,
    *,
    game: GameDTO,
    batch: str,
    actor_user_id: int,
    max_age: timedelta = UNDO_WINDOW,
) -> list[LedgerDTO]:
    """Undo exactly ``batch`` (the one its button names, never "the newest"): its sheets come
    back as they were before it, and the undo is itself a ledger entry. Refused
    (``LedgerError``) when the batch is unknown, already undone, older than ``max_age``, or
    any of its sheets changed since. At most once: the batch is stamped by a conditional
    update, so a second press — concurrent or later — stamps nothing and writes nothing.
    No commit; nothing is written when refused."""
    entries = await uow.ledger.batch_entries(game.id, batch)
    if not entries or any(e.kind == "undo" for e in entries):
        raise LedgerError(N_("Nothing to undo."))
    if all(e.undone for e in entries):
        raise LedgerError(ALREADY_UNDONE)
    if datetime.now(UTC) - entries[0].created_at > max_age:
        raise LedgerError(TOO_OLD)
    rows = {r.id: r for r in await uow.characters.lock_many([e.character_id for e in entries])}
    if any(rows[e.character_id].version != e.version_after for e in entries):
        # Read again under the locks: a concurrent undo of this batch may have won meanwhile.
        if any(e.undone for e in await uow.ledger.batch_entries(game.id, batch)):
            raise LedgerError(ALREADY_UNDONE)
        raise LedgerError(N_("Those sheets changed since; undo is not possible."))
    if not await uow.ledger.claim_undo(game.id, batch):  # the first write: nothing to roll back
        raise LedgerError(ALREADY_UNDONE)
    spec = SYSTEMS[game.system]
    undo = new_batch()
    restored = {e.character_id: e.sheet_before for e in entries}
    await uow.characters.write_sheets(restored, spec.schema_version)
    await uow.ledger.add_many([_undo_entry(e, actor_user_id, undo) for e in entries])
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
