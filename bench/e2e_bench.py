"""End-to-end benchmark over the emulator and real Postgres, in one process and one run.

* ``/r 4dF+2`` throughput (parse, HMAC roll, hash-chained log row, reply) against a bare
  aiogram echo bot on the same emulator, in nine alternating pairs of turns: the median of
  the pairs' ratios is the figure (their quartiles say how much the machine moved);
* latency p50/p99 of ``/r`` at a fixed 200 updates/s;
* roll-request button presses per second (each press rolls once through the log);
* resident memory with 1,000 open creation wizards.

Pacing is switched off (Telegram's limits are a property of the channel, not of the bot):
the figures say how fast the bot itself works. Postgres: ``BENCH_DATABASE_URL`` (admin URL),
else 127.0.0.1:5432, else an embedded server; a fresh database is created and dropped.
"""

from __future__ import annotations

import asyncio
import os
import resource
import statistics
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from aiogram import Bot, Dispatcher, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Message

from bot.config import Settings
from bot.i18n import I18n
from bot.outbound import Limits
from db.database import create_engine, create_session_factory, migrate
from db.uow import UnitOfWork
from tabletop.app import BotRuntime, build_runtime, settle_heap
from tests.conftest import (
    LOCAL_ADMIN_URL,
    _embedded_admin_url,
    _reachable,
    create_database,
    drop_database,
    with_database,
)
from tgemu import BotAPIEmulator
from tgemu.types import EmuEvent

UNPACED = Limits(chat_burst=10_000, chat_per_second=10_000.0, group_per_minute=10**6,
                 global_per_second=10**6)  # fmt: skip
USERS = 200
# Echo/roll turns; the ratio is the median of the nine. This machine's speed changes within
# seconds (the same code's CPU per update moved ±30% turn to turn), so one pair's ratio ranged
# 0.30–0.73 in one run: nine pairs instead of five narrow the median's spread.
PAIRS = 9


async def _admin_url() -> str:
    explicit = os.environ.get("BENCH_DATABASE_URL")
    if explicit:
        return explicit
    if await _reachable(LOCAL_ADMIN_URL):
        return LOCAL_ADMIN_URL
    return await asyncio.to_thread(_embedded_admin_url)


class _Steal:
    """The share of CPU time the hypervisor gave to other guests while a section ran
    (``steal`` in /proc/stat), in percent: how much a figure of this run was crowded out.
    None where the kernel does not report it."""

    def __init__(self) -> None:
        self._start = self._read()

    @staticmethod
    def _read() -> tuple[int, int] | None:
        try:
            with open("/proc/stat", encoding="ascii") as fh:
                fields = [int(v) for v in fh.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        return (fields[7], sum(fields)) if len(fields) > 7 else None

    def percent(self) -> float | None:
        end = self._read()
        if self._start is None or end is None or end[1] == self._start[1]:
            return None
        return round(100 * (end[0] - self._start[0]) / (end[1] - self._start[1]), 1)


class _DiskFlushes:
    """The slowest of small ``fdatasync`` calls made every 50 ms while a section runs, in a
    temporary file (``BENCH_FLUSH_DIR``, else the temporary directory — on the development
    machines the disk Postgres writes its WAL to): every roll commits with a WAL flush, so a
    latency percentile includes the disk's worst flushes, and this says how bad they were."""

    def __init__(self) -> None:
        self._durations: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._probe, daemon=True)
        self._thread.start()

    def _probe(self) -> None:
        directory = os.environ.get("BENCH_FLUSH_DIR") or tempfile.gettempdir()
        with tempfile.TemporaryFile(dir=directory) as fh:
            while not self._stop.wait(0.05):
                os.pwrite(fh.fileno(), b"\0" * 4096, 0)
                started = time.perf_counter()
                os.fdatasync(fh.fileno())
                self._durations.append((time.perf_counter() - started) * 1000)

    @property
    def flushes(self) -> int:
        return len(self._durations)

    def summary(self) -> dict[str, Any]:
        self._stop.set()
        self._thread.join()
        durations = self._durations
        return {
            "disk_flushes": len(durations),
            # Two decimals: a flush to a fast or memory-backed directory takes well under
            # 0.1 ms, and "0.0" would read as "never flushed". None when it never did.
            "disk_flush_max_ms": round(max(durations), 2) if durations else None,
            "disk_flushes_over_50_ms": sum(d > 50 for d in durations),
        }


async def _timed(emu: BotAPIEmulator, kind: str, n: int, send: Callable[[], None]) -> float:
    """Seconds from ``send()`` until the emulator has seen ``n`` events of ``kind`` from the
    bot. Counted by a listener: a predicate scanning the chats (or a waiter per press) on
    every emulator change cost the bench process O(n²) and slowed the bot it measured."""
    seen = 0

    def count(event: EmuEvent) -> None:
        nonlocal seen
        seen += event.kind == kind

    unsubscribe = emu.subscribe(count)
    try:
        started = time.perf_counter()
        send()
        await emu.wait_for(lambda: seen >= n, timeout=300)
        return time.perf_counter() - started
    finally:
        unsubscribe()


async def _burst(emu: BotAPIEmulator, text: str, n: int, users: range) -> float:
    """Send ``n`` messages at once; seconds until the bot has sent ``n`` new messages (one
    reply each: the warm-up takes the chats' first rolls, which also post a commitment)."""

    def send() -> None:
        for i in range(n):
            uid = users[i % len(users)]
            emu.send_text(uid, uid, text)

    return await _timed(emu, "new", n, send)


async def _warm_up(emu: BotAPIEmulator, text: str, users: range) -> None:
    await _burst(emu, text, len(users), users)
    await emu.wait_idle(timeout=60)


class _EchoBot:
    """A bare aiogram echo bot on the same emulator: the baseline of the ratio."""

    def __init__(self, emu: BotAPIEmulator) -> None:
        router = Router()

        @router.message()
        async def echo(message: Message) -> None:
            await message.answer(message.text or "")

        self._dp = Dispatcher()
        self._dp.include_router(router)
        self._bot = Bot(
            emu.token, session=AiohttpSession(api=TelegramAPIServer.from_base(emu.base_url))
        )
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(
            self._dp.start_polling(self._bot, handle_signals=False, polling_timeout=1)
        )

    async def stop(self) -> None:
        await self._dp.stop_polling()
        assert self._task is not None
        await self._task


async def _pairs(
    emu: BotAPIEmulator, echo: _EchoBot, build: Callable[[], BotRuntime], n: int, users: range
) -> list[tuple[float, float]]:
    """Updates per second of the echo bot and of ``/r 4dF+2``, measured in turns (echo, roll,
    echo, roll, …) so that both see the same moments of a shared, noisy machine. Our bot is
    built anew for each turn, as a restarted process would be (a runtime starts once); each
    turn starts on a settled heap, as ``python -m tabletop`` serves (the echo bot's turn too)."""
    pairs = []
    for _ in range(PAIRS):
        settle_heap()
        echo.start()
        await _burst(emu, "/r 4dF+2", len(users), users)  # its connections, as below
        echo_rate = n / await _burst(emu, "/r 4dF+2", n, users)
        await echo.stop()
        runtime = build()
        settle_heap()
        runtime.start_polling()
        await _burst(emu, "/r 4dF+2", len(users), users)  # pools filled, statements prepared
        roll_rate = n / await _burst(emu, "/r 4dF+2", n, users)
        await runtime.stop()
        pairs.append((echo_rate, roll_rate))
    return pairs


async def _latency(emu: BotAPIEmulator, rate: int, seconds: float, users: range) -> dict[str, Any]:
    """Inject at a fixed rate; latency = reply sent − update injected."""
    steal, flushes = _Steal(), _DiskFlushes()
    total = int(rate * seconds)
    sent: list[tuple[int, int, float]] = []
    replied: dict[tuple[int, int], float] = {}

    def record(event: EmuEvent) -> None:
        msg = event.message
        if event.kind == "new" and msg is not None and msg.reply_to is not None:
            replied[(msg.chat_id, msg.reply_to)] = msg.sent_at

    unsubscribe = emu.subscribe(record)
    try:
        start = time.perf_counter()
        for i in range(total):
            target = start + i / rate
            delay = target - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            uid = users[i % len(users)]
            msg = emu.send_text(uid, uid, "/r 4dF+2")
            sent.append((uid, msg.message_id, time.monotonic()))
        await emu.wait_for(lambda: len(replied) >= total, timeout=120)
    finally:
        unsubscribe()
        flushed = flushes.summary()  # stopped however the run ended
    latencies = sorted(
        (replied[(uid, mid)] - at) * 1000 for uid, mid, at in sent if (uid, mid) in replied
    )
    return {
        "offered_updates_per_second": rate,
        "answered": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1),
        "p99_ms": round(latencies[int(len(latencies) * 0.99) - 1], 1),
        "cpu_steal_percent": steal.percent(),
        **flushed,
    }


async def _button_rate(
    emu: BotAPIEmulator, engine: Any, runtime: Any, n: int, *, chats: int, base: int
) -> float:
    """``n`` roll-request cards spread over ``chats`` group chats (a game each), pressed all
    at once by their players; presses per second until every press is answered. Within one
    chat the rolls queue on that chat's hash chain (one log row lock per append)."""
    from bot.services import requests as request_service
    from handlers.views import requests as views

    gm = base
    players = list(range(base + 1, base + 21))
    emu.add_user(gm, "GM", language_code="en")
    for uid in players:
        emu.add_user(uid, f"P{uid}", language_code="en")
    factory = create_session_factory(engine)
    games = []
    for c in range(chats):
        group = -(base * 100 + c)
        emu.add_group(group, f"Bench table {c}", members=[gm, *players], creator=gm)
        emu.send_text(gm, group, "hello")
        async with UnitOfWork(factory) as uow:
            games.append(await uow.games.create(group, "fate", "Bench", gm))
            await uow.commit()
    t = I18n("en").translator("en")
    cards = []
    for i in range(n):
        game, target = games[i % chats], players[i % len(players)]
        async with UnitOfWork(factory) as uow:
            request = await request_service.create(
                uow, game, gm_user_id=gm, target_user_id=target,
                spec=request_service.parse_spec("4dF+2 vs 2"),
            )  # fmt: skip
        keyboard = views.card_keyboard(t, request)
        card = await runtime.bot.send_message(
            game.chat_id, views.card(t, request, "GM", f"P{target}", None), reply_markup=keyboard
        )
        async with UnitOfWork(factory) as uow:  # a request's 🎲 works only on its own card
            await request_service.attach_card(uow, request, card.message_id)
        cards.append((target, game.chat_id, card.message_id, keyboard))

    def press() -> None:
        for uid, chat, mid, kb in cards:
            emu.press(uid, chat, mid, kb.inline_keyboard[0][0].callback_data or "")

    return n / await _timed(emu, "callback_answer", n, press)


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run() -> dict[str, Any]:
    admin = await _admin_url()
    name = f"bench_{uuid.uuid4().hex[:10]}"
    await create_database(admin, name)
    url = with_database(admin, name)
    engine = create_engine(url, pool_size=20)
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        await migrate(engine)
        users = range(10_000, 10_000 + USERS)
        for uid in users:
            emu.add_user(uid, f"U{uid}", language_code="en")
        n = 1000
        echo = _EchoBot(emu)
        echo.start()
        await _warm_up(emu, "warm up", users)
        await echo.stop()
        settings = Settings.model_validate({"DATABASE_URL": url, "BOT_TOKEN": "x"})

        def build() -> BotRuntime:
            return build_runtime(token=emu.token, api_url=emu.base_url, engine=engine,
                                 settings=settings, limits=UNPACED)  # fmt: skip

        runtime = build()
        runtime.start_polling()
        await _warm_up(emu, "/r 1d6", users)  # users, chats, epochs and commitments
        await runtime.stop()
        steal = _Steal()
        pairs = await _pairs(emu, echo, build, n, users)
        pairs_steal = steal.percent()
        runtime = build()
        settle_heap()
        runtime.start_polling()
        try:
            await _burst(emu, "/r 4dF+2", len(users), users)  # a fresh runtime: warm it first
            latency = await _latency(emu, 200, 5.0, users)
            presses = await _button_rate(emu, engine, runtime, 300, chats=1, base=5000)
            spread = await _button_rate(emu, engine, runtime, 300, chats=10, base=7000)
        finally:
            await runtime.stop()
        ratios = [r / e for e, r in pairs]
        ratio = statistics.median(ratios)
        quartiles = statistics.quantiles(ratios, n=4)
        return {
            "echo_updates_per_second": round(statistics.median(e for e, _ in pairs), 1),
            "roll_updates_per_second": round(statistics.median(r for _, r in pairs), 1),
            "roll_to_echo_ratio": round(ratio, 3),
            "roll_to_echo_ratio_quartiles": [round(quartiles[0], 3), round(quartiles[2], 3)],
            "pairs_echo_roll": [[round(e, 1), round(r, 1)] for e, r in pairs],
            "pairs_cpu_steal_percent": pairs_steal,
            "latency_at_200_per_second": latency,
            "roll_button_presses_per_second": round(presses, 1),
            "roll_button_presses_per_second_over_10_chats": round(spread, 1),
            "rss_mb_after_run": round(_rss_mb(), 1),
            "targets": {
                "ratio>=0.5": ratio >= 0.5,
                "p99_ms<=50": latency["p99_ms"] <= 50,
                "presses_per_second>=100": presses >= 100,
                "presses_per_second_over_10_chats>=100": spread >= 100,
            },
        }
    finally:
        await emu.stop()
        await engine.dispose()
        await drop_database(admin, name)


def main() -> None:
    import json
    import sys

    sys.stdout.write(json.dumps(asyncio.run(run()), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
