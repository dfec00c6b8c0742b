"""CPU-heavy work (verifying an uploaded roll log, exact odds of large pools) off the event loop.

Pure Python in a thread holds the GIL, so a long computation there stalls every other chat as
surely as one on the loop: the work runs in one child process (``bot.cpu_worker``), started
on first use, one job at a time. A job past its time limit gets the child killed (the next
job starts a new one) and the caller a ``CpuTimeout``; a caller that waited too long for its
turn gets ``CpuBusy``. The dispatcher's shutdown closes the child (``close``).

The child is ``python bot/cpu_worker.py``, not a multiprocessing child: that one re-imports
the bot's ``__main__`` (the whole bot), this one only what its jobs need (``engine``). So a
job is a module-level function of a module that does not import the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.cpu_worker import HEADER, frame

logger = logging.getLogger(__name__)

T = TypeVar("T")

WORKER = Path(__file__).resolve().with_name("cpu_worker.py")
QUEUE_WAIT_SECONDS = 20.0  # how long a job waits for the one before it, at most
# Jobs waiting for their turn, at most; one more is refused at once. Each waiting job holds one
# of the bot's concurrent update slots (``UPDATE_CONCURRENCY``): uploads must not take them all.
MAX_WAITING = 3


class CpuError(Exception):
    """The work did not run to its end; the caller answers in plain words."""


class CpuTimeout(CpuError):
    """The job ran past its time limit and was stopped."""


class CpuBusy(CpuError):
    """Other jobs kept the worker busy for longer than a caller waits."""


class CpuPool:
    """One lazily started worker process; ``run`` awaits a module-level function there."""

    def __init__(
        self, *, queue_wait: float = QUEUE_WAIT_SECONDS, max_waiting: int = MAX_WAITING
    ) -> None:
        self._queue_wait = queue_wait
        self._max_waiting = max_waiting
        self._waiting = 0
        self._turn = asyncio.Lock()
        self._process: asyncio.subprocess.Process | None = None
        self._closed = False
        self.started = 0  # worker processes started, for tests and logs

    @property
    def alive(self) -> bool:
        """A worker process is running."""
        return self._process is not None and self._process.returncode is None

    async def run(self, function: Callable[..., T], *args: Any, timeout: float) -> T:
        """``function(*args)`` in the worker; its exception is raised here (it must pickle,
        as ``EngineError`` does). ``CpuTimeout`` past ``timeout`` seconds of work."""
        if self._turn.locked() and self._waiting >= self._max_waiting:
            raise CpuBusy(function.__qualname__)
        job = frame((function.__module__, function.__qualname__, args))
        self._waiting += 1
        try:
            await asyncio.wait_for(self._turn.acquire(), self._queue_wait)
        except TimeoutError:
            raise CpuBusy(function.__qualname__) from None
        finally:
            self._waiting -= 1
        try:
            ok, value = await self._exchange(job, timeout, function.__qualname__)
        finally:
            self._turn.release()
        if not ok:
            raise value
        result: T = value
        return result

    async def _exchange(self, job: bytes, timeout: float, name: str) -> tuple[bool, Any]:
        process = await self._ensure()
        assert process.stdin is not None and process.stdout is not None
        try:
            async with asyncio.timeout(timeout):
                process.stdin.write(job)
                await process.stdin.drain()
                (size,) = HEADER.unpack(await process.stdout.readexactly(HEADER.size))
                body = await process.stdout.readexactly(size)
        except TimeoutError:
            logger.warning("cpu worker: %s ran past %ss, stopping it", name, timeout)
            await self._stop()
            raise CpuTimeout(name) from None
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            logger.error("cpu worker: lost during %s: %r", name, exc)
            await self._stop()
            raise CpuError(name) from exc
        except BaseException:  # cancelled mid-job: its answer would be read by the next one
            await self._stop()
            raise
        result: tuple[bool, Any] = pickle.loads(body)
        return result

    async def _ensure(self) -> asyncio.subprocess.Process:
        if self._process is not None and self._process.returncode is None:
            return self._process
        if self._closed:
            raise CpuError("the worker pool is closed")
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self.started += 1
        logger.info("cpu worker started (pid %s)", self._process.pid)
        return self._process

    async def _stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

    async def close(self) -> None:
        """End the worker: its stdin closes and it exits; killed if it does not within 2 s."""
        self._closed = True
        process = self._process
        if process is None:
            return
        if process.returncode is None and process.stdin is not None:
            process.stdin.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 2.0)
        await self._stop()
