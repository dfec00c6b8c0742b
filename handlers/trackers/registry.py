"""Which view renders which tracker kind: the shared buttons (undo, /tracker) re-render any
tracker through its system's renderer without knowing the system."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram.types import InlineKeyboardMarkup

from bot.i18n import Translator
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork

Rendered = tuple[str, InlineKeyboardMarkup | None]
Renderer = Callable[[UnitOfWork, Translator, TrackerDTO], Awaitable[Rendered]]

RENDERERS: dict[str, Renderer] = {}


def register(kind: str, renderer: Renderer) -> None:
    """Called at import by each system's tracker handler module (one entry per kind)."""
    RENDERERS[kind] = renderer


async def render(uow: UnitOfWork, t: Translator, tracker: TrackerDTO) -> Rendered:
    return await RENDERERS[tracker.kind](uow, t, tracker)
