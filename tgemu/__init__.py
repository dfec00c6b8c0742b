"""The project's own Telegram Bot API emulator (test double and sandbox backend).

An aiohttp server speaking the Bot API at ``{base_url}/bot{token}/{method}``; the real bot
talks to it unchanged through
``AiohttpSession(api=TelegramAPIServer.from_base(emu.base_url))``::

    emu = BotAPIEmulator()
    await emu.start()                      # random free port on 127.0.0.1
    emu.add_user(1001, "Alice", language_code="en")
    sent = emu.send_text(1001, 1001, "/start")
    reply = await emu.wait_bot_message(1001, after=sent.message_id)
    pressed = emu.press_button(1001, 1001, reply.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    emu.add_fault("sendMessage", status=429, retry_after=2, times=2)
    await emu.stop()

Everything runs in the caller's event loop; no threads.  Deliberate differences from
Telegram are listed in ``tgemu/README.md``.
"""

from tgemu.emulator import BotAPIEmulator
from tgemu.types import (
    ApiCall,
    Asked,
    CallbackAnswer,
    ChatMessage,
    Chosen,
    Document,
    EmuChat,
    EmuEvent,
    EmuUser,
    Fault,
    Pressed,
    Sent,
)

__all__ = [
    "ApiCall",
    "Asked",
    "BotAPIEmulator",
    "CallbackAnswer",
    "ChatMessage",
    "Chosen",
    "Document",
    "EmuChat",
    "EmuEvent",
    "EmuUser",
    "Fault",
    "Pressed",
    "Sent",
]
