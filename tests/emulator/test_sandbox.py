"""The sandbox REPL driven through StringIO against the tiny polling dispatcher."""

from __future__ import annotations

import asyncio
import io
import os

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    KeyboardButton,
    ReplyKeyboardMarkup,
)

from sandbox import run_sandbox
from sandbox.render import keyboard_lines, styled_text
from tgemu import BotAPIEmulator

SCRIPT = """\
/start
/press 1
/as bob
/chat group
/start
#2
/as carol en
/chat dm
/press 1
/quit
this line is never read
"""

EXPECTED = """\
* sandbox: you are Alice in the private chat with Tabletop; /sandbox for help
[DM Alice] Alice: /start
[DM Alice] Tabletop #2:
  Привет, private!
  [1 Roll]
  [2 Docs <https://example.org/docs>]
[DM Alice] Alice: /press 1
  (toast) Rolled 4
[DM Alice] Tabletop #2 (edited):
  You rolled 4
[DM Alice] Alice: /as bob
* you are Bob (@bob, id 1002, en)
[DM Bob] Bob: /chat group
* chat: the group Test table
[Test table] Bob: /start
[Test table] Tabletop #2:
  Hello, group!
  [1 Roll]
  [2 Docs <https://example.org/docs>]
[Test table] Bob: #2
* button 2 opens https://example.org/docs
[Test table] Bob: /as carol en
* you are Carol (@carol, id 1003, en)
[Test table] Carol: /chat dm
* chat: the private chat with Tabletop
[DM Carol] Carol: /press 1
* no message with buttons in this chat
[DM Carol] Carol: /quit
* bye
"""


async def test_scripted_session(polling: BotAPIEmulator) -> None:
    out = io.StringIO()
    await run_sandbox(
        polling, stdin=io.StringIO(SCRIPT), stdout=out, echo_input=True, idle_timeout=5
    )
    assert out.getvalue() == EXPECTED
    assert polling.chat(-100500).members[-1] == 1003  # carol joined the group


async def test_default_world_help_and_eof() -> None:
    emu = BotAPIEmulator()
    out = io.StringIO()
    # no bot is polling: sending still works, the sandbox just waits for idleness briefly
    emu.add_user(1050, "Outsider")  # not in the sandbox group
    script = "/sandbox\n/chat nowhere\n/as\n/press x\n/as outsider\n/chat group\nhi\n/as alice\n"
    script += "/chat group\n"
    await run_sandbox(emu, stdin=io.StringIO(script), stdout=out, idle_timeout=0.2)
    text = out.getvalue()
    assert "/press N  or  #N" in text and "usage: /chat group | /chat dm" in text
    assert "usage: /as NAME [ru|en]" in text and "usage: /press N" in text
    assert "* cannot do that: user 1050 is not a member of chat -100500" in text
    assert text.splitlines()[-2:] == ["* chat: the group Sandbox table", "* bye"]
    group = emu.chat(-100500)
    assert (group.title, group.creator, sorted(group.members)) == (
        "Sandbox table",
        1000,
        [1000, 1001, 1002],
    )
    assert (emu.user(1001).language_code, emu.user(1002).language_code) == ("ru", "en")


def test_render_helpers() -> None:
    entities = [
        {"type": "bold", "offset": 0, "length": 2},
        {"type": "text_link", "offset": 5, "length": 4, "url": "https://x.org"},
    ]
    assert styled_text("🎲 a link", entities, ansi=False) == "🎲 a link <https://x.org>"
    ansi = styled_text("🎲 a link", entities, ansi=True)
    assert ansi.startswith("\x1b[0m\x1b[1m🎲\x1b[0m") and ansi.endswith(" <https://x.org>")
    markup = {
        "inline_keyboard": [
            [{"text": "A", "callback_data": "a"}, {"text": "B", "callback_data": "b"}],
            [{"text": "Site", "url": "https://x.org"}],
        ]
    }
    assert keyboard_lines(markup) == ["[1 A] [2 B]", "[3 Site <https://x.org>]"]


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_shows_bot_errors_and_reply_keyboards(emu: BotAPIEmulator, bot: Bot) -> None:
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    with os.fdopen(read_fd) as reader, os.fdopen(write_fd, "w") as writer:
        session = asyncio.create_task(run_sandbox(emu, stdin=reader, stdout=out))
        await emu.wait_for(lambda: "sandbox: you are Alice" in out.getvalue())
        emu.user(1001).started = emu.user(1002).started = True
        with pytest.raises(TelegramBadRequest):
            await bot.send_message(1001, "<b>oops")
        keyboard = ReplyKeyboardMarkup(keyboard=[[KeyboardButton(text="Yes")]])
        await bot.send_message(1001, "Sure?", reply_markup=keyboard)
        await bot.send_message(1002, "for Bob only")
        writer.write("/quit\n")
        writer.flush()
        await asyncio.wait_for(session, 5)
    lines = out.getvalue().splitlines()
    assert lines[1] == (
        "! the bot's sendMessage failed: Bad Request: can't parse entities: "
        'Can\'t find end tag corresponding to start tag "b"'
    )
    assert lines[2:5] == ["[DM Alice] Tabletop #1:", "  Sure?", "  (keyboard) [Yes]"]
    assert "for Bob only" not in out.getvalue()


async def test_reply_press_any_message_and_catch_up_after_as(
    emu: BotAPIEmulator, bot: Bot
) -> None:
    """Replying by number, pressing a button of an older message, the recent history of a
    chat, and what the bot sent to another user's private chat shown after ``/as``."""
    emu.user(1001).started = emu.user(1002).started = True
    older = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Old", callback_data="old")]]
    )
    newer = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="New", callback_data="new")]]
    )
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    with os.fdopen(read_fd) as reader, os.fdopen(write_fd, "w") as writer:
        session = asyncio.create_task(run_sandbox(emu, stdin=reader, stdout=out, idle_timeout=0.5))
        await emu.wait_for(lambda: "sandbox: you are Alice" in out.getvalue())
        first = await bot.send_message(1001, "first card", reply_markup=older)
        await bot.send_message(1001, "second card", reply_markup=newer)
        await bot.send_message(1002, "for Bob only")
        await emu.wait_for(lambda: "second card" in out.getvalue())

        async def send(line: str, shown: str) -> None:
            writer.write(line + "\n")
            writer.flush()
            await emu.wait_for(lambda: shown in out.getvalue(), timeout=5)

        await send(f"/press #{first.message_id} 1", "")
        await emu.wait_for(lambda: emu.pending_updates() > 0, timeout=5)
        got = await bot.get_updates(timeout=0)
        query = got[-1].callback_query
        assert query is not None and query.data == "old"
        assert query.message is not None and query.message.message_id == first.message_id

        await send(f"/reply #{first.message_id} /request", "")
        await emu.wait_for(lambda: any(m.reply_to for m in emu.chat_messages(1001)), timeout=5)
        got = await bot.get_updates(offset=got[-1].update_id + 1, timeout=0)
        replied = got[-1].message
        assert replied is not None and replied.text == "/request"
        assert replied.reply_to_message is not None
        assert replied.reply_to_message.message_id == first.message_id

        await send("/recent 2", f"Alice #{replied.message_id} (reply to #{first.message_id})")
        assert "for Bob only" not in out.getvalue()
        await send("/as bob", "for Bob only")
        await send("/press #99 1", "no message #99 of the bot in this chat")
        await send("/reply 99 hi", "no message #99 in this chat")
        writer.write("/quit\n")
        writer.flush()
        await asyncio.wait_for(session, 5)
    text = out.getvalue()
    assert "* while you were away:" in text
    assert text.index("* you are Bob") < text.index("for Bob only")
