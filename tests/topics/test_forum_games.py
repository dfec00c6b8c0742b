"""A forum group with two games, each in its own topic: commands act on their topic's game,
and everything the bot posts for a game — replies and its own posts — lands in that topic."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import text

from bot import jobs
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, buttons
from tests.topics.helpers import (
    DUE,
    FORUM,
    daily_schedule,
    fate_character,
    forum_table,
    in_topic,
    job_context,
    last_id,
)


async def test_each_topic_has_its_game_and_general_names_them(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT title, thread_id FROM games WHERE chat_id = :c ORDER BY id"), {"c": FORUM}
        )
        assert [tuple(r) for r in rows] == [
            ("Драконы", forum.dragons), ("Тени", forum.shadows)
        ]  # fmt: skip

    for thread, title, other in (
        (forum.dragons, "Драконы", "Тени"), (forum.shadows, "Тени", "Драконы")
    ):  # fmt: skip
        mark = last_id(h)
        emu.send_text(ALICE, FORUM, "/game", thread_id=thread)
        card = await emu.wait_for(lambda t=thread, m=mark: next(iter(in_topic(h, t, m)), None))
        assert title in card.text and other not in card.text

    # «General» has no game: /game and a GM's command say where the games are
    for user, command in ((ALICE, "/game"), (GM, "/options"), (GM, "/request 2d6")):
        mark = last_id(h)
        emu.send_text(user, FORUM, command)
        answer = await emu.wait_for(lambda m=mark: next(iter(in_topic(h, None, m)), None))
        assert "Здесь игры нет" in answer.text or "There is no game here" in answer.text
        assert "Драконы" in answer.text and "Тени" in answer.text
        assert f"https://t.me/c/700/{forum.dragons}" in answer.html

    # a second game in a topic that has one is refused; a third topic takes one
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/newgame Ещё", thread_id=forum.dragons)
    refused = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "FATE" not in refused.text


async def test_every_post_of_a_game_goes_to_its_topic(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game)

    # a roll request: the card, the GM's gate for rolling for the player, the roll
    said = emu.send_text(ALICE, FORUM, "готова", thread_id=forum.dragons)
    emu.send_text(GM, FORUM, "/request 4dF in 2h: прыжок", reply_to=said.message_id)
    card = await emu.wait_for(
        lambda: next((m for m in in_topic(h, forum.dragons, said.message_id) if "⏳" in m.text),
                     None)
    )  # fmt: skip
    mark = last_id(h)
    pressed = emu.press_button(GM, FORUM, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    gate = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert buttons(gate)  # «Roll for the player?» with its buttons, in the topic

    # a sealed secret roll in the other topic
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/sroll 2d6", thread_id=forum.shadows)
    seal = await emu.wait_for(lambda: next(iter(in_topic(h, forum.shadows, mark)), None))
    assert buttons(seal)

    # the bot's own posts: a scheduled milestone's notice, its reminder, a deadline notice
    schedule = await daily_schedule(h, forum.dragons_game)
    mark = last_id(h)
    await jobs.fire_schedule(schedule, context=job_context(h, DUE))
    notice = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Мира" in notice.text or "веха" in notice.text.lower()
    async with h.engine.connect() as conn:
        deadline = (
            await conn.execute(text("SELECT deadline FROM roll_requests ORDER BY id DESC"))
        ).scalar_one()
    mark = last_id(h)
    await jobs.request_deadlines(context=job_context(h, deadline - timedelta(minutes=30)))
    nudge = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert nudge.reply_to == card.message_id
    # nothing of either game went to «General» or to the other game's topic
    assert in_topic(h, None) == []
    assert all("Драконы" not in m.text for m in in_topic(h, forum.shadows))


async def test_a_card_and_its_repost_stay_in_their_topic(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game, ALICE, "Мира")
    await fate_character(h, forum.dragons_game, BOB, "Бран")
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/opposed Мира: Атлетика | Бран: Бой", thread_id=forum.dragons)
    card = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Мира" in card.text and buttons(card)
    await emu.wait_idle()
    mark = last_id(h)  # a fight, then /tracker re-posts it at the bottom of the topic
    emu.send_text(GM, FORUM, "/conflict Склад: Темно | Крыша: Скользко", thread_id=forum.dragons)
    fight = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Склад" in fight.text and buttons(fight)
    await emu.wait_idle()
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/tracker", thread_id=forum.dragons)
    again = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Склад" in again.text and buttons(again)
    # a scheduled milestone due during the fight waits for its end, and says so in the topic
    schedule = await daily_schedule(h, forum.dragons_game)
    mark = last_id(h)
    await jobs.fire_schedule(schedule, context=job_context(h, DUE))
    waiting = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert waiting.thread_id == forum.dragons
    # the other topic's game has no card: its /tracker says so there
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/tracker", thread_id=forum.shadows)
    none = await emu.wait_for(lambda: next(iter(in_topic(h, forum.shadows, mark)), None))
    assert "Склад" not in none.text
    assert in_topic(h, None) == []


async def test_archiving_one_topics_game_leaves_the_other(running: Harness) -> None:
    h, emu = running, running.emu
    forum = await forum_table(h)

    async def press(message_id: int, prefix: str) -> None:
        message = next(m for m in emu.bot_messages(FORUM) if m.message_id == message_id)
        index = next(
            i for i, b in enumerate(buttons(message))
            if b.get("callback_data", "").startswith(prefix)
        )  # fmt: skip
        pressed = emu.press_button(GM, FORUM, message_id, index)
        await emu.wait_callback_answer(pressed.callback_query_id)

    mark = last_id(h)
    emu.send_text(GM, FORUM, "/game", thread_id=forum.shadows)
    card = await emu.wait_for(lambda: next(iter(in_topic(h, forum.shadows, mark)), None))
    mark = last_id(h)
    await press(card.message_id, f"arc:{forum.shadows_game}:0")  # the press finds its game
    question = await emu.wait_for(lambda: next(iter(in_topic(h, forum.shadows, mark)), None))
    await press(question.message_id, f"arc:{forum.shadows_game}:1")
    await emu.wait_for(
        lambda: "/newgame" in next(
            m.text for m in emu.bot_messages(FORUM) if m.message_id == question.message_id
        )
    )  # fmt: skip

    async def live() -> list[str]:
        async with h.engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT title FROM games WHERE chat_id = :c AND archived_at IS NULL"),
                {"c": FORUM},
            )
            return [r[0] for r in rows]

    async with asyncio.timeout(10):  # once the press's update committed
        while await live() != ["Драконы"]:
            await asyncio.sleep(0.01)
    # the archived topic may start a new game; the other topic's game is untouched
    mark = last_id(h)
    emu.send_text(GM, FORUM, "/game", thread_id=forum.dragons)
    still = await emu.wait_for(lambda: next(iter(in_topic(h, forum.dragons, mark)), None))
    assert "Драконы" in still.text


async def test_a_sheet_roll_reads_its_topics_game(running: Harness) -> None:
    """/r by a trait: the fast path reads the game of the message's topic, remembered or not."""
    h, emu = running, running.emu
    forum = await forum_table(h)
    await fate_character(h, forum.dragons_game, ALICE, "Мира")
    for thread, mine in ((forum.dragons, True), (forum.shadows, False), (forum.dragons, True)):
        sent = emu.send_text(ALICE, FORUM, "/r Атлетика", thread_id=thread).message_id
        answer = await emu.wait_for(
            lambda t=thread, s=sent: next((m for m in in_topic(h, t, s) if m.reply_to == s), None)
        )
        assert ("Мира" in answer.text) is mine, answer.text
        await emu.wait_idle()
