"""Optional flood control: sliding windows approximating Telegram's per-chat/global limits."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Window:
    limit: int
    seconds: float


@dataclass
class FloodControl:
    """Counts sends and says how long to wait (``retry_after``) when a window is full.

    A small ``tolerance`` shortens each window so that a client spacing its messages
    exactly at the limit is not punished for scheduler jitter.
    """

    per_chat: Window = Window(1, 1.0)
    per_group_minute: Window = Window(20, 60.0)
    overall: Window = Window(30, 1.0)
    tolerance: float = 0.05
    _chat_sends: dict[int | str, deque[float]] = field(default_factory=dict)
    _all_sends: deque[float] = field(default_factory=deque)

    def check(self, chat_id: int | str, is_group: bool, now: float | None = None) -> int | None:
        """Record a send and return None, or return retry_after seconds without recording."""
        now = time.monotonic() if now is None else now
        sends = self._chat_sends.setdefault(chat_id, deque())
        waits = [
            self._wait(sends, self.per_chat, now),
            self._wait(self._all_sends, self.overall, now),
        ]
        if is_group:
            waits.append(self._wait(sends, self.per_group_minute, now))
        worst = max(waits)
        if worst > 0:
            return max(1, math.ceil(worst))
        sends.append(now)
        self._all_sends.append(now)
        self._trim(sends, now)
        self._trim(self._all_sends, now)
        return None

    def _wait(self, sends: deque[float], window: Window, now: float) -> float:
        span = window.seconds - self.tolerance
        recent = [t for t in sends if now - t < span]
        if len(recent) < window.limit:
            return 0.0
        # the oldest send that must leave the window before another one fits
        oldest = recent[len(recent) - window.limit]
        return span - (now - oldest)

    def _trim(self, sends: deque[float], now: float) -> None:
        horizon = max(self.per_group_minute.seconds, self.per_chat.seconds, self.overall.seconds)
        while sends and now - sends[0] > horizon:
            sends.popleft()
