"""A forum group with two games in two topics, over the emulator and Postgres."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from bot import jobs
from bot.i18n import I18n
from bot.services import schedules as schedule_service
from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.common import name_key
from engine.systems import fate
from handlers.views import job_notices
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, buttons
from tgemu import ChatMessage

FORUM = -100700
CREATED = datetime(2027, 3, 27, 12, tzinfo=UTC)
DUE = datetime(2027, 3, 27, 18, 0, 1, tzinfo=UTC)  # 21:00:01 in Moscow, the games' zone


@dataclass(frozen=True)
class Forum:
    dragons: int  # the topics' thread ids
    shadows: int
    dragons_game: int  # the games' ids
    shadows_game: int


def in_topic(h: Harness, thread_id: int | None, after: int = 0) -> list[ChatMessage]:
    """The bot's messages in the forum's topic (None: «General») after ``after``."""
    return [
        m for m in h.emu.bot_messages(FORUM) if m.thread_id == thread_id and m.message_id > after
    ]


def last_id(h: Harness) -> int:
    return max((m.message_id for m in h.emu.chat_messages(FORUM)), default=0)


async def new_game_in(h: Harness, thread_id: int, system: str, title: str) -> ChatMessage:
    """The GM's /newgame in the topic; the announcement (in the topic)."""
    emu = h.emu
    sent = emu.send_text(GM, FORUM, f"/newgame {title}", thread_id=thread_id)
    picker = await emu.wait_for(
        lambda: next((m for m in in_topic(h, thread_id, sent.message_id) if "FATE" in m.text),
                     None)
    )  # fmt: skip
    index = next(
        i for i, b in enumerate(buttons(picker)) if b["callback_data"].startswith(f"ng:{system}:")
    )
    pressed = emu.press_button(GM, FORUM, picker.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    return await emu.wait_for(
        lambda: next(
            (m for m in in_topic(h, thread_id, sent.message_id) if "url" in str(buttons(m))),
            None,
        )
    )


async def game_of(h: Harness, thread_id: int) -> int:
    async with h.engine.connect() as conn:
        found = await conn.execute(
            text("SELECT id FROM games WHERE chat_id = :c AND thread_id = :t"),
            {"c": FORUM, "t": thread_id},
        )
        return int(found.scalar_one())


async def forum_table(h: Harness) -> Forum:
    """GM, Alice and Bob in a forum group; «Драконы» (fate) and «Тени» (cliche) each in its
    own topic. The GM has started the bot privately."""
    emu = h.emu
    emu.add_user(GM, "Мастер", language_code="ru").started = True
    emu.add_user(ALICE, "Alice", language_code="en").started = True
    emu.add_user(BOB, "Bob", language_code="en")
    emu.add_group(FORUM, "Форум", members=[GM, ALICE, BOB], creator=GM, forum=True)
    dragons = emu.create_topic(GM, FORUM, "Драконы").message_id
    shadows = emu.create_topic(GM, FORUM, "Тени").message_id
    await new_game_in(h, dragons, "fate", "Драконы")
    await new_game_in(h, shadows, "cliche", "Тени")
    return Forum(dragons, shadows, await game_of(h, dragons), await game_of(h, shadows))


async def fate_character(h: Harness, game_id: int, owner: int = ALICE, name: str = "Мира") -> int:
    """An active fate character of ``owner`` (seated as a player) in the game."""
    sheet = fate.new_character(name).model_copy(
        update={"fate_points": 1, "refresh": 3, "skills": {fate.Skill.ATHLETICS: 2,
                                                            fate.Skill.FIGHT: 3}}
    )  # fmt: skip
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                "ON CONFLICT DO NOTHING"
            ),
            {"g": game_id, "u": owner},
        )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) VALUES (:g, :u, false, "
                "'fate', :name, :key, 'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {"g": game_id, "u": owner, "name": name, "key": name_key(name),
             "sheet": sheet.model_dump_json(),
             "schema": SYSTEMS["fate"].schema_version},
        )  # fmt: skip
        return int(row.scalar_one())


async def daily_schedule(h: Harness, game_id: int, *, remind: int | None = None) -> int:
    """A «minor» milestone every day at 21:00 (Moscow), made at ``CREATED``."""
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.get(game_id)
        assert game is not None
        schedule = await schedule_service.create(
            uow, game, kind="minor", weekday=None, minute_of_day=21 * 60,
            remind_minutes=remind, created_by=GM, now=lambda: CREATED,
        )  # fmt: skip
        return schedule.id


def job_context(h: Harness, at: datetime) -> jobs.JobContext:
    assert h.runtime is not None
    return jobs.JobContext(
        create_session_factory(h.engine), h.runtime.bot, I18n("ru"), lambda: at,
        views=job_notices,
    )  # fmt: skip


async def held_as(h: Harness, game_id: int, value: str | None) -> bool:
    """Whether the game is held for ``value`` once the update that changes it committed (the
    bot tells the GM before its update's transaction commits)."""
    async with asyncio.timeout(10):
        while await held(h, game_id) != value:
            await asyncio.sleep(0.01)
    return True


async def held(h: Harness, game_id: int) -> str | None:
    async with h.engine.connect() as conn:
        found = await conn.execute(text("SELECT held FROM games WHERE id = :g"), {"g": game_id})
        return found.scalar_one()  # type: ignore[no-any-return]


async def delete_topic_found(h: Harness, thread_id: int) -> None:
    """The topic is deleted (Telegram tells bots nothing), and the bot finds it out when a
    request's deadline notice is refused there: the game is held as ``topic_gone``."""
    emu = h.emu
    said = emu.send_text(ALICE, FORUM, "тут", thread_id=thread_id)
    emu.send_text(GM, FORUM, "/request 3d6 in 2h", reply_to=said.message_id)
    await emu.wait_for(lambda: any("⏳" in m.text for m in in_topic(h, thread_id)))
    emu.delete_topic(FORUM, thread_id)
    async with h.engine.connect() as conn:
        deadline = (await conn.execute(text("SELECT max(deadline) FROM roll_requests"))).scalar()
    await jobs.request_deadlines(context=job_context(h, deadline - timedelta(minutes=30)))
