"""A game the bot cannot post for is held, not retried: a closed or deleted topic, the bot
removed from the group, a player who blocked the bot. The GM is told once, in private;
scheduled milestones wait; reopening the topic or adding the bot back resumes them."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import text

from bot import jobs
from bot.delivery import Delivery
from bot.i18n import I18n
from db.database import create_session_factory
from db.uow import UnitOfWork
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM
from tests.helpers.table import scalar
from tests.topics.helpers import (
    DUE,
    FORUM,
    daily_schedule,
    delete_topic_found,
    fate_character,
    forum_table,
    held,
    held_as,
    in_topic,
    job_context,
    last_id,
)


def _gm_told(h: Harness, words: str) -> int:
    return sum(words in m.text for m in h.emu.bot_messages(GM))


def _posts_to_forum(h: Harness) -> int:
    return len([c for c in h.emu.calls_to("sendMessage") if str(c.chat_id) == str(FORUM)])


async def _applied(h: Harness, schedule_id: int) -> int:
    async with h.engine.connect() as conn:
        found = await conn.execute(
            text("SELECT count(*) FROM schedule_occurrences WHERE schedule_id = :s"),
            {"s": schedule_id},
        )
        return int(found.scalar_one())


async def test_a_closed_topic_holds_its_schedule_until_reopened(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game)
    schedule = await daily_schedule(h, forum.dragons_game)

    emu.close_topic(GM, FORUM, forum.dragons)  # forum_topic_closed reaches the bot
    await emu.wait_for(lambda: _gm_told(h, "закрыта") == 1)
    assert await held_as(h, forum.dragons_game, "topic_closed")
    assert await held(h, forum.shadows_game) is None  # the other topic's game goes on

    posts = _posts_to_forum(h)
    for day in range(2):  # due twice while closed: nothing posted, nothing applied, told once
        await jobs.fire_schedule(schedule, context=job_context(h, DUE + timedelta(days=day)))
    await emu.wait_idle()
    assert _posts_to_forum(h) == posts and await _applied(h, schedule) == 0
    assert _gm_told(h, "закрыта") == 1

    mark = last_id(h)
    emu.close_topic(GM, FORUM, forum.dragons, closed=False)  # reopened
    await emu.wait_for(lambda: _gm_told(h, "снова") == 1)
    assert await held_as(h, forum.dragons_game, None)
    await jobs.fire_schedule(schedule, context=job_context(h, DUE + timedelta(days=1)))
    notice = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert notice.thread_id == forum.dragons and await _applied(h, schedule) >= 1


async def test_a_refused_post_holds_the_game_once(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game)
    schedule = await daily_schedule(h, forum.dragons_game)
    # the topic closed without the bot hearing of it: the post is refused
    emu.chat(FORUM).topics[forum.dragons].closed = True
    await jobs.fire_schedule(schedule, context=job_context(h, DUE))
    await emu.wait_for(lambda: _gm_told(h, "закрыта") == 1)
    refused = [c for c in emu.calls_to("sendMessage") if not c.ok]
    assert [c.description for c in refused] == ["Bad Request: TOPIC_CLOSED"]
    assert await held(h, forum.dragons_game) == "topic_closed"
    await jobs.fire_schedule(schedule, context=job_context(h, DUE + timedelta(days=1)))
    await emu.wait_idle()
    assert len([c for c in emu.calls_to("sendMessage") if not c.ok]) == 1  # never retried
    assert _gm_told(h, "закрыта") == 1

    # a deleted topic: the request deadline's notice finds no thread
    await delete_topic_found(h, forum.shadows)
    await emu.wait_for(lambda: _gm_told(h, "удалили") == 1)
    assert await held(h, forum.shadows_game) == "topic_gone"
    assert emu.calls_to("sendMessage")[-2].description == "Bad Request: message thread not found"


async def test_the_bot_removed_pauses_schedules_until_added_back(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game)
    schedule = await daily_schedule(h, forum.dragons_game)

    emu.remove_bot(FORUM, GM)  # my_chat_member: kicked
    await emu.wait_for(lambda: _gm_told(h, "Бота убрали") == 2)  # one word per game
    assert await held_as(h, forum.dragons_game, "removed")
    assert await held(h, forum.shadows_game) == "removed"
    posts = _posts_to_forum(h)
    await jobs.fire_schedule(schedule, context=job_context(h, DUE))
    await emu.wait_idle()
    assert _posts_to_forum(h) == posts and await _applied(h, schedule) == 0

    mark = last_id(h)
    emu.add_bot(FORUM, GM)  # my_chat_member: a member again
    await emu.wait_for(lambda: _gm_told(h, "снова") == 2)
    assert await held_as(h, forum.dragons_game, None)
    await jobs.fire_schedule(schedule, context=job_context(h, DUE))
    await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert await _applied(h, schedule) == 1
    assert _gm_told(h, "Бота убрали") == 2


async def test_a_player_who_blocked_the_bot_is_skipped_and_the_gm_told_once(
    running: Harness,
) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game)
    emu.send_text(ALICE, FORUM, "привет", thread_id=forum.dragons)
    await emu.wait_idle()
    assert h.runtime is not None
    bot = h.runtime.bot
    delivery = Delivery(create_session_factory(h.engine), I18n("ru"))
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.get(forum.dragons_game)
    assert game is not None

    emu.block_bot(ALICE)  # found out by a refused notice
    assert await delivery.private(bot, ALICE, "one", game=game) is None
    assert await delivery.private(bot, ALICE, "two", game=game) is None
    await emu.wait_idle()
    to_alice = [c for c in emu.calls_to("sendMessage") if c.chat_id == ALICE]
    assert [c.description for c in to_alice] == ["Forbidden: bot was blocked by the user"]
    assert _gm_told(h, "бот заблокирован") == 1

    emu.block_bot(ALICE, False, notify=True)  # my_chat_member: unblocked
    async with asyncio.timeout(10):  # once its update committed
        while await scalar(h, "SELECT blocked_at FROM users WHERE id = :u", u=ALICE):
            await asyncio.sleep(0.01)
    sent = await delivery.private(bot, ALICE, "three", game=game)
    assert sent is not None and emu.last_bot_message(ALICE).text == "three"

    emu.block_bot(ALICE, notify=True)  # my_chat_member: blocked again — the GM told then
    await emu.wait_for(lambda: _gm_told(h, "бот заблокирован") == 2)
    await emu.wait_idle()

    def to_alice() -> int:
        return len([c for c in emu.calls_to("sendMessage") if c.chat_id == ALICE])

    calls = to_alice()
    assert await delivery.private(bot, ALICE, "four", game=game) is None
    await emu.wait_idle()
    assert to_alice() == calls  # skipped without a call


async def test_polling_asks_for_my_chat_member(running: Harness) -> None:
    await forum_table(running)
    assert running.runtime is not None
    assert "my_chat_member" in running.runtime.dispatcher.resolve_used_update_types()
    asked = running.emu.calls_to("getUpdates")[-1].params.get("allowed_updates") or []
    assert "my_chat_member" in asked
