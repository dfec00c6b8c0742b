"""Routers, one per module, collected in a fixed order (errors first, catch-alls last)."""

from __future__ import annotations

from aiogram import Router

from handlers import errors, lang, profile, service, start


def routers() -> list[Router]:
    return [errors.router, service.router, profile.router, start.router, lang.router]
