"""The worker process that takes CPU-heavy work off the event loop (``bot.cpu``)."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction

import pytest

from bot.cpu import CpuBusy, CpuPool, CpuTimeout
from engine.dice.errors import DiceSyntaxError
from engine.dice.odds import distribution
from engine.dice.parser import parse


async def test_a_job_past_its_time_limit_is_stopped_and_the_next_gets_a_new_worker() -> None:
    pool = CpuPool()
    try:
        assert not pool.alive and pool.started == 0  # nothing started before the first job
        with pytest.raises(CpuTimeout):
            await pool.run(time.sleep, 30, timeout=0.5)
        assert not pool.alive  # killed, not left running
        dist = await pool.run(distribution, "2d6", timeout=30)
        assert dist.p(7) == Fraction(1, 6) and pool.started == 2
    finally:
        await pool.close()
    assert not pool.alive


async def test_engine_errors_come_back_as_themselves() -> None:
    pool = CpuPool()
    try:
        with pytest.raises(DiceSyntaxError) as caught:
            await pool.run(parse, "2d6+", timeout=30)
        assert "выражение оборвалось" in caught.value.render("ru")
        assert pool.started == 1 and pool.alive  # a job's own error keeps the worker
    finally:
        await pool.close()


async def test_callers_past_the_queue_are_told_at_once() -> None:
    pool = CpuPool(max_waiting=1)
    try:
        running = asyncio.create_task(pool.run(time.sleep, 1.0, timeout=30))
        await asyncio.sleep(0.05)
        waiting = asyncio.create_task(pool.run(time.sleep, 0, timeout=30))
        await asyncio.sleep(0.05)
        with pytest.raises(CpuBusy):
            await pool.run(time.sleep, 0, timeout=30)
        await asyncio.gather(running, waiting)
    finally:
        await pool.close()
