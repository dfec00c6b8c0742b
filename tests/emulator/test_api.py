"""The real aiogram client against the emulator: the happy paths."""

from __future__ import annotations

from aiogram import Bot
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
)

from tests.emulator.conftest import ALICE, BOB, GM, GROUP
from tgemu import BotAPIEmulator


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=lbl, callback_data=lbl)] for lbl in labels]
    )


def pairs(commands: list[BotCommand]) -> list[tuple[str, str]]:
    return [(c.command, c.description) for c in commands]


async def test_get_me(bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.first_name, me.is_bot) == (
        123456,
        "tabletop_test_bot",
        "Tabletop",
        True,
    )


async def test_send_message_parses_html(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "<b>Hi</b> &amp; <i>welcome</i> 🎲")
    assert sent.text == "Hi & welcome 🎲"
    assert sent.chat.id == GROUP and sent.chat.title == "Test table"
    assert sent.from_user is not None and sent.from_user.id == emu.bot_id
    assert [(e.type, e.offset, e.length) for e in sent.entities or []] == [
        ("bold", 0, 2),
        ("italic", 5, 7),
    ]
    stored = emu.last_bot_message(GROUP)
    assert stored is not None
    assert stored.html == "<b>Hi</b> &amp; <i>welcome</i> 🎲"
    assert stored.text == sent.text and stored.message_id == sent.message_id


async def test_private_chat_message_shape(bot: Bot, started: BotAPIEmulator) -> None:
    sent = await bot.send_message(ALICE, "hello")
    assert sent.chat.type == "private"
    assert (sent.chat.first_name, sent.chat.username) == ("Alice", "alice")


async def test_keyboard_edit_and_delete(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "pick", reply_markup=keyboard("a", "b"))
    assert emu.button_labels(GROUP, sent.message_id) == ["a", "b"]
    assert sent.reply_markup is not None
    assert sent.reply_markup.model_dump(exclude_none=True) == keyboard("a", "b").model_dump(
        exclude_none=True
    )

    edited = await bot.edit_message_text(
        "picked", chat_id=GROUP, message_id=sent.message_id, reply_markup=keyboard("c")
    )
    assert not isinstance(edited, bool) and edited.edit_date is not None
    await bot.edit_message_reply_markup(chat_id=GROUP, message_id=sent.message_id)
    msg = emu.bot_messages(GROUP)[0]
    assert (msg.text, msg.edits, msg.reply_markup) == ("picked", 2, None)

    assert await bot.delete_message(GROUP, sent.message_id) is True
    assert emu.bot_messages(GROUP)[0].deleted


async def test_edit_without_markup_drops_keyboard(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "pick", reply_markup=keyboard("a"))
    await bot.edit_message_text("done", chat_id=GROUP, message_id=sent.message_id)
    assert emu.bot_messages(GROUP)[0].reply_markup is None


async def test_press_and_answer_callback(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "pick", reply_markup=keyboard("a", "b"))
    pressed = emu.press_button(BOB, GROUP, sent.message_id, 1)
    updates = await bot.get_updates(timeout=1)
    query = updates[0].callback_query
    assert query is not None and query.data == "b" and query.from_user.id == BOB
    assert query.id == pressed.callback_query_id
    assert query.message is not None and query.message.message_id == sent.message_id

    assert await bot.answer_callback_query(query.id, text="Chosen", show_alert=True)
    answer = await emu.wait_callback_answer(query.id)
    assert (answer.text, answer.show_alert, answer.user_id) == ("Chosen", True, BOB)


async def test_send_document_keeps_file(bot: Bot, emu: BotAPIEmulator) -> None:
    payload = b'{"hp": 12}'
    sent = await bot.send_document(
        GROUP, BufferedInputFile(payload, "sheet.json"), caption="<b>Sheet</b>"
    )
    assert sent.document is not None and sent.document.file_name == "sheet.json"
    assert sent.document.file_size == len(payload) and sent.caption == "Sheet"
    stored = emu.last_bot_message(GROUP)
    assert stored is not None and stored.document == ("sheet.json", payload)

    again = await bot.send_document(GROUP, sent.document.file_id)
    assert again.document is not None and again.document.file_name == "sheet.json"


async def test_commands_per_scope_and_language(bot: Bot, emu: BotAPIEmulator) -> None:
    ru = [BotCommand(command="start", description="Начать")]
    en = [
        BotCommand(command="start", description="Start"),
        BotCommand(command="help", description="Help"),
    ]
    assert await bot.set_my_commands(ru, language_code="ru")
    assert await bot.set_my_commands(en, language_code="en")
    scope = BotCommandScopeChat(chat_id=GROUP)
    assert await bot.set_my_commands(en[:1], scope=scope)

    assert pairs(await bot.get_my_commands(language_code="ru")) == [("start", "Начать")]
    assert pairs(await bot.get_my_commands(language_code="en")) == pairs(en)
    assert await bot.get_my_commands() == []
    assert emu.commands_for({"type": "chat", "chat_id": GROUP}) == [
        {"command": "start", "description": "Start"}
    ]
    assert await bot.delete_my_commands(language_code="en")
    assert await bot.get_my_commands(language_code="en") == []


async def test_chat_and_members(bot: Bot, emu: BotAPIEmulator) -> None:
    chat = await bot.get_chat(GROUP)
    assert chat.title == "Test table" and chat.type == "group"
    owner = await bot.get_chat_member(GROUP, GM)
    assert isinstance(owner, ChatMemberOwner)
    assert isinstance(await bot.get_chat_member(GROUP, ALICE), ChatMemberMember)
    admins = await bot.get_chat_administrators(GROUP)
    assert [a.user.id for a in admins] == [GM] and isinstance(admins[0], ChatMemberOwner)
    emu.add_member(GROUP, BOB, admin=True)
    admins = await bot.get_chat_administrators(GROUP)
    assert [a.status for a in admins] == ["creator", "administrator"]


async def test_misc_methods(bot: Bot, emu: BotAPIEmulator) -> None:
    assert await bot.send_chat_action(GROUP, "typing")
    assert await bot.set_webhook("https://example.org/hook")
    assert emu.webhook["url"] == "https://example.org/hook"
    assert (await bot.get_webhook_info()).url == "https://example.org/hook"
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert emu.webhook["url"] == ""
    assert await bot.close()
    assert await bot.log_out()
    methods = [c.method for c in emu.calls]
    assert methods[:2] == ["sendChatAction", "setWebhook"] and all(c.ok for c in emu.calls)
    assert emu.calls[0].chat_id == GROUP and emu.calls[0].params["action"] == "typing"
