"""A step of a use case committed on its own, for handlers that act on Telegram after the
commit: a tracker's press edits its message, a posted tracker remembers its message id. The
commit comes first so the row locks end before the message waits for the chat's pacing.
Handlers never commit themselves (``tests/layout/test_imports.py``); the unit-of-work
middleware commits whatever else an update wrote, once, when its handler returns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from db.uow import UnitOfWork

T = TypeVar("T")


async def committed(
    uow: UnitOfWork,
    step: Callable[[], Awaitable[T]],
    *,
    undo_on: tuple[type[BaseException], ...] = (),
) -> T:
    """Run ``step`` and commit what it wrote. If it raises one of ``undo_on`` (a refusal), what
    it wrote is rolled back (the update's claim stays: the refusal is how it was handled) and
    the error raised again; any other error is raised with nothing committed."""
    try:
        result = await step()
    except undo_on:
        await uow.rollback()
        raise
    await uow.commit()
    return result
