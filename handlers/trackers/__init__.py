"""Trackers: the shared router (/tracker, undo) and one router per system's fight or scene,
plus the multi-roll cards. Each system module registers its renderer at import."""

from __future__ import annotations

from aiogram import Router

from handlers.trackers import cards, cliche, common, fate, lifegear, matter, roster, storyteller


def create_routers() -> list[Router]:
    return [
        common.create_router(),
        fate.create_router(),
        cliche.create_router(),
        lifegear.create_router(),
        storyteller.create_router(),
        matter.create_router(),
        cards.create_router(),
        roster.create_router(),
    ]
