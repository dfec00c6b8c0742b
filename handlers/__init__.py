"""Routers, one per module, built fresh for each dispatcher, in a fixed order.

Each module exposes ``create_router()`` rather than a module-level router: an aiogram router can
belong to one dispatcher only, and a restart in the same process (tests, the sandbox) builds a
new dispatcher. The creation wizards (aiogram-dialog) come after the command routers and before
the fallback, which answers any button nobody else handled.
"""

from __future__ import annotations

from aiogram import Router

from handlers import (
    characters,
    dice,
    errors,
    fallback,
    games,
    lang,
    milestones,
    profile,
    request_builder,
    requests,
    resources,
    schedules,
    secret,
    service,
    start,
    trackers,
    wizards,
)
from handlers.callbacks import AnswerOnSuccess


def routers() -> list[Router]:
    own = [
        errors.create_router(),
        service.create_router(),
        profile.create_router(),
        characters.create_router(),  # its deep-link /start precedes the plain /start
        start.create_router(),
        lang.create_router(),
        dice.create_router(),
        games.create_router(),
        requests.create_router(),
        request_builder.create_router(),
        milestones.create_router(),
        schedules.create_router(),
        secret.create_router(),
        resources.create_router(),
        *trackers.create_routers(),
    ]
    for router in own:
        # Every button press gets an answer, so no button keeps spinning. Per router, not on
        # the dispatcher: aiogram-dialog answers its own callbacks and a second answer fails.
        router.callback_query.middleware(AnswerOnSuccess())
    tail = fallback.create_router()
    tail.callback_query.middleware(AnswerOnSuccess())
    return [*own, *wizards.create_dialogs(), tail]
