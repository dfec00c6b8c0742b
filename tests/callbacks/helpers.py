"""Pacing on a clock the test moves: while it stands still, a chat whose budget is spent gets
nothing more, so whatever still reaches the emulator did not wait for pacing."""

from __future__ import annotations

import asyncio

from aiogram import Bot

from bot.outbound import Limits, OutboundLimiter, ResilienceMiddleware
from tests.conftest import Harness

# Telegram's documented limits (bot/outbound.py), with the global one out of the way: frozen,
# the clock would otherwise hold every chat after 30 calls.
TELEGRAM = Limits(global_per_second=10**6)


class ManualClock:
    """``clock``/``sleep`` for ``OutboundLimiter``: a sleep ends only once ``advance`` has
    moved the clock past its end."""

    def __init__(self) -> None:
        self.now = 0.0
        self._moved = asyncio.Event()

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        until = self.now + max(seconds, 0.0)
        while self.now < until:
            moved = self._moved
            await moved.wait()

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self._moved.set()
        self._moved = asyncio.Event()


def pace_on(bot: Bot, clock: ManualClock, limits: Limits = TELEGRAM) -> None:
    """Give the bot's outbound pacing ``limits`` on ``clock`` (before it starts polling)."""
    _outbound(bot).limiter = OutboundLimiter(limits, clock=clock.clock, sleep=clock.sleep)


def limiter_of(h: Harness) -> OutboundLimiter:
    assert h.runtime is not None
    return _outbound(h.runtime.bot).limiter


def _outbound(bot: Bot) -> ResilienceMiddleware:
    return next(m for m in bot.session.middleware if isinstance(m, ResilienceMiddleware))
