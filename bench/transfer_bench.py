"""A campaign's file (issue 33): a fate game of 300 characters with 3,000 ledger entries (each
holding two sheets) and a 500-roll log — its size, the worker's read (bounds, every sheet's
model, the log's chain), and the import into a fresh group (every row in one transaction)."""

from __future__ import annotations

import time
import uuid
from typing import Any

from bot.services import transfer
from bot.services.verify import LIMITS as LOG_LIMITS
from bot.systems import SHEET_UPGRADES, SYSTEMS
from db.database import create_engine, create_session_factory, migrate
from db.uow import UnitOfWork
from engine.dice.hmac_source import commitment
from engine.dice.log import record_roll
from engine.systems import fate
from engine.transfer import SheetType, read_file, seal
from tests.conftest import create_database, drop_database, with_database
from tests.engine.fate.factories import sample

CHARACTERS, LEDGER, ROLLS = 300, 3000, 500
GM = 4242


def _sheet() -> dict[str, Any]:
    """A full character in play: a fate point spent, a stress box marked."""
    sheet = sample(name="Кира")
    played = sheet.model_copy(
        update={"fate_points": sheet.refresh - 1, "stress": fate.StressMarks(physical=(1,))}
    )
    return played.model_dump(mode="json")


def _log() -> dict[str, Any]:
    seed = b"s" * 32
    entries, last = [], None
    for n in range(ROLLS):
        last, _ = record_roll(
            last, seed=seed, roll_id=f"r{n}", epoch=1, actor="Alice", subject=f"N{n % 300}",
            expression="4dF+2", created_at="2026-01-01T00:00:00+00:00",
        )  # fmt: skip
        entries.append(last.to_json())
    epochs = [{"epoch": 1, "commitment": commitment(seed), "seed": None}]
    return {"format": "rollog/1", "game": "chat:-1", "epochs": epochs, "entries": entries}


def game_file() -> bytes:
    sheet = _sheet()
    characters = [
        {"ref": i, "name": f"N{i}", "owner_user_id": 5000 + i, "status": "active",
         "schema_version": 1, "sheet": {**sheet, "name": f"N{i}"}}
        for i in range(CHARACTERS)
    ]  # fmt: skip
    entry = {
        "character": 1, "actor_user_id": GM, "kind": "fate_points", "reason": "x", "batch": "b",
        "diff": [], "sheet_before": sheet, "sheet_after": sheet, "version_before": 1,
        "version_after": 2, "created_at": "2026-01-01T00:00:00+00:00", "undone": False,
    }  # fmt: skip
    return seal({
        "kind": "game", "system": "fate", "exported_at": "2026-12-03T00:00:00+00:00",
        "game": {"title": "Big", "options": {}, "timezone": "UTC", "gm_user_id": GM},
        "members": [], "characters": characters, "npcs": [], "schedules": [],
        "ledger": [entry] * LEDGER, "roll_log": _log(),
    })  # fmt: skip


async def run(admin_url: str) -> dict[str, Any]:
    data = game_file()
    types = {k: SheetType(s.character_type, s.schema_version) for k, s in SYSTEMS.items()}
    started = time.perf_counter()
    parsed = read_file(data, types, dict(SHEET_UPGRADES), transfer.LIMITS, LOG_LIMITS)
    read_seconds = time.perf_counter() - started
    assert not parsed.problems, parsed.problems
    name = f"bench_tr_{uuid.uuid4().hex[:8]}"
    await create_database(admin_url, name)
    engine = create_engine(with_database(admin_url, name))
    try:
        await migrate(engine)
        started = time.perf_counter()
        async with UnitOfWork(create_session_factory(engine)) as uow:
            done = await transfer.import_game(uow, parsed, chat_id=-2, user_id=GM, locale="ru")
        import_seconds = time.perf_counter() - started
    finally:
        await engine.dispose()
        await drop_database(admin_url, name)
    return {
        "characters": done.characters,
        "ledger_entries": done.ledger,
        "rolls": done.rolls,
        "file_bytes": len(data),
        "read_seconds": round(read_seconds, 2),
        "import_seconds": round(import_seconds, 2),
    }
