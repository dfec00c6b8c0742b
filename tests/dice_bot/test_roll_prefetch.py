"""A /r is told by the update alone (``handlers.dice.roll_hint``). Its unit reads the head first
and claims with the append (tests/dice_bot/test_roll_express.py); when that cannot be (a
chat's first roll, a head that moved) its claim locks the chat's log and reads the head: the
same chain under concurrency, no lock or log for anything else, and a head read under the
lock is used once, inside the transaction that holds it."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from aiogram.types import CallbackQuery, Chat, Message, Update, User
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import rolls as roll_service
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.dice.verify import verify_export
from handlers.dice import roll_hint
from tests.conftest import Harness

GM = 2000
GROUP = -200500
PLAYERS = range(2001, 2031)


async def _count(engine: AsyncEngine, sql: str) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text(sql))).scalar_one())


def _message_update(text_: str, *, edited: bool = False) -> Update:
    chat = Chat(id=GROUP, type="supergroup", title="T")
    message = Message(
        message_id=7, date=datetime.now(UTC), chat=chat, text=text_,
        from_user=User(id=GM, is_bot=False, first_name="GM"),
    )  # fmt: skip
    return (
        Update(update_id=1, edited_message=message)
        if edited
        else Update(update_id=1, message=message)
    )


@pytest.mark.parametrize(
    ("text_", "hinted"),
    [
        ("/r 2d6+1 атака", True),
        ("/roll 4dF+2", True),
        ("/r 5", True),  # notation (a matter shorthand in a matter game: same roll id)
        ("/r", False),
        ("/r 2d6+", False),  # bad notation: no lock, nothing created
        ("/r Атлетика vs 2", False),  # a sheet trait: the usual path
        ("/r@OtherBot 1d6", False),  # maybe another bot's: the filter decides, not the hint
        ("/rx 1d6", False),
        ("/odds 2d6", False),
        ("hello", False),
    ],
)
def test_the_hint_names_only_a_roll_that_will_be_logged(text_: str, hinted: bool) -> None:
    expected = (GROUP, f"msg:{GROUP}:7") if hinted else None
    assert roll_hint(_message_update(text_)) == expected


def test_no_hint_for_an_edit_or_a_button() -> None:
    assert roll_hint(_message_update("/r 1d6", edited=True)) is None
    press = CallbackQuery(
        id="1", from_user=User(id=GM, is_bot=False, first_name="GM"), chat_instance="c",
        data="x",
    )  # fmt: skip
    assert roll_hint(Update(update_id=2, callback_query=press)) is None


async def test_concurrent_roll_messages_in_one_chat_chain_without_gaps(running: Harness) -> None:
    emu = running.emu
    emu.add_user(GM, "GM", language_code="en")
    for uid in PLAYERS:
        emu.add_user(uid, f"P{uid}", language_code="en")
    emu.add_group(GROUP, "Table", members=[GM, *PLAYERS], creator=GM)
    for uid in PLAYERS:  # all at once: one chat, thirty senders, one chain
        emu.send_text(uid, GROUP, "/r 1d20")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) >= 30)
    factory = create_session_factory(running.engine)
    async with UnitOfWork(factory) as uow:
        exported = await roll_service.export(uow, GROUP)
    assert exported is not None
    assert [e.seq for e in exported.entries] == list(range(1, 31))
    assert verify_export(exported).ok
    numbers = sorted(
        int(m.text.split("Log #")[1].split()[0])
        for m in emu.bot_messages(GROUP)
        if "Log #" in m.text
    )
    assert numbers == list(range(1, 31))  # each reply shows its own place in the chain


async def test_other_messages_lock_and_create_no_log(running: Harness) -> None:
    emu = running.emu
    emu.add_user(GM, "GM", language_code="en")
    emu.add_group(GROUP, "Table", members=[GM], creator=GM)
    for message in ("hello", "/r 2d6+", "/r", "/odds 2d6"):
        emu.send_text(GM, GROUP, message)
    await emu.wait_for(lambda: len(emu.bot_messages(GROUP)) >= 3)
    await emu.wait_idle()
    assert await _count(running.engine, "SELECT count(*) FROM roll_logs") == 0
    emu.send_text(GM, GROUP, "/r 1d6")
    await emu.wait_bot_message(GROUP, contains="Log #1")
    assert await _count(running.engine, "SELECT count(*) FROM roll_logs") == 1


async def test_the_prefetched_head_is_not_used_after_its_transaction(
    clean_db: AsyncEngine,
) -> None:
    factory = create_session_factory(clean_db)
    chat, roll_id = 11, "msg:11:1"
    async with UnitOfWork(factory) as uow:
        claimed = await uow.claim_update(1, 1, user_id=None, chat_id=chat, roll=(chat, roll_id))
        assert claimed is not None and claimed.log_head  # the log locked, its head read
        await uow.commit()  # the lock is gone, and with it what was read under it
        async with UnitOfWork(factory) as other:  # meanwhile, another roll in the chat
            await roll_service.roll_logged(
                other, chat_id=chat, roll_id="msg:11:2", text="1d6", actor="b", subject="b",
                actor_user_id=None,
            )  # fmt: skip
        logged = await roll_service.roll_logged(
            uow, chat_id=chat, roll_id=roll_id, text="1d6", actor="a", subject="a",
            actor_user_id=None,
        )  # fmt: skip
    assert logged.entry.seq == 2  # chained after the other roll, not on the stale head
    async with UnitOfWork(factory) as uow:
        exported = await roll_service.export(uow, chat)
    assert exported is not None and verify_export(exported).ok


async def test_a_redelivered_claim_locks_nothing(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        assert await uow.claim_update(1, 5, user_id=None, chat_id=12, roll=(12, "msg:12:1"))
        await uow.commit()
    async with UnitOfWork(factory) as first:
        # The same update again: no row, so roll_log_head is never called — a second unit
        # can lock the log meanwhile without waiting.
        assert (
            await first.claim_update(1, 5, user_id=None, chat_id=12, roll=(12, "msg:12:1")) is None
        )
        async with UnitOfWork(factory) as second:
            head = await asyncio.wait_for(second.rolls.head_for_append(12, "msg:12:2"), 5)
            assert head.log_id
            await second.commit()


async def test_the_claim_holds_the_log_lock_until_its_unit_ends(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as first:
        assert await first.claim_update(1, 6, user_id=None, chat_id=13, roll=(13, "msg:13:1"))

        async def second_append() -> int:
            async with UnitOfWork(factory) as second:
                head = await second.rolls.head_for_append(13, "msg:13:2")
                await second.commit()
                return head.log_id

        waiting = asyncio.create_task(second_append())
        await asyncio.sleep(0.3)
        assert not waiting.done()  # queued on the lock the claim took
        await first.commit()
    assert await asyncio.wait_for(waiting, 5)


async def test_the_head_function_does_nothing_without_a_chat(clean_db: AsyncEngine) -> None:
    # Whatever plan the server picks for the claim (PostgreSQL 18 calls the function before
    # the claim's NULL test), a claim that is not a roll must lock and create nothing.
    async with clean_db.begin() as conn:
        rows = (await conn.execute(text("SELECT * FROM roll_log_head(NULL, NULL)"))).all()
    assert rows == []
    assert await _count(clean_db, "SELECT count(*) FROM roll_logs") == 0
