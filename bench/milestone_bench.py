"""Milestones at scale: a minor milestone for 1,000 fate games of 10 characters each (10,000
characters), each game one preview + one apply as the GM would press them. Reports the time
and the number of SQL statements (they must not grow with the characters of a game)."""

from __future__ import annotations

import time
import uuid
from typing import Any

from sqlalchemy import event, text

from bot.services import milestones
from db.database import create_engine, create_session_factory, migrate
from db.uow import UnitOfWork
from engine.systems import fate
from tests.conftest import create_database, drop_database, with_database

GAMES, PER_GAME = 1000, 10


async def _seed(engine: Any) -> list[int]:
    sheet = fate.new_character("Герой").model_copy(
        update={"fate_points": 1, "stress": fate.StressMarks(physical=(1,))}
    )
    sheet_json = sheet.model_dump_json()
    async with engine.begin() as conn:
        games = (
            (
                await conn.execute(
                    text(
                        "INSERT INTO games "
                        "(chat_id, system, title, gm_user_id, timezone, options) "
                        "SELECT -1000000 - g, 'fate', 'bench', 1, 'Europe/Moscow', '{}'::jsonb "
                        "FROM generate_series(1, :n) g "
                        "RETURNING id"
                    ),
                    {"n": GAMES},
                )
            )
            .scalars()
            .all()
        )
        await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, status, "
                "sheet, schema_version, version) "
                "SELECT g.id, 1000 + c, false, 'fate', 'Герой ' || c, 'active', "
                "CAST(:sheet AS jsonb), 1, 1 "
                "FROM unnest(CAST(:ids AS int[])) AS g(id), generate_series(1, :per) c"
            ),
            {"sheet": sheet_json, "ids": list(games), "per": PER_GAME},
        )
    return list(games)


async def run(admin_url: str) -> dict[str, Any]:
    name = f"bench_ms_{uuid.uuid4().hex[:8]}"
    await create_database(admin_url, name)
    engine = create_engine(with_database(admin_url, name))
    try:
        await migrate(engine)
        game_ids = await _seed(engine)
        factory = create_session_factory(engine)
        statements = 0

        def count(*_: Any) -> None:
            nonlocal statements
            statements += 1

        event.listen(engine.sync_engine, "before_cursor_execute", count)
        started = time.perf_counter()
        for game_id in game_ids:
            async with UnitOfWork(factory) as uow:
                game = await uow.games.get(game_id)
                assert game is not None
                plan = await milestones.preview(uow, game, "minor")
                await milestones.apply(
                    uow, game, "minor", fingerprint=plan.fingerprint, actor_user_id=1,
                    actor_name="bench", preview_message_id=-game_id,
                )  # fmt: skip
        seconds = time.perf_counter() - started
        async with engine.connect() as conn:
            ledger_rows = (await conn.execute(text("SELECT count(*) FROM ledger"))).scalar_one()
        return {
            "games": GAMES,
            "characters": GAMES * PER_GAME,
            "seconds": round(seconds, 2),
            "sql_statements": statements,
            "statements_per_game": round(statements / GAMES, 1),
            "characters_per_second": round(GAMES * PER_GAME / seconds, 1),
            "ledger_rows": ledger_rows,
        }
    finally:
        await engine.dispose()
        await drop_database(admin_url, name)
