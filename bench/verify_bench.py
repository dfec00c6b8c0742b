"""Other chats' latency while the largest accepted ``/verify`` upload is verified.

The upload is as heavy as the limits let a file be: under the 5 MB upload cap, the dice to
re-roll (``VerifyLimits.dice``) and the expressions' length (``VerifyLimits.text``) at their
limits, in an epoch whose seed the uploader chose (revealed in the file). While the bot
verifies it (in its worker process), other users send ``/r 4dF+2`` in their private chats at a
fixed rate; latency = reply sent − update injected. Target: p99 ≤ 500 ms.

    python -m bench.verify_bench
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from typing import Any

from bench.e2e_bench import UNPACED, _admin_url, _Steal
from bot.config import Settings
from bot.services.verify import LIMITS, MAX_EXPORT_BYTES
from db.database import create_engine, migrate
from engine.dice.hmac_source import commitment
from engine.dice.log import EpochRecord, LogEntry, RollLogExport, new_entry
from tabletop.app import build_runtime
from tests.conftest import create_database, drop_database, with_database
from tgemu import BotAPIEmulator
from tgemu.types import EmuEvent

UPLOADER = 30_000
OTHERS = range(30_001, 30_021)
RATE = 20  # other chats' /r per second while the upload is verified
ROUNDS = 2
SEED = bytes.fromhex("5a" * 32)


def largest_upload() -> bytes:
    """The heaviest file the bot accepts: ``LIMITS.dice`` dice in 1000d1000 rolls, the rest
    of ``LIMITS.text`` in dice-free sums, as many entries as fit under the upload cap."""
    heavy = ["1000d1000"] * (LIMITS.dice // 1000)
    left = LIMITS.text - sum(map(len, heavy))
    light_text = "1+1+1+1+1+1+1"  # parsed like any expression, no die
    light = [light_text] * (left // len(light_text))
    for _ in range(20):
        content = _log(heavy + light).dumps().encode()
        if len(content) <= MAX_EXPORT_BYTES:
            return content
        light = light[: int(len(light) * MAX_EXPORT_BYTES / len(content) * 0.99)]
    raise AssertionError("no file under the upload cap")


def _log(expressions: list[str]) -> RollLogExport:
    entries: list[LogEntry] = []
    prev = None
    for i, expression in enumerate(expressions):
        prev = new_entry(
            prev, roll_id=f"b:{i}", epoch=1, actor="U", subject="U", expression=expression,
            faces=[], result=0, created_at="2026-12-01T10:00:00+00:00",
        )  # fmt: skip
        entries.append(prev)
    return RollLogExport("chat:1", (EpochRecord(1, commitment(SEED), SEED.hex()),), tuple(entries))


async def _round(emu: BotAPIEmulator, content: bytes) -> tuple[list[float], float]:
    """One upload; latencies (ms) of the other chats' rolls meanwhile, and the seconds the
    verdict took."""
    sent: list[tuple[int, int, float]] = []
    replied: dict[tuple[int, int], float] = {}
    verdict: list[float] = []
    upload: list[int] = []

    def record(event: EmuEvent) -> None:
        msg = event.message
        if event.kind != "new" or msg is None or msg.reply_to is None:
            return
        if msg.chat_id == UPLOADER:
            if msg.reply_to in upload:
                verdict.append(msg.sent_at)
        else:
            replied[(msg.chat_id, msg.reply_to)] = msg.sent_at

    unsubscribe = emu.subscribe(record)
    try:
        started = time.monotonic()
        sent_upload = emu.send_document(
            UPLOADER, UPLOADER, "roll-log.json", content, caption="/verify"
        )
        upload.append(sent_upload.message_id)
        i = 0
        clock = time.perf_counter()
        while not verdict:
            delay = clock + i / RATE - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            uid = OTHERS[i % len(OTHERS)]
            msg = emu.send_text(uid, uid, "/r 4dF+2")
            sent.append((uid, msg.message_id, time.monotonic()))
            i += 1
            if time.monotonic() - started > 120:
                raise TimeoutError("no verdict within 120 s")
        await emu.wait_for(lambda: all((u, m) in replied for u, m, _ in sent), timeout=60)
    finally:
        unsubscribe()
    latencies = [(replied[(u, m)] - at) * 1000 for u, m, at in sent]
    return latencies, verdict[0] - started


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
        for uid in (UPLOADER, *OTHERS):
            emu.add_user(uid, f"U{uid}", language_code="en")
        settings = Settings.model_validate({"DATABASE_URL": url, "BOT_TOKEN": "x"})
        runtime = build_runtime(token=emu.token, api_url=emu.base_url, engine=engine,
                                settings=settings, limits=UNPACED)  # fmt: skip
        runtime.start_polling()
        content = largest_upload()
        try:
            for uid in OTHERS:  # users, chats, epochs: the rolls measured are the usual ones
                emu.send_text(uid, uid, "/r 1d6")
            await emu.wait_idle(timeout=60)
            emu.send_text(UPLOADER, UPLOADER, "/odds 2d6")  # the worker process started
            await emu.wait_bot_message(UPLOADER, timeout=60)
            steal = _Steal()
            latencies: list[float] = []
            seconds: list[float] = []
            for _ in range(ROUNDS):
                got, took = await _round(emu, content)
                latencies += got
                seconds.append(took)
        finally:
            await runtime.stop()
        latencies.sort()
        p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)]
        return {
            "upload_bytes": len(content),
            "upload_entries": content.count(b'"roll_id"'),
            "verify_seconds": [round(s, 2) for s in seconds],
            "other_chats_rolls": len(latencies),
            "other_chats_p50_ms": round(statistics.median(latencies), 1),
            "other_chats_p99_ms": round(p99, 1),
            "other_chats_max_ms": round(latencies[-1], 1),
            "cpu_steal_percent": steal.percent(),
            "targets": {"p99_ms<=500": p99 <= 500},
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
