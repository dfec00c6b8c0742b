"""The operator's faults, between the bot and PostgreSQL (a cuttable TCP proxy) and Telegram's:
every command answered exactly once, soon after the fault ends, with no restart, no "try
again" followed by a roll, and rolls stored = rolls shown. Polling and webhook mode."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import asyncpg
import pytest
from aiohttp import web
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import Settings
from bot.webhook import create_webhook_app
from db.database import create_engine
from tabletop.app import build_runtime
from tests.conftest import Harness
from tests.helpers.db_proxy import DbProxy
from tgemu import BotAPIEmulator

USERS = [5001, 5002, 5003, 5004]
SORRY = ("Sorry", "try again")
FAULT_END_BOUND = 10.0  # seconds after a fault ends by which every command is answered


@pytest.fixture
async def proxy(database_url: str) -> AsyncIterator[DbProxy]:
    p = await DbProxy(database_url).start()
    yield p
    await p.stop()


@pytest.fixture
async def proxied(
    emulator: BotAPIEmulator, clean_db: AsyncEngine, proxy: DbProxy, settings: Settings
) -> AsyncIterator[Harness]:
    """The bot whose every connection to PostgreSQL goes through the proxy; the checks read
    the database directly (``direct``)."""
    engine = create_engine(proxy.url)
    h = Harness(emulator, engine, settings)
    h.direct = clean_db  # type: ignore[attr-defined]
    for uid in USERS:
        emulator.add_user(uid, f"U{uid}", language_code="en")
    await h.start()
    yield h
    await h.stop()
    await engine.dispose()


def _rolls_shown(emu: BotAPIEmulator, uid: int) -> list[str]:
    return [m.text for m in emu.bot_messages(uid) if "Log #" in m.text]


async def _rolls_stored(h: Harness) -> int:
    async with h.direct.connect() as conn:  # type: ignore[attr-defined]
        return int((await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one())


def _send_rolls(emu: BotAPIEmulator, per_user: int, start: int = 0) -> int:
    for n in range(start, start + per_user):
        for uid in USERS:
            emu.send_text(uid, uid, f"/r 1d{4 + n}")
    return per_user * len(USERS)


async def _all_answered(h: Harness, expected: int, timeout: float, *, idle: bool = True) -> None:
    emu = h.emu
    await emu.wait_for(
        lambda: sum(len(_rolls_shown(emu, uid)) for uid in USERS) >= expected, timeout=timeout
    )
    await asyncio.sleep(0.5)  # a double would show by now
    if idle:  # polling: nothing left to fetch (webhook mode: the test delivers)
        await emu.wait_idle()


def _assert_once(h: Harness, expected: int, *, replies: bool = True) -> None:
    emu = h.emu
    shown = sum(len(_rolls_shown(emu, uid)) for uid in USERS)
    assert shown == expected
    for uid in USERS:
        texts = [m.text for m in emu.bot_messages(uid)]
        assert not any(all(s in t for s in SORRY) for t in texts), texts
        # each roll shown once: its log entry number appears in one reply
        numbers = Counter(n for t in _rolls_shown(emu, uid) for n in re.findall(r"Log #(\d+)", t))
        assert all(c == 1 for c in numbers.values()), numbers
        if replies:  # and each command got one reply (webhook tests inject their messages)
            to = [m.reply_to for m in emu.bot_messages(uid) if "Log #" in m.text]
            assert len(to) == len(set(to)), to


async def test_a_blink_mid_batch_is_ridden_out_without_a_restart(
    proxied: Harness, proxy: DbProxy
) -> None:
    emu = proxied.emu
    sent = _send_rolls(emu, 5)
    await asyncio.sleep(0.05)
    await proxy.blink(5.0)
    await _all_answered(proxied, sent, FAULT_END_BOUND)
    _assert_once(proxied, sent)
    assert await _rolls_stored(proxied) == sent


async def test_a_30_second_outage_with_traffic_runs_every_command_once_when_it_ends(
    proxied: Harness, proxy: DbProxy
) -> None:
    emu = proxied.emu
    before = _send_rolls(emu, 2)
    await asyncio.sleep(0.05)
    proxy.cut()
    await asyncio.sleep(5)
    during = _send_rolls(emu, 2, start=2)
    await asyncio.sleep(30)
    proxy.restore()
    await _all_answered(proxied, before + during, FAULT_END_BOUND)
    _assert_once(proxied, before + during)
    assert await _rolls_stored(proxied) == before + during
    for uid in USERS:  # told once at most per command that outlasted the retries
        waits = [m for m in emu.bot_messages(uid) if "will run by itself" in m.text]
        assert len(waits) <= 4
    async with proxied.direct.connect() as conn:  # type: ignore[attr-defined]
        left = (await conn.execute(text("SELECT count(*) FROM update_inbox"))).scalar_one()
        parked = (
            await conn.execute(text("SELECT count(*) FROM update_dead_letters"))
        ).scalar_one()
    assert (left, parked) == (0, 0)


@pytest.mark.parametrize("away", [0.0, 2.0], ids=["reconnect-at-once", "away-2s"])
async def test_a_roll_logged_whose_answer_the_cut_lost_is_still_answered_once(
    proxied: Harness, proxy: DbProxy, away: float
) -> None:
    """A /r's append claims the update and commits in one statement, before the reply: a cut
    right after the server ran it (the answer lost) must not leave the roll unanswered —
    whether the reconnect works at once or the server is away for a while."""
    h = proxied
    uid = USERS[0]
    h.emu.send_text(uid, uid, "/r 1d6")  # the chat's first roll (its epoch, remembered rows)
    await _all_answered(h, 1, 30)
    # the append's parameters: the roll id (the peek has it too) and the notation (the
    # polling inbox's row has that too): only the append has both
    proxy.cut_after(f"msg:{uid}:".encode(), b"1d8", seconds=away)
    h.emu.send_text(uid, uid, "/r 1d8")
    await h.emu.wait_for(lambda: len(_rolls_shown(h.emu, uid)) >= 2, timeout=60)
    await asyncio.sleep(1.0)  # a double would show by now
    shown = _rolls_shown(h.emu, uid)
    assert proxy.fired  # the cut did come right after the roll's statement
    assert len(shown) == 2 and "1d8" in shown[1], shown
    assert await _rolls_stored(h) == 2


async def test_a_read_only_failover_is_retried_not_reported(
    proxied: Harness, database_url: str
) -> None:
    emu = proxied.emu
    name = database_url.rsplit("/", 1)[1].split("?")[0]
    admin = await asyncpg.connect(database_url.replace("postgresql+asyncpg", "postgresql"))

    async def drop_sessions() -> None:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = $1 AND pid <> pg_backend_pid()", name,
        )  # fmt: skip

    try:
        await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
        await drop_sessions()  # the old primary's sessions are gone; new ones are read-only
        sent = _send_rolls(emu, 3)
        await asyncio.sleep(5)
        assert sum(len(_rolls_shown(emu, uid)) for uid in USERS) == 0
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
        await drop_sessions()  # the new primary
        await admin.close()
    await _all_answered(proxied, sent, FAULT_END_BOUND)
    _assert_once(proxied, sent)
    assert await _rolls_stored(proxied) == sent


async def test_a_lock_on_one_chat_holds_only_that_chat(proxied: Harness) -> None:
    emu = proxied.emu
    emu.send_text(USERS[0], USERS[0], "/r 1d6")
    await _all_answered(proxied, 1, 10)
    async with proxied.direct.connect() as conn:  # type: ignore[attr-defined]
        tx = await conn.begin()
        await conn.execute(
            text("SELECT 1 FROM roll_logs WHERE chat_id = :c FOR UPDATE"), {"c": USERS[0]}
        )
        emu.send_text(USERS[0], USERS[0], "/r 1d8")
        for uid in USERS[1:]:
            emu.send_text(uid, uid, "/r 1d10")
        await emu.wait_for(lambda: all(_rolls_shown(emu, uid) for uid in USERS[1:]), timeout=10)
        assert len(_rolls_shown(emu, USERS[0])) == 1  # still waiting for the lock
        await asyncio.sleep(3)
        await tx.rollback()
    await _all_answered(proxied, 5, 10)
    _assert_once(proxied, 5)


async def test_telegram_502_for_20_seconds_loses_and_doubles_nothing(proxied: Harness) -> None:
    emu = proxied.emu
    emu.add_fault("sendMessage", status=502, times=10_000)
    sent = _send_rolls(emu, 2)
    await asyncio.sleep(20)
    emu.clear_faults()
    await _all_answered(proxied, sent, FAULT_END_BOUND)
    _assert_once(proxied, sent)
    assert await _rolls_stored(proxied) == sent


# --- webhook mode -------------------------------------------------------------------------

SECRET = "hook-secret"


@pytest.fixture
async def hooked(
    emulator: BotAPIEmulator, clean_db: AsyncEngine, proxy: DbProxy, database_url: str
) -> AsyncIterator[tuple[str, Harness]]:
    engine = create_engine(proxy.url)
    settings = Settings.model_validate({"DATABASE_URL": database_url, "BOT_TOKEN": "x"})
    h = Harness(emulator, engine, settings)
    h.direct = clean_db  # type: ignore[attr-defined]
    for uid in USERS:
        emulator.add_user(uid, f"U{uid}", language_code="en")
        emulator.send_text(uid, uid, "hi")  # they have started the bot (not delivered)
    runtime = build_runtime(
        token=emulator.token, api_url=emulator.base_url, engine=engine, settings=settings,
        limits=h.limits,
    )  # fmt: skip
    app = create_webhook_app(runtime.dispatcher, runtime.bot, path="/hook", secret=SECRET)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    yield f"http://{host}:{port}/hook", h
    await runner.cleanup()
    await engine.dispose()


def _update(update_id: int, uid: int, text_: str) -> dict[str, Any]:
    user = {"id": uid, "is_bot": False, "first_name": f"U{uid}", "language_code": "en"}
    return {
        "update_id": update_id,
        "message": {
            "message_id": 1000 + update_id, "date": 0, "text": text_, "from": user,
            "chat": {"id": uid, "type": "private", "first_name": f"U{uid}"},
            "entities": [{"type": "bot_command", "offset": 0, "length": 2}],
        },
    }  # fmt: skip


async def _deliver(url: str, update: dict[str, Any]) -> int:
    """As Telegram: POST until the answer is 200 (it retries a 5xx later)."""
    async with aiohttp.ClientSession() as session:
        while True:
            async with session.post(
                url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}
            ) as r:
                if r.status == 200:
                    return r.status
            await asyncio.sleep(1.0)


async def test_webhook_rides_out_a_blink_and_an_outage(
    hooked: tuple[str, Harness], proxy: DbProxy
) -> None:
    url, h = hooked
    updates = [_update(n, USERS[n % 4], f"/r 1d{4 + n}") for n in range(1, 13)]
    first = [asyncio.create_task(_deliver(url, u)) for u in updates[:8]]
    await asyncio.sleep(0.05)
    await proxy.blink(3.0)
    await asyncio.wait_for(asyncio.gather(*first), timeout=FAULT_END_BOUND + 3)
    proxy.cut()
    later = [asyncio.create_task(_deliver(url, u)) for u in updates[8:]]
    await asyncio.sleep(8)
    proxy.restore()
    await asyncio.wait_for(asyncio.gather(*later), timeout=FAULT_END_BOUND + 30)
    await _all_answered(h, 12, 10, idle=False)
    _assert_once(h, 12, replies=False)
    assert await _rolls_stored(h) == 12
