"""Routers, one per module, built fresh for each dispatcher, in a fixed order.

Each module exposes ``create_router()`` rather than a module-level router: an aiogram router can
belong to one dispatcher only, and a restart in the same process (tests, the sandbox) builds a
new dispatcher.
"""

from __future__ import annotations

from aiogram import Router
from aiogram.utils.callback_answer import CallbackAnswerMiddleware

from handlers import dice, errors, fallback, lang, profile, service, start


def routers() -> list[Router]:
    own = [
        errors.create_router(),
        service.create_router(),
        profile.create_router(),
        start.create_router(),
        lang.create_router(),
        dice.create_router(),
        fallback.create_router(),  # keep last: answers buttons nobody else handled
    ]
    for router in own:
        # Every button press gets an answer, so no button keeps spinning. Per router, not on
        # the dispatcher: aiogram-dialog answers its own callbacks and a second answer fails.
        router.callback_query.middleware(CallbackAnswerMiddleware())
    return own
