"""fate tracker (issue 10): commands, buttons and the renderer registered for its kinds."""

from __future__ import annotations

from aiogram import F, Router


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    return router
