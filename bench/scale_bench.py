"""The bot as its own process, as deployed: long polling, then webhook mode with 1 and with 2
worker processes sharing one database.

Each worker is ``bench/worker.py`` (``python -m tabletop``'s webhook mode, pacing off). The
emulator POSTs the updates to them round-robin, as the proxy in front of the workers does in
production (``docker-compose.yml``), up to 40 at once (Telegram's default ``max_connections``).
For each worker count: ``/r 4dF+2`` updates per second in a burst of 1,000 (after a warm-up),
the CPU each side spent on it (this process with the emulator, the workers, PostgreSQL) and the
latency p50/p99 at a fixed 200 updates/s. Everything shares this machine's two cores, so a
second worker only helps while the workers are what saturates them (``cpu_ms_per_update``
tells).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import sys
import uuid
from pathlib import Path
from typing import Any

from bench.e2e_bench import _admin_url, _burst, _latency, _warm_up
from db.database import create_engine, migrate
from tests.conftest import create_database, drop_database, with_database
from tgemu import BotAPIEmulator

ROOT = Path(__file__).resolve().parent.parent
USERS = 200
PATH = "/tg/bench"
SECRET = "bench-secret"


def _free_port() -> int:
    """A port to listen on, below the kernel's range for outgoing connections: a port the
    kernel hands out (bind to 0) could be taken by an outgoing connection before the worker
    binds it, and the worker would not start."""
    while True:
        port = 20_000 + secrets.randbelow(10_000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


async def _workers(
    emu: BotAPIEmulator, url: str, n: int, *, webhook: bool
) -> list[asyncio.subprocess.Process]:
    """``n`` bot processes; in webhook mode the emulator POSTs to them round-robin."""
    ports = [_free_port() for _ in range(n)]
    emu.webhook_pusher.targets = [f"http://127.0.0.1:{port}{PATH}" for port in ports]
    ready = "setWebhook" if webhook else "deleteWebhook"  # the last call of a bot's start-up
    registered = len(emu.calls_to(ready))
    procs = []
    for port in ports:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_"))}
        env.update(BOT_TOKEN=emu.token, TELEGRAM_API_URL=emu.base_url, DATABASE_URL=url,
                   LOG_LEVEL="WARNING")  # fmt: skip
        if webhook:
            env.update(WEBHOOK_URL=f"https://bot.example{PATH}", WEBHOOK_SECRET=SECRET,
                       WEBHOOK_LISTEN=f"127.0.0.1:{port}")  # fmt: skip
        worker = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.worker", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        procs.append(worker)
    await emu.wait_for(lambda: len(emu.calls_to(ready)) >= registered + n, timeout=120)
    return procs


async def _stop(procs: list[asyncio.subprocess.Process]) -> None:
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    await asyncio.gather(*(asyncio.wait_for(p.wait(), timeout=60) for p in procs))


def _cpu_seconds(pid: int, *, reaped: bool = False) -> float:
    """User + system CPU of a process so far (0 if it is gone); with ``reaped``, also that of
    its children that ended and were waited for."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def _postgres_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm", encoding="ascii") as fh:
                    if fh.read().strip() == "postgres":
                        pids.append(int(entry))
            except OSError:
                continue
    return pids


def _cpu(procs: list[asyncio.subprocess.Process]) -> dict[str, float]:
    return {
        "emulator_and_bench": _cpu_seconds(os.getpid()),
        "workers": sum(_cpu_seconds(p.pid) for p in procs),
        # A backend that ends during the burst (an overflow connection returned) takes its
        # CPU with it: the postmaster, which waits for it, counts it as its children's. Without
        # that, two workers' Postgres once read 0.05 ms per update.
        "postgres": sum(_cpu_seconds(pid, reaped=True) for pid in _postgres_pids()),
    }


async def _measure(
    emu: BotAPIEmulator, url: str, workers: int, *, webhook: bool = True
) -> dict[str, Any]:
    users = range(10_000, 10_000 + USERS)
    procs = await _workers(emu, url, workers, webhook=webhook)
    try:
        await _warm_up(emu, "/r 1d6", users)
        before = _cpu(procs)
        rate = 1000 / await _burst(emu, "/r 4dF+2", 1000, users)
        after = _cpu(procs)
        latency = await _latency(emu, 200, 5.0, users)
    finally:
        await _stop(procs)
    # Where the burst's CPU went, per update: what a second worker can and cannot relieve.
    cpu_ms = {k: round(after[k] - before[k], 2) for k in after}  # seconds per 1,000 = ms each
    return {
        "roll_updates_per_second": round(rate, 1),
        "cpu_ms_per_update": cpu_ms,
        "latency_at_200_per_second": latency,
    }


async def run() -> dict[str, Any]:
    admin = await _admin_url()
    name = f"bench_{uuid.uuid4().hex[:10]}"
    await create_database(admin, name)
    url = with_database(admin, name)
    engine = create_engine(url)
    await migrate(engine)
    await engine.dispose()
    emu = BotAPIEmulator()
    await emu.start(host="127.0.0.1", port=0)
    try:
        for uid in range(10_000, 10_000 + USERS):
            emu.add_user(uid, f"U{uid}", language_code="en")
        polling = await _measure(emu, url, 1, webhook=False)
        one = await _measure(emu, url, 1)
        two = await _measure(emu, url, 2)
    finally:
        await emu.stop()
        await drop_database(admin, name)
    return {
        "polling_1_process": polling,
        "webhook_1_worker": one,
        "webhook_2_workers": two,
        "throughput_2_over_1": round(
            two["roll_updates_per_second"] / one["roll_updates_per_second"], 2
        ),
        "targets": {
            f"p99_ms<=50_{name}": figures["latency_at_200_per_second"]["p99_ms"] <= 50
            for name, figures in (("polling", polling), ("1_worker", one), ("2_workers", two))
        },
    }


def main() -> None:
    import json

    sys.stdout.write(json.dumps(asyncio.run(run()), ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
