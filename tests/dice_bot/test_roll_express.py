"""A /r in two round trips (``UnitOfWork.peek_update``): its context and the log's head are read
without a claim or a lock, and one statement claims the update and appends
(``roll_append_claimed``). Whatever happens between the two — another roll, a reveal, a second
delivery, a write of another kind, a refusal, a failure — the log stays one verified chain and
the update is claimed exactly when its effects are committed."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import rolls as roll_service
from db.database import create_session_factory
from db.repositories.users import TelegramUser
from db.uow import AlreadyProcessed, UnitOfWork
from engine.dice.verify import verify_export

BOT = 1
CHAT = 31


async def _scalar(engine: AsyncEngine, sql: str) -> object:
    async with engine.connect() as conn:
        return (await conn.execute(text(sql))).scalar_one()


async def _roll(uow: UnitOfWork, roll_id: str, text_: str = "1d6") -> roll_service.LoggedRoll:
    return await roll_service.roll_logged(
        uow, chat_id=CHAT, roll_id=roll_id, text=text_, actor="a", subject="a",
        actor_user_id=None,
    )  # fmt: skip


def _user(user_id: int, name: str) -> TelegramUser:
    return TelegramUser(
        id=user_id, first_name=name, last_name=None, username=None, language_code="en"
    )


async def _peek(uow: UnitOfWork, update_id: int, roll_id: str) -> bool:
    prefetched = await uow.peek_update(
        BOT, update_id, user_id=None, chat_id=CHAT, fsm_keys=[], roll=(CHAT, roll_id)
    )
    return prefetched is not None


async def _inbox(engine: AsyncEngine, *update_ids: int) -> None:
    async with engine.begin() as conn:
        for update_id in update_ids:
            await conn.execute(
                text(
                    "INSERT INTO update_inbox (bot_id, update_id, payload) "
                    "VALUES (:b, :u, CAST(:p AS jsonb))"
                ),
                {"b": BOT, "u": update_id, "p": f'{{"update_id": {update_id}}}'},
            )


@pytest.fixture
async def log_open(clean_db: AsyncEngine) -> AsyncEngine:
    """A chat whose log, epoch and first entry exist (the first roll takes the locked path)."""
    async with UnitOfWork(create_session_factory(clean_db)) as uow:
        await _roll(uow, "msg:31:0")
    return clean_db


async def _verified(engine: AsyncEngine) -> list[int]:
    async with UnitOfWork(create_session_factory(engine)) as uow:
        exported = await roll_service.export(uow, CHAT)
    assert exported is not None and verify_export(exported).ok
    return [e.seq for e in exported.entries]


async def test_a_roll_claims_its_update_with_its_append(log_open: AsyncEngine) -> None:
    await _inbox(log_open, 100)
    async with UnitOfWork(create_session_factory(log_open)) as uow:
        assert await _peek(uow, 100, "msg:31:1")
        assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 0
        logged = await _roll(uow, "msg:31:1")
        await uow.commit()
    assert logged.entry.seq == 2
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 1
    assert await _scalar(log_open, "SELECT count(*) FROM update_inbox") == 0
    assert await _verified(log_open) == [1, 2]
    async with UnitOfWork(create_session_factory(log_open)) as uow:  # the redelivery
        assert not await _peek(uow, 100, "msg:31:1")


async def test_a_roll_between_peek_and_append_is_chained_after(log_open: AsyncEngine) -> None:
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as uow:
        assert await _peek(uow, 101, "msg:31:1")
        async with UnitOfWork(factory) as other:  # another roll in the chat, meanwhile
            assert await _peek(other, 102, "msg:31:2")
            assert (await _roll(other, "msg:31:2")).entry.seq == 2
        logged = await _roll(uow, "msg:31:1")  # its head moved: the locked path
        await uow.commit()
    assert logged.entry.seq == 3
    assert await _verified(log_open) == [1, 2, 3]
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 2


async def test_a_reveal_between_peek_and_append_moves_the_roll_to_the_next_epoch(
    log_open: AsyncEngine,
) -> None:
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as uow:
        assert await _peek(uow, 103, "msg:31:1")
        async with UnitOfWork(factory) as gm:
            revealed = await roll_service.reveal(gm, CHAT)
        logged = await _roll(uow, "msg:31:1")
        await uow.commit()
    # rolled from the next epoch's seed, not the one the peek saw (now public)
    assert logged.entry.epoch == revealed.opened.epoch == revealed.closed.epoch + 1
    assert await _verified(log_open) == [1, 2]


async def test_a_second_delivery_of_the_update_is_done_when_the_first_appended(
    log_open: AsyncEngine,
) -> None:
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as first, UnitOfWork(factory) as second:
        assert await _peek(first, 104, "msg:31:1")
        assert await _peek(second, 104, "msg:31:1")
        await _roll(first, "msg:31:1")
        with pytest.raises(AlreadyProcessed):
            await _roll(second, "msg:31:1")
    assert await _verified(log_open) == [1, 2]
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 1


async def test_the_append_writes_nothing_for_an_update_claimed_meanwhile(
    log_open: AsyncEngine,
) -> None:
    """'done': the head is the one the roll was chained to, but the update is claimed (another
    delivery handled it without rolling) — no entry."""
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as uow:
        assert await _peek(uow, 105, "msg:31:1")
        async with UnitOfWork(factory) as other:
            assert await _peek(other, 105, "msg:31:1")
            await other.commit()  # claimed, nothing rolled
        with pytest.raises(AlreadyProcessed):
            await _roll(uow, "msg:31:1")
    assert await _verified(log_open) == [1]


async def test_another_write_claims_the_update_first_in_its_transaction(
    log_open: AsyncEngine,
) -> None:
    """A renamed sender is written before the roll: the claim comes first, in that write's
    transaction, and the roll takes the locked path inside it — one commit for all."""
    await _inbox(log_open, 106)
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as uow:
        assert await _peek(uow, 106, "msg:31:1")
        await uow.users.upsert(_user(77, "Renamed"))  # through SQLModel's session.execute
        count = "SELECT count(*) FROM processed_updates"
        # claimed in its transaction (asked through the unit's own session, which claims
        # nothing itself: the upsert did)
        assert (await uow.session.execute(text(count))).scalar_one() == 1
        async with log_open.connect() as conn:  # not committed yet
            assert (await conn.execute(text(count))).scalar_one() == 0
        await _roll(uow, "msg:31:1")
        await uow.commit()
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 1
    assert await _scalar(log_open, "SELECT count(*) FROM update_inbox") == 0
    assert await _scalar(log_open, "SELECT first_name FROM users WHERE id = 77") == "Renamed"
    assert await _verified(log_open) == [1, 2]
    async with UnitOfWork(factory) as again:  # a redelivery finds it done
        assert not await _peek(again, 106, "msg:31:1")


async def test_a_unit_that_rolls_nothing_still_claims_its_update(log_open: AsyncEngine) -> None:
    await _inbox(log_open, 107, 108)
    factory = create_session_factory(log_open)
    async with UnitOfWork(factory) as uow:  # e.g. the roll was refused: a reply, no entry
        assert await _peek(uow, 107, "msg:31:1")
        await uow.commit()
    async with UnitOfWork(factory) as uow:  # a use case that refused and rolled back
        assert await _peek(uow, 108, "msg:31:2")
        await uow.rollback()
        await uow.commit()
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 2
    assert await _scalar(log_open, "SELECT count(*) FROM update_inbox") == 0
    assert await _verified(log_open) == [1]


async def test_a_unit_that_fails_claims_nothing(log_open: AsyncEngine) -> None:
    await _inbox(log_open, 109)
    factory = create_session_factory(log_open)
    with pytest.raises(RuntimeError):
        async with UnitOfWork(factory) as uow:
            assert await _peek(uow, 109, "msg:31:1")
            await uow.users.upsert(_user(78, "Lost"))
            raise RuntimeError("the handler failed")
    assert await _scalar(log_open, "SELECT count(*) FROM processed_updates") == 0
    assert await _scalar(log_open, "SELECT count(*) FROM update_inbox") == 1  # replayed later
    assert await _scalar(log_open, "SELECT count(*) FROM users WHERE id = 78") == 0


async def test_a_peek_creates_and_locks_nothing(clean_db: AsyncEngine) -> None:
    """No log yet: the peek finds no head, and the update is claimed the usual way (the log
    created and locked under the claim) for the chat's first roll."""
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        rows = await (await uow.bare()).fetch("SELECT * FROM roll_log_peek(31, 'msg:31:1')")
        assert rows == []
        assert await _scalar(clean_db, "SELECT count(*) FROM roll_logs") == 0
        assert await _peek(uow, 110, "msg:31:1")  # claimed here: the locked path
        assert uow.express_claim() is None
        assert (await _roll(uow, "msg:31:1")).entry.seq == 1
        await uow.commit()
    assert await _verified(clean_db) == [1]
    assert await _scalar(clean_db, "SELECT count(*) FROM processed_updates") == 1
