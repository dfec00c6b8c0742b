"""Telegram's limits: each violation surfaces as the aiogram exception Telegram would cause."""

from __future__ import annotations

import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramUnauthorizedError,
)
from aiogram.methods import TelegramMethod
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from tests.emulator.conftest import ALICE, GROUP, close_bot, make_bot
from tgemu import BotAPIEmulator


def one_button(callback_data: str) -> InlineKeyboardMarkup:
    button = InlineKeyboardButton(text="x", callback_data=callback_data)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x" * 4097, "Bad Request: message is too long"),
        ("", "Bad Request: message text is empty"),
        ("  \n ", "Bad Request: message text is empty"),
        ("<b></b>", "Bad Request: message text is empty"),
        (
            "<x>hi</x>",
            'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0',
        ),
        (
            "ок <br>",
            'Bad Request: can\'t parse entities: Unsupported start tag "br" at byte offset 5',
        ),
        (
            "<b>bold",
            "Bad Request: can't parse entities: "
            'Can\'t find end tag corresponding to start tag "b"',
        ),
        (
            "1 < 2",
            'Bad Request: can\'t parse entities: Unsupported start tag "" at byte offset 2',
        ),
    ],
)
@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_text_rejections(bot: Bot, text: str, message: str) -> None:
    with pytest.raises(TelegramBadRequest) as info:
        await bot.send_message(GROUP, text)
    assert info.value.message == message


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_bare_ampersand_rejected(bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Unescaped"):
        await bot.send_message(GROUP, "Tom & Jerry")


async def test_length_counted_after_parsing(bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "<b>" + "x" * 4096 + "</b>")
    assert sent.text is not None and len(sent.text) == 4096


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_callback_data_limits(bot: Bot) -> None:
    ok = await bot.send_message(GROUP, "k", reply_markup=one_button(callback_data="é" * 32))
    assert ok.reply_markup is not None
    for data in ("é" * 33, ""):
        with pytest.raises(TelegramBadRequest) as info:
            await bot.send_message(GROUP, "k", reply_markup=one_button(callback_data=data))
        assert info.value.message == "Bad Request: BUTTON_DATA_INVALID"


async def test_not_modified(bot: Bot) -> None:
    markup = one_button(callback_data="a")
    sent = await bot.send_message(GROUP, "<b>same</b>", reply_markup=markup)
    with pytest.raises(TelegramBadRequest, match="message is not modified: specified new"):
        await bot.edit_message_text(
            "<b>same</b>", chat_id=GROUP, message_id=sent.message_id, reply_markup=markup
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=GROUP, message_id=sent.message_id, reply_markup=markup
        )
    # the same text with different formatting is a modification
    await bot.edit_message_text(
        "same", chat_id=GROUP, message_id=sent.message_id, reply_markup=markup
    )


async def test_unknown_messages(bot: Bot, emu: BotAPIEmulator) -> None:
    with pytest.raises(TelegramBadRequest) as info:
        await bot.edit_message_text("x", chat_id=GROUP, message_id=999)
    assert info.value.message == "Bad Request: message to edit not found"
    with pytest.raises(TelegramBadRequest) as info:
        await bot.delete_message(GROUP, 999)
    assert info.value.message == "Bad Request: message to delete not found"
    sent = await bot.send_message(GROUP, "bye")
    await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=sent.message_id)
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-42, "x")


async def test_cannot_initiate_private_conversation(bot: Bot, emu: BotAPIEmulator) -> None:
    with pytest.raises(TelegramForbiddenError) as info:
        await bot.send_message(ALICE, "hi")
    assert info.value.message == "Forbidden: bot can't initiate conversation with a user"
    emu.send_text(ALICE, ALICE, "/start")
    await bot.send_message(ALICE, "hi")
    emu.block_bot(ALICE)
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(ALICE, "hi")


async def test_callback_query_answered_once(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "k", reply_markup=one_button(callback_data="a"))
    pressed = emu.press(ALICE, GROUP, sent.message_id, "forged-data")
    too_old = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    with pytest.raises(TelegramBadRequest) as info:
        await bot.answer_callback_query("no-such-query")
    assert info.value.message == too_old
    await bot.answer_callback_query(pressed.callback_query_id)
    with pytest.raises(TelegramBadRequest) as info:
        await bot.answer_callback_query(pressed.callback_query_id)
    assert info.value.message == too_old


async def test_every_answer_attempt_is_counted_refused_ones_too(
    bot: Bot, emu: BotAPIEmulator
) -> None:
    sent = await bot.send_message(GROUP, "k", reply_markup=one_button(callback_data="a"))
    first = emu.press(ALICE, GROUP, sent.message_id, "a").callback_query_id
    second = emu.press(ALICE, GROUP, sent.message_id, "a").callback_query_id
    assert emu.answer_attempts(first) == 0
    await bot.answer_callback_query(first, text="Готово")
    for _ in range(2):  # Telegram refuses every further answer the same way
        with pytest.raises(TelegramBadRequest) as info:
            await bot.answer_callback_query(first, text="Ещё раз")
        assert info.value.message == (
            "Bad Request: query is too old and response timeout expired or query ID is invalid"
        )
    assert (emu.answer_attempts(first), emu.answer_attempts(second)) == (3, 0)
    assert emu.callback_answers[first].text == "Готово"  # the first answer is the one shown


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_wrong_token_and_unknown_method(emu: BotAPIEmulator) -> None:
    intruder = make_bot(emu, token="42:WRONG")
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await intruder.get_me()
    finally:
        await close_bot(intruder)

    class NoSuchMethod(TelegramMethod[bool]):
        __returning__ = bool
        __api_method__ = "noSuchMethod"

    client = make_bot(emu)
    try:
        with pytest.raises(TelegramNotFound):
            await client(NoSuchMethod())
    finally:
        await close_bot(client)
    assert [(c.method, c.error_code) for c in emu.calls] == [
        ("getMe", 401),
        ("noSuchMethod", 404),
    ]


async def test_migrated_group_rejects_sends(bot: Bot, emu: BotAPIEmulator) -> None:
    new_id = emu.migrate_to_supergroup(GROUP)
    with pytest.raises(TelegramMigrateToChat) as info:
        await bot.send_message(GROUP, "x")
    assert info.value.migrate_to_chat_id == new_id
    sent = await bot.send_message(new_id, "x")
    assert sent.chat.type == "supergroup"


async def test_commands_validated(bot: Bot) -> None:
    from aiogram.types import BotCommand

    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Bad-Cmd", description="x")])


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("x < y", 'Unsupported start tag "" at byte offset 2'),
        ("<script>alert(1)</script>", 'Unsupported start tag "script" at byte offset 0'),
        ("&foo; bar", 'Unescaped "&" at byte offset 0'),
        ("a &amp b", 'Unescaped "&" at byte offset 2'),
        ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
    ],
)
@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_html_a_user_could_type_is_refused(bot: Bot, text: str, error: str) -> None:
    with pytest.raises(TelegramBadRequest) as info:
        await bot.send_message(GROUP, text)
    assert info.value.message.startswith(f"Bad Request: can't parse entities: {error}")


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_text_limit_counts_characters_after_parsing(bot: Bot) -> None:
    fits = "&lt;" * 4096  # 16,384 characters of markup, 4,096 shown
    assert (await bot.send_message(GROUP, fits)).text == "<" * 4096
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(GROUP, fits + "&amp;")
    sent = await bot.send_message(GROUP, "short")
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.edit_message_text(
            "<i>" + "y" * 4097 + "</i>", chat_id=GROUP, message_id=sent.message_id
        )


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_caption_limit(bot: Bot) -> None:
    from aiogram.types import BufferedInputFile

    document = BufferedInputFile(b"{}", "log.json")
    sent = await bot.send_document(GROUP, document, caption="<b>" + "c" * 1024 + "</b>")
    assert sent.caption == "c" * 1024
    with pytest.raises(TelegramBadRequest) as info:
        await bot.send_document(GROUP, document, caption="c" * 1025)
    assert info.value.message == "Bad Request: message caption is too long"


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_callback_answer_limit(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "k", reply_markup=one_button(callback_data="a"))
    pressed = emu.press(ALICE, GROUP, sent.message_id, "a")
    with pytest.raises(TelegramBadRequest) as info:
        await bot.answer_callback_query(pressed.callback_query_id, text="x" * 201)
    assert info.value.message == "Bad Request: MESSAGE_TOO_LONG"
    await bot.answer_callback_query(pressed.callback_query_id, text="x" * 200)


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_inline_keyboard_limits(bot: Bot) -> None:
    def keyboard(count: int, text: str = "b") -> InlineKeyboardMarkup:
        rows = [
            [InlineKeyboardButton(text=text, callback_data=f"{i}:{j}") for j in range(5)]
            for i in range(count // 5)
        ]
        return InlineKeyboardMarkup(inline_keyboard=rows)

    await bot.send_message(GROUP, "k", reply_markup=keyboard(100))
    for markup in (keyboard(105), keyboard(50, text="w" * 200)):
        with pytest.raises(TelegramBadRequest) as info:
            await bot.send_message(GROUP, "k", reply_markup=markup)
        assert info.value.message == "Bad Request: reply markup is too long"
