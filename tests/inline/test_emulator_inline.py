"""The emulator's inline mode against a real aiogram Bot: Telegram's limits and wording."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)

from tests.emulator.conftest import close_bot, make_bot
from tgemu import BotAPIEmulator

ALICE = 1001


@pytest.fixture
async def emu() -> AsyncIterator[BotAPIEmulator]:
    emulator = BotAPIEmulator("123456:TEST-TOKEN")
    emulator.add_user(ALICE, "Alice", language_code="ru")
    await emulator.start()
    yield emulator
    await emulator.stop()


@pytest.fixture
async def bot(emu: BotAPIEmulator) -> AsyncIterator[Bot]:
    client = make_bot(emu)
    yield client
    await close_bot(client)


def article(result_id: str, *, keyboard: bool = True) -> InlineQueryResultArticle:
    markup = None
    if keyboard:
        button = InlineKeyboardButton(text="🎲", callback_data=f"r:{result_id}"[:64])
        markup = InlineKeyboardMarkup(inline_keyboard=[[button]])
    return InlineQueryResultArticle(
        id=result_id,
        title=f"Roll {result_id}",
        input_message_content=InputTextMessageContent(message_text="<b>rolling…</b>"),
        reply_markup=markup,
    )


async def _update(bot: Bot, kind: str) -> dict:  # type: ignore[type-arg]
    updates = await bot.get_updates(timeout=0)
    assert updates, "no update"
    await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    dumped = updates[-1].model_dump(exclude_none=True)
    assert kind in dumped
    return dumped[kind]


async def test_query_answer_choice_and_edit(emu: BotAPIEmulator, bot: Bot) -> None:
    asked = emu.inline_query(ALICE, "2d6 атака", chat_type="group")
    query = await _update(bot, "inline_query")
    assert query["id"] == asked.inline_query_id and query["query"] == "2d6 атака"
    assert query["chat_type"] == "group" and query["from_user"]["id"] == ALICE
    assert emu.inline_answer(asked.inline_query_id) is None
    await bot.answer_inline_query(
        asked.inline_query_id, [article("a"), article("b", keyboard=False)], cache_time=0,
        is_personal=True,
    )  # fmt: skip
    record = emu.inline_query_record(asked.inline_query_id)
    assert record.cache_time == 0 and record.is_personal
    assert [r["id"] for r in emu.inline_answer(asked.inline_query_id) or []] == ["a", "b"]

    chosen = emu.choose_inline_result(ALICE, asked.inline_query_id, "a")
    assert chosen.inline_message_id is not None
    report = await _update(bot, "chosen_inline_result")
    assert report == {
        "result_id": "a", "from_user": report["from_user"], "query": "2d6 атака",
        "inline_message_id": chosen.inline_message_id,
    }  # fmt: skip
    sent = emu.inline_message(chosen.inline_message_id)
    assert sent.text == "rolling…" and sent.edits == 0
    assert (
        await bot.edit_message_text("rolled <i>7</i>", inline_message_id=chosen.inline_message_id)
        is True
    )
    assert sent.text == "rolled 7" and sent.buttons() == []  # no reply_markup: keyboard gone
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("rolled <i>7</i>", inline_message_id=chosen.inline_message_id)
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="log", url="https://t.me/x")]]
    )
    assert (
        await bot.edit_message_reply_markup(
            inline_message_id=chosen.inline_message_id, reply_markup=markup
        )
        is True
    )
    assert sent.buttons()[0]["url"] == "https://t.me/x"
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id="nonexistent")

    # a result without a keyboard: sent, but no inline_message_id (as on Telegram)
    plain = emu.choose_inline_result(ALICE, asked.inline_query_id, "b")
    assert plain.inline_message_id is None
    assert "inline_message_id" not in await _update(bot, "chosen_inline_result")


async def test_a_press_on_an_inline_message(emu: BotAPIEmulator, bot: Bot) -> None:
    asked = emu.inline_query(ALICE, "d20")
    await bot.answer_inline_query(asked.inline_query_id, [article("a")])
    chosen = emu.choose_inline_result(ALICE, asked.inline_query_id, "a")
    assert chosen.inline_message_id is not None
    pressed = emu.press_inline(ALICE, chosen.inline_message_id, 0)
    updates = await bot.get_updates(timeout=0)
    query = updates[-1].callback_query
    assert query is not None and query.message is None
    assert query.inline_message_id == chosen.inline_message_id and query.data == "r:a"
    assert await bot.answer_callback_query(pressed.callback_query_id, text="ok")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(pressed.callback_query_id)


async def test_feedback_off_sends_no_chosen_result(emu: BotAPIEmulator, bot: Bot) -> None:
    emu.inline_feedback = False
    asked = emu.inline_query(ALICE, "d20")
    await bot.answer_inline_query(asked.inline_query_id, [article("a")])
    await bot.get_updates(offset=asked.update_id + 1, timeout=0)
    chosen = emu.choose_inline_result(ALICE, asked.inline_query_id, "a")
    assert chosen.update_id is None and chosen.inline_message_id is not None
    assert await bot.get_updates(offset=asked.update_id + 1, timeout=0) == []


async def test_inline_updates_obey_allowed_updates(emu: BotAPIEmulator, bot: Bot) -> None:
    emu.inline_query(ALICE, "d20")
    assert await bot.get_updates(timeout=0, allowed_updates=["message"]) == []
    emu.inline_query(ALICE, "d6")
    updates = await bot.get_updates(timeout=0, allowed_updates=["inline_query"])
    assert [u.inline_query.query for u in updates if u.inline_query] == ["d6"]


@pytest.mark.parametrize(
    ("results", "error"),
    [
        ([article(str(i)) for i in range(51)], "RESULTS_TOO_MUCH"),
        ([article("x" * 65)], "RESULT_ID_INVALID"),
        ([article("я" * 33)], "RESULT_ID_INVALID"),  # 66 bytes
        ([article("a"), article("a")], "RESULT_ID_DUPLICATE"),
    ],
)
@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_answer_limits(
    emu: BotAPIEmulator, bot: Bot, results: list[InlineQueryResultArticle], error: str
) -> None:
    asked = emu.inline_query(ALICE, "d20")
    with pytest.raises(TelegramBadRequest, match=error):
        await bot.answer_inline_query(asked.inline_query_id, results)
    assert emu.inline_answer(asked.inline_query_id) is None  # refused: still unanswered
    await bot.answer_inline_query(asked.inline_query_id, [article(str(i)) for i in range(50)])


async def test_one_answer_within_the_lifetime(emu: BotAPIEmulator, bot: Bot) -> None:
    asked = emu.inline_query(ALICE, "d20")
    await bot.answer_inline_query(asked.inline_query_id, [article("a")])
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query(asked.inline_query_id, [article("b")])
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query("424242", [article("b")])
    emu.inline_query_ttl = 0.0
    late = emu.inline_query(ALICE, "d20")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query(late.inline_query_id, [article("a")])


async def test_a_query_holds_at_most_256_characters(emu: BotAPIEmulator) -> None:
    emu.inline_query(ALICE, "d" * 256)
    with pytest.raises(ValueError, match="256"):
        emu.inline_query(ALICE, "d" * 257)
    emu.inline_mode = False
    with pytest.raises(ValueError, match="setinline"):
        emu.inline_query(ALICE, "d20")


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_answer_content_is_checked(emu: BotAPIEmulator, bot: Bot) -> None:
    asked = emu.inline_query(ALICE, "d20")
    broken = InlineQueryResultArticle(
        id="a", title="t", input_message_content=InputTextMessageContent(message_text="<x>")
    )
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.answer_inline_query(asked.inline_query_id, [broken])
    with pytest.raises(LookupError):
        emu.choose_inline_result(ALICE, asked.inline_query_id, "a")  # never answered
