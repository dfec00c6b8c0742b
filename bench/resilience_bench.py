"""Resilience benchmarks, over the emulator and real Postgres, with Telegram's own pacing:

* ``flood``: one user pushes 200 commands into a group (whose replies Telegram paces to 20 a
  minute) while 20 other users each roll in their private chats at 10 updates/s in all: the
  others' latency p50/p99 (target p99 ≤ 500 ms), and the flooder's replies in that window
  (in order, paced).
* ``recovery``: 100 rolls, the database cut right after they arrive (a TCP proxy), back after
  ``OUTAGE`` seconds: the seconds from its return until all 100 are answered (target ≤ 5 s),
  and how many were answered more than once (target 0).
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections import Counter
from typing import Any

from bot.config import Settings
from bot.outbound import Limits
from db.database import create_engine, migrate
from tabletop.app import build_runtime
from tests.conftest import create_database, drop_database, with_database
from tests.helpers.db_proxy import DbProxy
from tgemu import BotAPIEmulator
from tgemu.types import EmuEvent

FLOODER, GROUP = 90_001, -90_001
OTHERS = range(91_000, 91_020)
OUTAGE = 8.0


def _replies(emu: BotAPIEmulator) -> tuple[dict[tuple[int, int], float], Any]:
    replied: dict[tuple[int, int], float] = {}

    def record(event: EmuEvent) -> None:
        msg = event.message
        if event.kind == "new" and msg is not None and msg.reply_to is not None:
            replied.setdefault((msg.chat_id, msg.reply_to), msg.sent_at)

    return replied, emu.subscribe(record)


async def _flood(emu: BotAPIEmulator, engine: Any, settings: Settings) -> dict[str, Any]:
    runtime = build_runtime(token=emu.token, api_url=emu.base_url, engine=engine,
                            settings=settings, limits=Limits())  # fmt: skip
    runtime.start_polling()
    replied, unsubscribe = _replies(emu)
    try:
        for uid in OTHERS:  # their chats exist, their first roll posted the commitment
            emu.send_text(uid, uid, "/r 1d6")
        await emu.wait_for(lambda: len(replied) >= len(OTHERS), timeout=60)
        replied.clear()
        flood = [emu.send_text(FLOODER, GROUP, f"/r 1d{6 + n % 5}").message_id
                 for n in range(200)]  # fmt: skip
        sent: list[tuple[int, int, float]] = []
        rate, seconds = 10, 10.0
        start = time.perf_counter()
        for i in range(int(rate * seconds)):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            uid = OTHERS[i % len(OTHERS)]
            sent.append((uid, emu.send_text(uid, uid, "/r 2d6").message_id, time.monotonic()))
        await emu.wait_for(lambda: all((u, m) in replied for u, m, _ in sent), timeout=60)
        latencies = sorted((replied[(u, m)] - at) * 1000 for u, m, at in sent)
        answered = [m for m in flood if (GROUP, m) in replied]
        order = sorted(answered, key=lambda m: replied[(GROUP, m)])
        return {
            "others_answered": len(latencies),
            "others_p50_ms": round(statistics.median(latencies), 1),
            "others_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1], 1),
            "flooder_commands": len(flood),
            "flooder_replies_meanwhile": len(answered),
            "flooder_replies_in_order": order == flood[: len(order)],
        }
    finally:
        unsubscribe()
        await runtime.stop()


async def _recovery(emu: BotAPIEmulator, url: str, settings: Settings) -> dict[str, Any]:
    proxy = await DbProxy(url).start()
    engine = create_engine(proxy.url)
    runtime = build_runtime(token=emu.token, api_url=emu.base_url, engine=engine,
                            settings=settings, limits=Limits(chat_burst=10_000,
                            chat_per_second=10_000.0, group_per_minute=10**6,
                            global_per_second=10**6))  # fmt: skip
    runtime.start_polling()
    replied, unsubscribe = _replies(emu)
    counts: Counter[tuple[int, int]] = Counter()

    def count(event: EmuEvent) -> None:
        msg = event.message
        if event.kind == "new" and msg is not None and msg.reply_to is not None:
            counts[(msg.chat_id, msg.reply_to)] += 1

    uncount = emu.subscribe(count)
    try:
        for uid in OTHERS:
            emu.send_text(uid, uid, "/r 1d4")
        await emu.wait_for(lambda: len(replied) >= len(OTHERS), timeout=60)
        replied.clear()
        counts.clear()
        sent = [(uid, emu.send_text(uid, uid, f"/r 1d{4 + n}").message_id)
                for n in range(5) for uid in OTHERS]  # fmt: skip
        await asyncio.sleep(0.02)
        proxy.cut()
        await asyncio.sleep(OUTAGE)
        answered_in_outage = sum(key in replied for key in sent)
        proxy.restore()
        back = time.perf_counter()
        await emu.wait_for(lambda: all(key in replied for key in sent), timeout=120)
        recovered = time.perf_counter() - back
        await asyncio.sleep(1.0)
        return {
            "updates": len(sent),
            "outage_seconds": OUTAGE,
            "answered_during_outage": answered_in_outage,
            "seconds_to_answer_all_after_return": round(recovered, 2),
            "answered_twice": sum(c > 1 for c in counts.values()),
        }
    finally:
        unsubscribe()
        uncount()
        await runtime.stop()
        await engine.dispose()
        await proxy.stop()


async def run(admin: str) -> dict[str, Any]:
    name = f"bench_{uuid.uuid4().hex[:10]}"
    await create_database(admin, name)
    url = with_database(admin, name)
    engine = create_engine(url)
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        await migrate(engine)
        emu.add_user(FLOODER, "Flood", language_code="en")
        for uid in OTHERS:
            emu.add_user(uid, f"U{uid}", language_code="en")
        emu.add_group(GROUP, "Busy table", members=[FLOODER])
        settings = Settings.model_validate({"DATABASE_URL": url, "BOT_TOKEN": "x"})
        flood = await _flood(emu, engine, settings)
        recovery = await _recovery(emu, url, settings)
        return {
            "flood": flood,
            "recovery": recovery,
            "targets": {
                "others_p99_ms<=500": flood["others_p99_ms"] <= 500,
                "flooder_in_order": flood["flooder_replies_in_order"],
                "recovery_seconds<=5": recovery["seconds_to_answer_all_after_return"] <= 5,
                "none_twice": recovery["answered_twice"] == 0,
            },
        }
    finally:
        await emu.stop()
        await engine.dispose()
        await drop_database(admin, name)


def main() -> None:
    import json
    import sys

    from bench.e2e_bench import _admin_url

    async def go() -> dict[str, Any]:
        return await run(await _admin_url())

    sys.stdout.write(json.dumps(asyncio.run(go()), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
