"""The ledger: concurrent spends never overspend, every change is recorded, undo restores."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import ledger
from db.database import create_session_factory
from db.repositories.games import GameDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from engine.systems import fate


async def _table(engine: AsyncEngine, fate_points: int = 3) -> tuple[GameDTO, list[int]]:
    factory = create_session_factory(engine)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(-100900, "fate", "Ledger", 1000)
        ids = []
        for owner, name in ((1001, "Мира"), (1002, "Борис")):
            sheet = fate.new_character(name).model_copy(update={"fate_points": fate_points})
            row = await uow.characters.add(
                game_id=game.id, owner_user_id=owner, is_npc=False, system="fate", name=name,
                status="active", sheet=sheet.model_dump(mode="json"), schema_version=1,
            )  # fmt: skip
            ids.append(row.id)
        await uow.commit()
    return game, ids


def _spend(character: Any) -> Any:
    return fate.spend_fate_points(character, 1)


async def _fate_points(engine: AsyncEngine, character_id: int) -> int:
    async with engine.connect() as conn:
        return int(
            (
                await conn.execute(
                    text("SELECT (sheet->>'fate_points')::int FROM characters WHERE id = :i"),
                    {"i": character_id},
                )
            ).scalar_one()
        )


async def _only_batch(engine: AsyncEngine) -> str:
    async with engine.connect() as conn:
        return str((await conn.execute(text("SELECT DISTINCT batch FROM ledger"))).scalar_one())


async def test_fifty_concurrent_spends_against_three_points_grant_exactly_three(
    clean_db: AsyncEngine,
) -> None:
    game, (mira, _) = await _table(clean_db)
    factory = create_session_factory(clean_db)

    async def spend() -> bool:
        async with UnitOfWork(factory) as uow:
            try:
                await ledger.change_sheets(
                    uow, game=game, actor_user_id=1001, kind="fp.spend", changes={mira: _spend}
                )
            except EngineError:
                return False
            await uow.commit()
            return True

    granted = await asyncio.gather(*(spend() for _ in range(50)))
    assert sum(granted) == 3
    assert await _fate_points(clean_db, mira) == 0
    async with clean_db.connect() as conn:
        rows = (await conn.execute(text("SELECT count(*) FROM ledger"))).scalar_one()
    assert rows == 3


async def test_the_database_refuses_negative_fate_points(clean_db: AsyncEngine) -> None:
    _, (mira, _) = await _table(clean_db, fate_points=0)
    with pytest.raises(IntegrityError):
        async with clean_db.begin() as conn:
            await conn.execute(
                text(
                    "UPDATE characters SET sheet = jsonb_set(sheet, '{fate_points}', '-1') "
                    "WHERE id = :i"
                ),
                {"i": mira},
            )


async def test_a_batch_is_one_action_and_undo_restores_it_once(clean_db: AsyncEngine) -> None:
    game, (mira, boris) = await _table(clean_db)
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        changed = await ledger.change_sheets(
            uow, game=game, actor_user_id=1000, kind="fp.spend",
            changes={mira: _spend, boris: _spend}, reason="тест",
        )  # fmt: skip
        await uow.commit()
    assert {c.name for c in changed} == {"Мира", "Борис"}
    assert changed[0].diff == [{"path": "fate_points", "before": 3, "after": 2}]
    batch = await _only_batch(clean_db)
    async with UnitOfWork(factory) as uow:
        undone = await ledger.undo_batch(uow, game=game, batch=batch, actor_user_id=1000)
        await uow.commit()
    assert len(undone) == 2
    assert (await _fate_points(clean_db, mira), await _fate_points(clean_db, boris)) == (3, 3)
    async with UnitOfWork(factory) as uow:
        with pytest.raises(ledger.LedgerError) as refused:  # the batch is undone only once
            await ledger.undo_batch(uow, game=game, batch=batch, actor_user_id=1000)
    assert refused.value.reason == ledger.ALREADY_UNDONE


async def test_undo_is_refused_when_a_later_change_touched_the_sheet(
    clean_db: AsyncEngine,
) -> None:
    game, (mira, _) = await _table(clean_db)
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        await ledger.change_sheets(
            uow, game=game, actor_user_id=1000, kind="a", changes={mira: _spend}
        )
        await uow.commit()
    async with clean_db.begin() as conn:  # someone edits the sheet outside the ledger
        await conn.execute(
            text("UPDATE characters SET version = version + 1 WHERE id = :i"), {"i": mira}
        )
    async with UnitOfWork(factory) as uow:
        with pytest.raises(ledger.LedgerError):
            await ledger.undo_batch(
                uow, game=game, batch=await _only_batch(clean_db), actor_user_id=1000
            )
