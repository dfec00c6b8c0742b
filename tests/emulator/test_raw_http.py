"""Bodies other than aiogram's multipart: JSON, urlencoded, query string; extra behaviours."""

from __future__ import annotations

import asyncio
import io
import os

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest

from sandbox import run_sandbox
from tests.emulator.conftest import GROUP
from tgemu import BotAPIEmulator


async def post(emu: BotAPIEmulator, method: str, **kwargs: object) -> dict[str, object]:
    async with aiohttp.ClientSession() as http:
        url = f"{emu.base_url}/bot{emu.token}/{method}"
        async with http.post(url, **kwargs) as resp:  # type: ignore[arg-type]
            body: dict[str, object] = await resp.json()
            assert resp.status == body.get("error_code", 200)
            return body


async def test_json_body(emu: BotAPIEmulator) -> None:
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    body = await post(
        emu, "sendMessage", json={"chat_id": str(GROUP), "text": "123", "reply_markup": markup}
    )
    assert body["ok"] is True
    msg = emu.last_bot_message(GROUP)
    assert msg is not None and msg.text == "123" and msg.reply_markup == markup


async def test_urlencoded_and_query(emu: BotAPIEmulator) -> None:
    body = await post(emu, "sendMessage", data={"chat_id": GROUP, "text": "form"})
    assert body["ok"] is True
    body = await post(emu, "SENDMESSAGE", params={"chat_id": GROUP, "text": "query"})
    assert body["ok"] is True
    assert [m.text for m in emu.bot_messages(GROUP)] == ["form", "query"]
    assert emu.calls[-1].method == "sendMessage"


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_error_shape(emu: BotAPIEmulator) -> None:
    body = await post(emu, "sendMessage", json={"chat_id": GROUP, "text": ""})
    assert body == {
        "ok": False,
        "error_code": 400,
        "description": "Bad Request: message text is empty",
    }
    emu.add_fault("getMe", retry_after=7)
    assert await post(emu, "getMe") == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 7",
        "parameters": {"retry_after": 7},
    }


async def test_custom_fault_description(bot: Bot, emu: BotAPIEmulator) -> None:
    emu.add_fault("sendMessage", status=400, description="Bad Request: CHAT_WRITE_FORBIDDEN")
    with pytest.raises(TelegramBadRequest, match="CHAT_WRITE_FORBIDDEN"):
        await bot.send_message(GROUP, "x")


@pytest.mark.bot_api_deviations  # refusals are what it checks
async def test_callback_query_expiry_and_text_limit(bot: Bot, emu: BotAPIEmulator) -> None:
    sent = await bot.send_message(GROUP, "k")
    query = emu.press(1001, GROUP, sent.message_id, "d").callback_query_id
    with pytest.raises(TelegramBadRequest, match="MESSAGE_TOO_LONG"):
        await bot.answer_callback_query(query, text="x" * 201)
    emu.callback_query_ttl = 0.0
    await asyncio.sleep(0.01)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query)


async def test_sandbox_reads_a_pipe(polling: BotAPIEmulator) -> None:
    read_fd, write_fd = os.pipe()
    with os.fdopen(write_fd, "w") as writer:
        writer.write("/start\n/press 1\n")  # then EOF ends the session
    out = io.StringIO()
    with os.fdopen(read_fd) as reader:
        await run_sandbox(polling, stdin=reader, stdout=out, idle_timeout=5)
    text = out.getvalue()
    assert "  [1 Roll]" in text and "  (toast) Rolled 4" in text
    assert text.endswith("* bye\n")
