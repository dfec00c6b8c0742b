"""The bot with the resource panel's router, whether or not ``handlers.routers()`` has it yet.

Until the lead adds ``resources.create_router()`` to ``handlers/__init__.py`` these tests
splice it in just before the fallback router (which answers every button nobody handled), so
they exercise exactly the order the integration will have.
"""

from __future__ import annotations

import pytest
from aiogram import Dispatcher

from handlers import resources
from handlers.callbacks import AnswerOnSuccess
from tests.conftest import Harness


def _with_resources(dp: Dispatcher) -> None:
    if any(r.name == resources.__name__ for r in dp.sub_routers):
        return
    router = resources.create_router()
    router.callback_query.middleware(AnswerOnSuccess())
    dp.include_router(router)
    dp.sub_routers.remove(router)
    tail = next(i for i, r in enumerate(dp.sub_routers) if r.name == "handlers.fallback")
    dp.sub_routers.insert(tail, router)


@pytest.fixture
async def table(harness: Harness) -> Harness:
    runtime = harness.build()
    _with_resources(runtime.dispatcher)
    await harness.start(runtime)
    return harness
