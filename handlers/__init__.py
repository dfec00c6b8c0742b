"""Routers, one per module, built fresh for each dispatcher, in a fixed order.

Each module exposes ``create_router()`` rather than a module-level router: an aiogram router can
belong to one dispatcher only, and a restart in the same process (tests, the sandbox) builds a
new dispatcher. The creation wizards (aiogram-dialog) come after the command routers and before
the fallback, which answers any button nobody else handled.
"""

from __future__ import annotations

import bot  # noqa: F401  # before aiogram: its models are then built lazily (bot.lazy_models)

# isort: split
from collections.abc import Callable, Iterator
from typing import Any

from aiogram import Router
from aiogram_dialog import setup_dialogs

from bot.answers import PressFirstIsolation, PressMessageManager
from handlers import (
    characters,
    dice,
    errors,
    fallback,
    games,
    grants,
    inline,
    lang,
    milestones,
    npcs,
    profile,
    request_builder,
    requests,
    resources,
    schedules,
    secret,
    service,
    start,
    topics,
    trackers,
    transfer,
    verify,
    wizards,
)
from handlers.callbacks import AnswerOnSuccess


def routers() -> list[Router]:
    """The dice and roll-request routers, then everything else inside one router that carries
    aiogram-dialog.

    aiogram-dialog's middlewares (load the user's wizard stack, hand out a dialog manager,
    save the stack) cost every update they see; mounted on the dispatcher they ran for every
    ``/r``, about 5% of its CPU (profile). Mounted on the zone they run only for updates the
    routers before it left alone, the zone being the only place that starts or drives a
    wizard. Error events still pass through the zone (aiogram offers every router an error),
    so the errors router inside it keeps aiogram-dialog's repair of a broken wizard stack.
    """
    own = [
        errors.create_router(),
        service.create_router(),
        profile.create_router(),
        characters.create_router(),  # its deep-link /start precedes the plain /start
        transfer.create_router(),
        npcs.create_router(),
        start.create_router(),
        lang.create_router(),
        games.create_router(),
        topics.create_router(),
        request_builder.create_router(),
        milestones.create_router(),
        schedules.create_router(),
        secret.create_router(),
        resources.create_router(),
        grants.create_router(),
        *trackers.create_routers(),
    ]
    # Before the zone, routers no wizard needs and whose filters no other router shares: dice
    # (/r, /log, /reveal: no other router takes them, so /r, the hottest message, meets one
    # router's filters), /verify and /odds (their own router, after dice's) and roll requests
    # (/request and its card's buttons; no free text, so a command typed mid-wizard still
    # reaches the zone). They skip the zone's middlewares. Before the requests, a command sent
    # to the wrong kind of chat is told where it works (before /request & co. would answer a
    # private chat as a chat without a game).
    first = [
        dice.create_router(), verify.create_router(), fallback.create_chat_kind_router(),
        requests.create_router(),
        inline.create_router(),  # inline queries and their placeholders' presses only
    ]  # fmt: skip
    for router in [*first, *own]:
        # Forged out-of-range data is refused before a handler runs. The press's one answer
        # is bot.answers' (the dispatcher's middleware), wizards' included.
        router.callback_query.middleware(AnswerOnSuccess())
    tail = fallback.create_router()
    tail.callback_query.middleware(AnswerOnSuccess())
    zone = Router(name="dialog_zone")
    zone.include_routers(*own, *wizards.create_dialogs(), tail)
    # also includes aiogram-dialog's own default dialogs; its answer is the press's one answer.
    # Its lock of the sender's dialog stack is one more key a press may run beside while its
    # holder waits for pacing (bot.answers.PressFirstIsolation).
    setup_dialogs(
        zone, message_manager=PressMessageManager(), events_isolation=PressFirstIsolation()
    )
    every = [*first, zone]
    for router in every:
        _inline_sync_filters(router)
    return every


def _inline_sync_filters(router: Router) -> None:
    """aiogram runs a synchronous filter — every ``F.…`` magic filter, a bare ``State`` — in a
    worker thread (``asyncio.to_thread``), a thread hop per filter per update that walked past
    it. Ours are pure attribute checks: each is awaited in place instead. The parameters
    aiogram read from the original signature stay as they were."""
    for sub in _walk(router):
        for observer in sub.observers.values():
            filters = list(observer._handler.filters or [])
            for handler in observer.handlers:
                filters.extend(handler.filters or [])
            for f in filters:
                if not f.awaitable:
                    f.callback = _awaited(f.callback)
                    f.awaitable = True


def _awaited(check: Callable[..., Any]) -> Callable[..., Any]:
    async def inline(*args: Any, **kwargs: Any) -> Any:
        return check(*args, **kwargs)

    return inline


def _walk(router: Router) -> Iterator[Router]:
    yield router
    for sub in router.sub_routers:
        yield from _walk(sub)
