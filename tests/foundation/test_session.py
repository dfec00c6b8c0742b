"""The bot's HTTP session (``bot.session``): calls go as JSON, sent messages come back
lighter.

Over HTTP against the emulator, with the bot the app builds (``bot.factory.create_bot``).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot
from aiogram.methods import (
    AnswerCallbackQuery,
    BanChatMember,
    EditMessageText,
    RestrictChatMember,
    SendDocument,
    SendMessage,
    SetMyCommands,
    TelegramMethod,
)
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    MessageEntity,
    ReplyParameters,
)

from bot.factory import create_bot
from bot.session import BotSession, _loads
from tgemu import BotAPIEmulator

ALICE = 3001
KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Roll", callback_data="r:1")]]
)


@pytest.fixture
async def bot(emulator: BotAPIEmulator) -> AsyncIterator[Bot]:
    emulator.add_user(ALICE, "Alice", language_code="en")
    bot = create_bot(emulator.token, api_url=emulator.base_url)
    yield bot
    await bot.session.close()


def test_a_call_without_files_is_one_json_object_with_nested_objects(bot: Bot) -> None:
    method = SendMessage(
        chat_id=ALICE, text="<b>4</b>", reply_markup=KEYBOARD,
        reply_parameters=ReplyParameters(message_id=7), disable_notification=False,
    )  # fmt: skip
    assert isinstance(bot.session, BotSession)
    body = bot.session.json_body(bot, method)
    assert body is not None
    payload = json.loads(body)
    assert payload["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "r:1"
    assert payload["reply_parameters"]["message_id"] == 7
    assert payload["parse_mode"] == "HTML"  # the bot's defaults, resolved
    assert payload["link_preview_options"]["is_disabled"] is True
    assert "disable_web_page_preview" not in payload  # deprecated: the option above only
    assert "disable_notification" not in payload  # falsy values left out, as aiogram's form


def _as_aiogram_prepares(bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
    """What aiogram's own form carries: every field dumped, then each value prepared."""
    session = bot.session
    files: dict[str, Any] = {}
    prepared = {
        key: session.prepare_value(value, bot=bot, files=files, _dumps_json=False)
        for key, value in method.model_dump(warnings=False).items()
    }
    return json.loads(json.dumps({key: value for key, value in prepared.items() if value}))


@pytest.mark.parametrize(
    "method",
    [
        SendMessage(
            chat_id=ALICE, text="x", reply_markup=KEYBOARD, message_thread_id=3,
            entities=[MessageEntity(type="bold", offset=0, length=1)],
            link_preview_options=LinkPreviewOptions(url="https://example.org"),
            reply_parameters=ReplyParameters(message_id=7, allow_sending_without_reply=True),
        ),
        EditMessageText(chat_id=ALICE, message_id=4, text="y", reply_markup=KEYBOARD),
        AnswerCallbackQuery(callback_query_id="q", text="no", show_alert=True, cache_time=0),
        BanChatMember(chat_id=-5, user_id=ALICE, until_date=datetime(2030, 1, 1, tzinfo=UTC)),
        RestrictChatMember(
            chat_id=-5, user_id=ALICE, permissions=ChatPermissions(can_send_messages=False)
        ),
        SetMyCommands(commands=[BotCommand(command="r", description="roll")]),
    ],
)  # fmt: skip
def test_the_json_body_carries_what_aiogram_s_form_carries(
    bot: Bot, method: TelegramMethod[Any]
) -> None:
    assert isinstance(bot.session, BotSession)
    body = bot.session.json_body(bot, method)
    assert body is not None
    assert json.loads(body) == _as_aiogram_prepares(bot, method)


async def test_a_reply_is_sent_as_json_and_returned_without_its_original(
    bot: Bot, emulator: BotAPIEmulator
) -> None:
    original = emulator.send_text(ALICE, ALICE, "/r 1d6")
    sent = await bot.send_message(
        ALICE, "<b>4</b>", reply_markup=KEYBOARD,
        reply_parameters=ReplyParameters(message_id=original.message_id),
    )  # fmt: skip
    call = emulator.calls_to("sendMessage")[-1]
    replying = call.params["reply_parameters"]  # an object, with the bot's defaults in it
    assert (replying["message_id"], replying["allow_sending_without_reply"]) == (
        original.message_id,
        True,
    )
    assert call.result["reply_to_message"]["message_id"] == original.message_id  # as sent
    stored = emulator.bot_messages(ALICE)[-1]
    assert (stored.reply_to, stored.has_keyboard, stored.text) == (original.message_id, True, "4")
    assert stored.entities and call.result["entities"] == stored.entities  # Telegram's view
    assert sent.message_id == stored.message_id and sent.text == "4"
    assert (sent.reply_to_message, sent.entities) == (None, None)  # not rebuilt: unread
    assert isinstance(sent.reply_markup, InlineKeyboardMarkup)
    assert sent.reply_markup.inline_keyboard[0][0].callback_data == "r:1"


async def test_a_file_still_goes_as_a_multipart_form(bot: Bot, emulator: BotAPIEmulator) -> None:
    document = BufferedInputFile(b'{"log": []}', filename="log.json")
    assert isinstance(bot.session, BotSession)
    assert bot.session.json_body(bot, SendDocument(chat_id=ALICE, document=document)) is None
    emulator.send_text(ALICE, ALICE, "/log export")  # the user writes first, as in Telegram
    sent = await bot.send_document(ALICE, document, caption="export")
    assert sent.document is not None and sent.document.file_name == "log.json"
    assert emulator.bot_messages(ALICE)[-1].document is not None


def test_only_a_sent_message_loses_its_replied_message_and_entities() -> None:
    reply = (
        '{"ok": true, "result": {"message_id": 2, "text": "4", "reply_to_message": '
        '{"message_id": 1}, "entities": [{"type": "bold", "offset": 0, "length": 1}]}}'
    )
    assert _loads(reply)["result"] == {"message_id": 2, "text": "4"}
    updates = '{"ok": true, "result": [{"update_id": 1, "message": {"reply_to_message": {}}}]}'
    assert _loads(updates)["result"][0]["message"] == {"reply_to_message": {}}
    incoming = '{"update_id": 1, "message": {"message_id": 2, "reply_to_message": {}}}'
    assert "reply_to_message" in _loads(incoming)["message"]  # a webhook's update


async def test_a_polled_batch_is_kept_as_telegram_sent_it(
    bot: Bot, emulator: BotAPIEmulator
) -> None:
    """The polling inbox stores the batch as it came (``bot/polling.py``): the session keeps
    the getUpdates response's text, and only for getUpdates."""
    assert isinstance(bot.session, BotSession)
    emulator.send_text(ALICE, ALICE, "/r 1d6")
    updates = await bot.get_updates(timeout=0)
    assert bot.session.polled is not None
    kept = json.loads(bot.session.polled)
    assert [u["update_id"] for u in kept["result"]] == [u.update_id for u in updates]
    assert kept["result"][0]["message"]["text"] == "/r 1d6"
    bot.session.polled = None
    await bot.send_message(ALICE, "hi")
    assert bot.session.polled is None
