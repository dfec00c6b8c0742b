"""Routing costs no thread hops: every filter and handler the routers hold is awaited in place.

aiogram hands a synchronous callable (an ``F.…`` magic filter, a bare ``State``) to a worker
thread on every update that reaches it; ``handlers.routers()`` turns our filters into inline
awaitables, and no handler may be synchronous.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aiogram import F, Router
from aiogram.dispatcher.event.handler import CallableObject
from aiogram.fsm.state import State, StatesGroup

import handlers


def _callables(router: Router) -> Iterator[tuple[str, CallableObject]]:
    for sub in handlers._walk(router):
        for name, observer in sub.observers.items():
            for f in observer._handler.filters or []:
                yield f"{sub.name}.{name} router filter", f
            for handler in observer.handlers:
                yield f"{sub.name}.{name} handler {handler.callback!r:.60}", handler
                for f in handler.filters or []:
                    yield f"{sub.name}.{name} filter of {handler.callback!r:.60}", f


def test_no_filter_or_handler_runs_in_a_thread() -> None:
    every = [(where, c) for r in handlers.routers() for where, c in _callables(r)]
    assert len(every) > 300  # the walk reached the routers, sub-routers and dialogs
    assert [where for where, c in every if not c.awaitable] == []


class _SG(StatesGroup):
    step = State()


@pytest.mark.parametrize(
    ("message", "state", "expected"),
    [
        ({"chat": {"type": "group"}, "text": "hi"}, "_SG:step", True),
        ({"chat": {"type": "private"}, "text": "hi"}, "_SG:step", False),
        ({"chat": {"type": "group"}}, "_SG:step", False),
        ({"chat": {"type": "group"}, "text": "hi"}, None, False),
    ],
)
async def test_inlined_filters_decide_as_before(
    message: dict[str, object], state: str | None, expected: bool
) -> None:
    router = Router()
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(lambda m: None, _SG.step, F.text)
    handlers._inline_sync_filters(router)
    observer = router.message
    passed, _ = await observer._handler.check(_Msg(message), raw_state=state)
    if passed:
        passed, _ = await observer.handlers[0].check(_Msg(message), raw_state=state)
    assert passed is expected


class _Msg:
    """The attributes the filters read, as an object (magic filters read attributes)."""

    def __init__(self, data: dict[str, object]) -> None:
        for key, value in data.items():
            setattr(self, key, _Msg(value) if isinstance(value, dict) else value)

    def __getattr__(self, name: str) -> None:
        return None
