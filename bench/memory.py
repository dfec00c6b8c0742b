"""Memory of the bot process with 1,000 open creation wizards.

``python -m tabletop`` runs as its own process against the emulator and a fresh database; 1,000
users follow a game's «create character» deep link into their private chats and leave the
wizard open at its first step. The figure is the process's resident set (``VmRSS`` from
``/proc/<pid>/status``) before and after, and its peak (``VmHWM``). The target in the issue is
≤ 200 MB with 1,000 open wizards. Wizard state lives in Postgres (``fsm_states``), not in the
process, so the growth is small; most of the baseline is the libraries' import, shown by
``rss_mb_after_import_only``: aiogram imported on its own builds a pydantic validator for every
Bot API type (``aiogram_eager``); the bot defers that to first use (``bot.lazy_models``), so all
of its modules together weigh less than aiogram alone (``bot_modules``).

The bot keeps Telegram's pacing (30 requests a second overall), so opening 1,000 wizards takes
at least half a minute.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bench.e2e_bench import _admin_url
from bot.services import games as game_service
from db.database import create_engine, create_session_factory, migrate
from db.uow import UnitOfWork
from tests.conftest import create_database, drop_database, with_database
from tgemu import BotAPIEmulator

ROOT = Path(__file__).resolve().parent.parent
WIZARDS = 1000
GM, GROUP, FIRST_USER = 900_000, -100_900, 1_000_000


def _status(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM of a process, in MB."""
    out: dict[str, float] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


async def _token(url: str) -> str:
    engine = create_engine(url)
    try:
        async with UnitOfWork(create_session_factory(engine)) as uow:
            game = await uow.games.create(GROUP, "fate", "Memory bench", GM)
            await uow.commit()
            return await game_service.character_link_token(uow, game)
    finally:
        await engine.dispose()


async def _open_wizards(emu: BotAPIEmulator, token: str, users: range) -> float:
    started = time.perf_counter()
    for uid in users:
        emu.add_user(uid, f"Player {uid}", language_code="ru" if uid % 2 else "en")
        emu.send_text(uid, uid, f"/start {token}")
    await emu.wait_for(lambda: all(emu.bot_messages(uid) for uid in users), timeout=600)
    await emu.wait_idle(timeout=120, quiet=0.5)
    return time.perf_counter() - started


async def _measure(url: str, emu: BotAPIEmulator, token: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DATABASE_URL")}
    env.update(BOT_TOKEN=emu.token, TELEGRAM_API_URL=emu.base_url, DATABASE_URL=url,
               LOG_LEVEL="WARNING")  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tabletop", cwd=ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        # Warm: one user has opened a wizard, so every module it needs is loaded.
        warm = range(FIRST_USER - 1, FIRST_USER)
        await _open_wizards(emu, token, warm)
        before = _status(proc.pid)
        users = range(FIRST_USER, FIRST_USER + WIZARDS)
        seconds = await _open_wizards(emu, token, users)
        after = _status(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), timeout=60)
    return {
        "before": before,
        "after": after,
        "seconds_to_open": round(seconds, 1),
        "wizard_messages": sum(len(emu.bot_messages(uid)) for uid in users),
    }


async def _imports_rss_mb() -> dict[str, float]:
    """RSS of a bare Python after importing aiogram alone, and after the bot's modules: how
    much of the bot's baseline is its libraries."""
    out: dict[str, float] = {}
    pairs = (("aiogram_eager", "aiogram"), ("bot_modules", "tabletop.app, handlers"))
    for label, modules in pairs:
        code = f"import {modules}; print(open('/proc/self/status').read())"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, cwd=ROOT, stdout=asyncio.subprocess.PIPE
        )
        status, _ = await proc.communicate()
        line = next(x for x in status.decode().splitlines() if x.startswith("VmRSS:"))
        out[label] = round(int(line.split()[1]) / 1024, 1)
    return out


async def run() -> dict[str, Any]:
    admin = await _admin_url()
    name = f"bench_{uuid.uuid4().hex[:10]}"
    await create_database(admin, name)
    url = with_database(admin, name)
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        engine = create_engine(url)
        await migrate(engine)
        await engine.dispose()
        token = await _token(url)
        measured = await _measure(url, emu, token)
        engine = create_engine(url)
        async with engine.connect() as conn:
            fsm_rows = (await conn.execute(text("SELECT count(*) FROM fsm_states"))).scalar_one()
        await engine.dispose()
    finally:
        await emu.stop()
        await drop_database(admin, name)
    rss_after = measured["after"]["VmRSS"]
    return {
        "open_wizards": WIZARDS,
        "fsm_rows_in_postgres": int(fsm_rows),  # the wizards' state: stacks and contexts
        "rss_mb_before": round(measured["before"]["VmRSS"], 1),
        "rss_mb_after": round(rss_after, 1),
        "rss_mb_growth": round(rss_after - measured["before"]["VmRSS"], 1),
        "peak_rss_mb": round(measured["after"]["VmHWM"], 1),
        "rss_mb_after_import_only": await _imports_rss_mb(),
        "seconds_to_open": measured["seconds_to_open"],
        "targets": {"rss_mb_after<=200": rss_after <= 200},
    }


def main() -> None:
    import json

    sys.stdout.write(json.dumps(asyncio.run(run()), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
