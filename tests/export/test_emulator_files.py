"""The emulator's files as Telegram serves them to bots: a user's upload carries its file_id and
file_size, getFile and the download return its bytes, getFile refuses files over 20 MB, and
sendDocument takes multipart uploads up to 50 MB."""

from __future__ import annotations

import aiohttp

from tests.emulator.conftest import ALICE, GROUP, emu  # noqa: F401  # the emulator fixture
from tgemu import BotAPIEmulator

MB = 1024 * 1024


async def _call(emulator: BotAPIEmulator, method: str, **kwargs: object) -> tuple[int, dict]:  # type: ignore[type-arg]
    async with aiohttp.ClientSession() as http:
        url = f"{emulator.base_url}/bot{emulator.token}/{method}"
        async with http.post(url, **kwargs) as resp:  # type: ignore[arg-type]
            return resp.status, await resp.json()


async def _update_document(emulator: BotAPIEmulator) -> dict:  # type: ignore[type-arg]
    status, body = await _call(emulator, "getUpdates", json={"timeout": 0})
    assert status == 200
    return body["result"][-1]["message"]["document"]  # type: ignore[no-any-return]


async def test_a_users_document_downloads_by_file_path(emu: BotAPIEmulator) -> None:  # noqa: F811
    emu.send_document(ALICE, GROUP, "sheet.json", b'{"a": 1}', caption="/import")
    document = await _update_document(emu)
    assert document["file_name"] == "sheet.json" and document["file_size"] == 8
    status, body = await _call(emu, "getFile", json={"file_id": document["file_id"]})
    assert status == 200 and body["result"]["file_size"] == 8
    async with aiohttp.ClientSession() as http:
        url = f"{emu.base_url}/file/bot{emu.token}/{body['result']['file_path']}"
        async with http.get(url) as resp:
            assert resp.status == 200 and await resp.read() == b'{"a": 1}'


async def test_get_file_refuses_files_over_20_mb(emu: BotAPIEmulator) -> None:  # noqa: F811
    emu.send_document(ALICE, GROUP, "big.json", b"0" * (20 * MB + 1))
    document = await _update_document(emu)
    assert document["file_size"] == 20 * MB + 1
    status, body = await _call(emu, "getFile", json={"file_id": document["file_id"]})
    assert status == 400 and body["description"] == "Bad Request: file is too big"


async def test_send_document_takes_uploads_up_to_50_mb(emu: BotAPIEmulator) -> None:  # noqa: F811
    form = aiohttp.FormData()
    form.add_field("chat_id", str(GROUP))
    form.add_field("document", b"x" * MB, filename="game.json")
    status, body = await _call(emu, "sendDocument", data=form)
    assert status == 200 and body["result"]["document"]["file_size"] == MB
    sent = emu.last_bot_message(GROUP)
    assert sent is not None and sent.document is not None and len(sent.document.data) == MB
    form = aiohttp.FormData()
    form.add_field("chat_id", str(GROUP))
    form.add_field("document", b"x" * (50 * MB + 1), filename="huge.json")
    status, body = await _call(emu, "sendDocument", data=form)
    assert status == 413 and body == {
        "ok": False, "error_code": 413, "description": "Request Entity Too Large",
    }  # fmt: skip
