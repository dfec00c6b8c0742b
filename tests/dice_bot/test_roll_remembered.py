"""A /r handled with what the process remembers (``bot/express.py``): no read first, one
statement that checks the rows and the head it was handled with. Whatever changed since — in
this process or another, a row of the sender, the chat, its game, the sender's role, their
FSM rows, or the chat's log — the roll is decided on the rows as they are now: one reply, one
entry, one verified chain."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiogram.fsm.storage.base import DefaultKeyBuilder, StorageKey
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.express import ExpressCache, context_key
from bot.services import rolls as roll_service
from db.database import create_session_factory
from db.repositories.rolls import LogHead
from db.repositories.updates import Prefetched
from db.uow import UnitOfWork
from engine.dice.verify import verify_export
from tests.conftest import Harness
from tests.helpers.statements import driver_statements

ALICE, BOB = 1001, 1002
GROUP = -300700
PEEK = "SELECT u.id, u.first_name,"
APPEND = "SELECT roll_append_stamped($1, $2,"


async def _sql(engine: AsyncEngine, sql: str, **params: Any) -> Any:
    async with engine.begin() as conn:
        result = await conn.execute(text(sql), params)
        return result.scalar_one() if result.returns_rows else None


async def _roll(h: Harness, user: int, chat: int, notation: str = "1d20") -> tuple[str, list[str]]:
    """Send a /r and wait for its reply: (the reply, the update path's statements)."""
    runtime = h.runtime
    assert runtime is not None and runtime.update_engine is not None
    with driver_statements(runtime.update_engine) as statements:
        sent = h.emu.send_text(user, chat, f"/r {notation}")
        reply = await h.emu.wait_for(lambda: _reply(h, chat, sent.message_id))
        await h.emu.wait_idle()
    return reply, statements


def _reply(h: Harness, chat: int, after: int) -> str | None:
    """The roll's reply, in either language."""
    for message in h.emu.bot_messages(chat):
        if message.message_id > after and ("Log #" in message.text or "Журнал №" in message.text):
            return message.text
    return None


async def _chain(engine: AsyncEngine, chat: int) -> list[tuple[int, str]]:
    """The chat's log, verified: (seq, actor) per entry."""
    async with UnitOfWork(create_session_factory(engine)) as uow:
        exported = await roll_service.export(uow, chat)
    assert exported is not None and verify_export(exported).ok
    return [(e.seq, e.actor) for e in exported.entries]


async def _remembered(h: Harness) -> None:
    """Alice and Bob in a group, each with a roll behind them: the next is remembered."""
    h.emu.add_user(ALICE, "Alice", language_code="en")
    h.emu.add_user(BOB, "Bob", language_code="en")
    h.emu.add_group(GROUP, "Table", members=[ALICE, BOB], creator=ALICE)
    for user in (ALICE, BOB, ALICE, BOB):  # the first opens the log; each then peeks once
        await _roll(h, user, GROUP)
    _, statements = await _roll(h, ALICE, GROUP)
    assert statements == [APPEND]  # remembered: one statement


async def test_a_roll_after_others_in_its_chat_is_still_one_statement(running: Harness) -> None:
    """Bob's appends move the head Alice's rows were remembered with; this process made them,
    so it knows the head they made."""
    await _remembered(running)
    for user in (BOB, ALICE, BOB, ALICE):
        _, statements = await _roll(running, user, GROUP)
        assert statements == [APPEND]
    assert [seq for seq, _ in await _chain(running.engine, GROUP)] == list(range(1, 10))


Change = Callable[[Harness], Awaitable[None]]


async def _rename(h: Harness) -> None:
    await _sql(h.engine, "UPDATE users SET display_name = 'Lady Alice' WHERE id = :u", u=ALICE)


async def _group_language(h: Harness) -> None:
    await _sql(h.engine, "UPDATE chats SET locale = 'ru' WHERE id = :c", c=GROUP)


async def _new_game(h: Harness) -> None:
    await _sql(
        h.engine,
        "INSERT INTO games (chat_id, system, title, gm_user_id, timezone) "
        "VALUES (:c, 'fate', 'New', :u, 'UTC')",
        c=GROUP, u=BOB,
    )  # fmt: skip


async def _joined(h: Harness) -> None:
    await _new_game(h)
    await _sql(
        h.engine,
        "INSERT INTO game_members (game_id, user_id, role) "
        "SELECT id, :u, 'player' FROM games WHERE chat_id = :c",
        c=GROUP, u=ALICE,
    )  # fmt: skip


async def _fsm_state(h: Harness) -> None:
    assert h.runtime is not None
    key = DefaultKeyBuilder(with_bot_id=True, with_destiny=True).build(
        StorageKey(bot_id=h.runtime.bot.id, chat_id=GROUP, user_id=ALICE)
    )
    await _sql(h.engine, "INSERT INTO fsm_states (key, state) VALUES (:k, 'SomeSG:step')", k=key)


@pytest.mark.parametrize(
    "change", [_rename, _group_language, _new_game, _joined, _fsm_state],
    ids=["sender", "chat", "game", "membership", "fsm"],
)  # fmt: skip
async def test_rows_changed_elsewhere_are_read_again(running: Harness, change: Change) -> None:
    """Another process (here: plain SQL) changes a row the remembered /r was handled with: its
    append writes nothing, and the update is handled again from a fresh read."""
    await _remembered(running)
    await change(running)
    reply, statements = await _roll(running, ALICE, GROUP)
    assert statements[0] == APPEND  # checked against the remembered rows: refused
    assert PEEK in statements[1:] and statements[-1] == APPEND  # read again, then appended
    chain = await _chain(running.engine, GROUP)
    assert [seq for seq, _ in chain] == list(range(1, 7))  # one entry for the update
    replies = [m.text for m in running.emu.bot_messages(GROUP) if _seq(m.text) == 6]
    assert replies == [reply]  # one reply
    # and the next one is remembered again, with the rows as they are now
    _, statements = await _roll(running, ALICE, GROUP)
    assert statements == [APPEND]


async def test_the_new_name_is_logged_and_shown(running: Harness) -> None:
    await _remembered(running)
    await _rename(running)
    reply, _ = await _roll(running, ALICE, GROUP)
    assert "Lady Alice" in reply
    assert (await _chain(running.engine, GROUP))[-1] == (6, "Lady Alice")


async def test_a_language_set_elsewhere_is_spoken(running: Harness) -> None:
    await _remembered(running)
    await _group_language(running)
    reply, _ = await _roll(running, ALICE, GROUP)
    assert "Журнал №6" in reply


async def test_a_renamed_sender_writes_first_and_is_checked_at_that_claim(
    running: Harness,
) -> None:
    """Telegram says Alice has a new name: the sender's row is written before the roll, and
    that write's claim is where the remembered rows are checked (unchanged: it goes on)."""
    await _remembered(running)
    running.emu.user(ALICE).first_name = "Alicia"
    reply, statements = await _roll(running, ALICE, GROUP)
    assert PEEK not in statements  # the rows were still those remembered
    assert statements[:2] == ["BEGIN;", "WITH claim AS"]  # claimed (and checked) first
    assert "Alicia" in reply
    assert (await _chain(running.engine, GROUP))[-1] == (6, "Alicia")


async def test_a_head_moved_by_another_process_takes_the_locked_path(running: Harness) -> None:
    await _remembered(running)
    async with UnitOfWork(create_session_factory(running.engine)) as uow:  # another worker
        await roll_service.roll_logged(
            uow, chat_id=GROUP, roll_id="elsewhere", text="1d6", actor="Elsewhere",
            subject="Elsewhere", actor_user_id=None,
        )  # fmt: skip
    reply, statements = await _roll(running, ALICE, GROUP)
    assert statements[0] == APPEND and "COMMIT;" in statements  # refused, then locked
    assert "Log #7" in reply
    chain = await _chain(running.engine, GROUP)
    assert chain[-2:] == [(6, "Elsewhere"), (7, "Alice")]
    _, statements = await _roll(running, ALICE, GROUP)  # the head it made is remembered
    assert statements == [APPEND]


async def test_a_reveal_elsewhere_moves_the_roll_to_the_next_epoch(running: Harness) -> None:
    """The remembered head's epoch was revealed meanwhile (its seed is public now): the roll
    rolled from it is refused at the append and rolled again from the next epoch's seed."""
    await _remembered(running)
    async with UnitOfWork(create_session_factory(running.engine)) as uow:  # another worker
        revealed = await roll_service.reveal(uow, GROUP)
    await _roll(running, ALICE, GROUP)
    async with UnitOfWork(create_session_factory(running.engine)) as uow:
        exported = await roll_service.export(uow, GROUP)
    assert exported is not None and verify_export(exported).ok
    assert exported.entries[-1].epoch == revealed.opened.epoch
    assert [e.epoch for e in exported.entries[:-1]] == [revealed.closed.epoch] * 5


async def test_a_redelivered_remembered_roll_is_not_rolled_again(running: Harness) -> None:
    await _remembered(running)
    sent = running.emu.send_text(ALICE, GROUP, "/r 4dF+2")
    await running.emu.wait_bot_message(GROUP, contains="Log #6", after=sent.message_id)
    await running.emu.wait_idle()
    running.emu.redeliver(sent.update_id)
    await running.emu.wait_idle()
    assert len(await _chain(running.engine, GROUP)) == 6
    assert sum("Log #6" in m.text for m in running.emu.bot_messages(GROUP)) == 1
    assert sum("Log #" in m.text for m in running.emu.bot_messages(GROUP)) == 6


async def test_a_restarted_process_reads_again(running: Harness) -> None:
    await _remembered(running)
    await running.restart()
    _, statements = await _roll(running, ALICE, GROUP)
    assert PEEK in statements
    _, statements = await _roll(running, ALICE, GROUP)
    assert statements == [APPEND]


def _seq(reply: str) -> int | None:
    found = re.search(r"(?:Log #|Журнал №)(\d+)", reply)
    return int(found.group(1)) if found else None


# --- the cache itself -----------------------------------------------------------------------


def _prefetched(stamp: str | None) -> Prefetched:
    return Prefetched(user=None, chat=None, game=None, role=None, fsm=[], stamp=stamp)


def _head(log_id: int) -> LogHead:
    return LogHead(log_id=log_id, epoch=None, existing=None, last=None)


def test_the_cache_needs_both_the_rows_and_the_head() -> None:
    cache = ExpressCache()
    key = context_key(1, ALICE, GROUP, ["k"])
    assert cache.lookup(key, GROUP) is None
    cache.keep_context(key, _prefetched("s"))
    assert cache.lookup(key, GROUP) is None  # no head known for the chat
    cache.keep_head(GROUP, _head(5))
    assert cache.lookup(key, GROUP) == (_prefetched("s"), _head(5))
    assert cache.lookup(context_key(1, ALICE, GROUP, ["other"]), GROUP) is None
    cache.forget(key)
    assert cache.lookup(key, GROUP) is None


def test_rows_without_a_stamp_are_not_remembered() -> None:
    cache = ExpressCache()
    key = context_key(1, ALICE, GROUP, [])
    cache.keep_head(GROUP, _head(5))
    cache.keep_context(key, _prefetched(None))  # read by a claim: nothing to check them by
    assert cache.lookup(key, GROUP) is None


def test_the_cache_is_bounded_least_recently_used_out_first() -> None:
    cache = ExpressCache(size=2)
    keys = [context_key(1, user, user, []) for user in (1, 2, 3)]
    for user, key in zip((1, 2), keys, strict=False):
        cache.keep_context(key, _prefetched(f"s{user}"))
        cache.keep_head(user, _head(user))
    assert cache.lookup(keys[0], 1) is not None  # used: now the most recent
    cache.keep_context(keys[2], _prefetched("s3"))
    cache.keep_head(3, _head(3))
    assert cache.lookup(keys[1], 2) is None  # the least recently used went
    assert cache.lookup(keys[0], 1) is not None and cache.lookup(keys[2], 3) is not None


# --- the stamp --------------------------------------------------------------------------------


async def _stamp(engine: AsyncEngine, keys: list[str]) -> str:
    return str(
        await _sql(engine, "SELECT roll_context_stamp(:u, :c, :k)", u=ALICE, c=GROUP, k=keys)
    )


async def test_the_stamp_changes_with_each_row_and_only_then(clean_db: AsyncEngine) -> None:
    engine = clean_db
    keys = ["fsm:a", "fsm:b"]
    stamps = [await _stamp(engine, keys)]
    steps = [
        "INSERT INTO users (id, first_name) VALUES (1001, 'Alice')",
        "INSERT INTO chats (id, type, title) VALUES (-300700, 'supergroup', 'Table')",
        "INSERT INTO games (chat_id, system, title, gm_user_id, timezone) "
        "VALUES (-300700, 'fate', 'G', 1, 'UTC')",
        "INSERT INTO game_members (game_id, user_id, role) SELECT id, 1001, 'player' FROM games",
        "INSERT INTO fsm_states (key, state) VALUES ('fsm:b', 'S:one')",
        "UPDATE fsm_states SET state = 'S:two'",
        "UPDATE game_members SET role = 'gm'",
        "UPDATE games SET title = 'G2'",
        "UPDATE chats SET locale = 'ru'",
        "UPDATE users SET display_name = 'A'",
        "UPDATE games SET archived_at = now()",
    ]
    for step in steps:
        await _sql(engine, step)
        stamps.append(await _stamp(engine, keys))
    assert len(set(stamps)) == len(stamps)  # every change is seen
    # rows of others, FSM keys not asked for, another chat's game: the same stamp
    await _sql(engine, "INSERT INTO users (id, first_name) VALUES (1002, 'Bob')")
    await _sql(engine, "INSERT INTO fsm_states (key, state) VALUES ('fsm:c', 'S:one')")
    await _sql(
        engine,
        "INSERT INTO games (chat_id, system, title, gm_user_id, timezone) "
        "VALUES (5, 'fate', 'X', 1, 'UTC')",
    )
    assert await _stamp(engine, keys) == stamps[-1]


async def test_the_stamp_is_plpgsql_so_its_plan_is_kept(clean_db: AsyncEngine) -> None:
    """Every remembered /r calls the stamp. As a SQL function with subqueries PostgreSQL planned
    it again on every call (twice the server's CPU of the whole append; migration 0015)."""
    language = await _sql(
        clean_db,
        "SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
        "WHERE p.proname = 'roll_context_stamp'",
    )
    assert language == "plpgsql"
