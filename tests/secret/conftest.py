"""Until the lead adds ``handlers.secret`` to ``handlers.routers()``, these tests put its router
in (after the command routers, before the wizards and the fallback); once it is there, nothing
is patched."""

from __future__ import annotations

import pytest
from aiogram import Router

import handlers
from handlers import secret
from handlers.callbacks import AnswerOnSuccess


@pytest.fixture(autouse=True)
def secret_router(monkeypatch: pytest.MonkeyPatch) -> None:
    original = handlers.routers

    def routers() -> list[Router]:
        found = original()
        if any(r.name == secret.__name__ for r in found):
            return found
        own = secret.create_router()
        own.callback_query.middleware(AnswerOnSuccess())
        names = [r.name for r in found]
        at = names.index("handlers.requests") + 1 if "handlers.requests" in names else 1
        return [*found[:at], own, *found[at:]]

    monkeypatch.setattr(handlers, "routers", routers)
