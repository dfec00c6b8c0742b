"""``python -m tabletop`` as a real process: it serves over HTTP and stops cleanly on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tgemu import BotAPIEmulator

ROOT = Path(__file__).resolve().parents[2]


def bot_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DATABASE_URL")}
    env.update(extra)
    return env


async def test_process_serves_and_stops_gracefully_on_sigterm(
    emulator: BotAPIEmulator, database_url: str, clean_db: object
) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tabletop",
        cwd=ROOT,
        env=bot_env(
            BOT_TOKEN=emulator.token, TELEGRAM_API_URL=emulator.base_url,
            DATABASE_URL=database_url, LOG_LEVEL="INFO",
        ),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        emulator.add_user(1001, "Alice", language_code="en")
        emulator.send_text(1001, 1001, "/start")
        reply = await emulator.wait_bot_message(1001, timeout=60)
        assert "Hello, Alice!" in reply.text
        menu = emulator.commands_for({"type": "all_private_chats"}, language_code="ru")
        assert {"command": "start", "description": "стартовый экран"} in menu
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    stderr = (await proc.stderr.read()).decode()  # type: ignore[union-attr]
    assert code == 0, stderr
    assert "Traceback" not in stderr


async def test_a_second_polling_instance_is_refused(
    emulator: BotAPIEmulator, database_url: str, clean_db: object
) -> None:
    env = bot_env(
        BOT_TOKEN=emulator.token, TELEGRAM_API_URL=emulator.base_url, DATABASE_URL=database_url
    )

    async def launch() -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tabletop", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip

    first = await launch()
    try:
        emulator.add_user(1001, "Alice", language_code="en")
        emulator.send_text(1001, 1001, "/start")
        await emulator.wait_bot_message(1001, timeout=60)  # the first one is polling
        second = await launch()
        code = await asyncio.wait_for(second.wait(), timeout=60)
        err = (await second.stderr.read()).decode()  # type: ignore[union-attr]
        assert code == 3 and "another instance is already polling" in err, err
        emulator.send_text(1001, 1001, "/help")  # the first one still serves alone
        await emulator.wait_bot_message(1001, contains="/profile", timeout=30)
    finally:
        first.send_signal(signal.SIGTERM)
        await asyncio.wait_for(first.wait(), timeout=30)
