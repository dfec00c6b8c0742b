"""Routers, one per module, built fresh for each dispatcher, in a fixed order.

Each module exposes ``create_router()`` rather than a module-level router: an aiogram router can
belong to one dispatcher only, and a restart in the same process (tests, the sandbox) builds a
new dispatcher.
"""

from __future__ import annotations

from aiogram import Router

from handlers import errors, fallback, lang, profile, service, start


def routers() -> list[Router]:
    return [
        errors.create_router(),
        service.create_router(),
        profile.create_router(),
        start.create_router(),
        lang.create_router(),
        fallback.create_router(),  # keep last: answers buttons nobody else handled
    ]
