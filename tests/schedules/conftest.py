"""Until the lead includes ``handlers.schedules`` in ``handlers.routers()``, these tests add
its router before the fallback; once it is included this does nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aiogram import Router

import handlers
from handlers import schedules
from handlers.callbacks import AnswerOnSuccess


@pytest.fixture(autouse=True)
def _schedule_router(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    original = handlers.routers

    def with_schedules() -> list[Router]:
        routers = original()
        if any(r.name == schedules.__name__ for r in routers):
            return routers
        router = schedules.create_router()
        router.callback_query.middleware(AnswerOnSuccess())
        return [*routers[:-1], router, routers[-1]]

    monkeypatch.setattr(handlers, "routers", with_schedules)
    yield
