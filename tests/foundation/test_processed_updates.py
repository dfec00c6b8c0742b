"""Processed-update claims are kept long enough for any redelivery, then forgotten."""

from __future__ import annotations

import json
from datetime import timedelta
from types import SimpleNamespace

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from db.database import create_session_factory
from db.uow import UnitOfWork


async def test_old_processed_update_claims_are_pruned(clean_db: AsyncEngine) -> None:
    async with clean_db.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO processed_updates (bot_id, update_id, processed_at) VALUES "
                "(1, 1, now() - interval '8 days'), (1, 2, now())"
            )
        )
    async with UnitOfWork(create_session_factory(clean_db)) as uow:
        assert await uow.updates.prune(timedelta(days=7)) == 1
        await uow.commit()
    async with clean_db.connect() as conn:
        left = (await conn.execute(text("SELECT update_id FROM processed_updates"))).all()
    assert [r[0] for r in left] == [2]


async def test_a_refusals_rollback_keeps_the_claim_and_clears_the_inbox(
    clean_db: AsyncEngine,
) -> None:
    """A use case that refuses rolls back its own writes; the update still counts as handled:
    claimed (a redelivery is skipped) and out of the polling inbox (not replayed at start)."""
    async with clean_db.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO update_inbox (bot_id, update_id, payload) "
                "VALUES (1, 7, '{\"update_id\": 7}')"
            )
        )
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        assert await uow.claim_update(1, 7, user_id=None, chat_id=None) is not None
        await uow.session.execute(text("INSERT INTO chats (id, type) VALUES (-5, 'group')"))
        await uow.rollback()
        await uow.commit()
    async with clean_db.connect() as conn:
        claims = (await conn.execute(text("SELECT update_id FROM processed_updates"))).all()
        inbox = (await conn.execute(text("SELECT count(*) FROM update_inbox"))).scalar_one()
        chats = (await conn.execute(text("SELECT count(*) FROM chats"))).scalar_one()
    assert ([r[0] for r in claims], inbox, chats) == ([7], 0, 0)
    async with UnitOfWork(factory) as uow:  # the redelivery
        assert await uow.claim_update(1, 7, user_id=None, chat_id=None) is None


async def test_a_polled_batch_goes_to_the_inbox_as_it_came(clean_db: AsyncEngine) -> None:
    """The inbox keeps Telegram's text of each update (fields aiogram does not model too), so
    a replay after a kill sees what Telegram sent; a batch without it is dumped from the
    parsed updates."""
    from aiogram.types import Update

    from bot.i18n import I18n
    from bot.polling import _stash

    sent = [
        {"update_id": 11, "message": {"message_id": 1, "date": 0, "text": "/r 1d6",
                                      "chat": {"id": 5, "type": "private"}, "x_new": [1]}},
        {"update_id": 12, "message": {"message_id": 2, "date": 0, "text": "hi",
                                      "chat": {"id": 5, "type": "private"}}},
    ]  # fmt: skip
    updates = [Update.model_validate(u) for u in sent]
    i18n = I18n("ru")
    first, second = SimpleNamespace(id=1), SimpleNamespace(id=2)  # two bots' inboxes
    await _stash(clean_db, first, updates, json.dumps({"ok": True, "result": sent}), i18n)  # type: ignore[arg-type]
    await _stash(clean_db, second, updates, None, i18n)  # type: ignore[arg-type]
    async with clean_db.connect() as conn:
        rows = (
            await conn.execute(
                text("SELECT bot_id, update_id, payload FROM update_inbox ORDER BY 1, 2")
            )
        ).all()
    assert [(r[0], r[1]) for r in rows] == [(1, 11), (1, 12), (2, 11), (2, 12)]
    assert [r[2] for r in rows[:2]] == sent
    assert [Update.model_validate(r[2]) for r in rows[2:]] == updates
