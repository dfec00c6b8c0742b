from __future__ import annotations

from db.uow import UnitOfWork


async def set_language(
    uow: UnitOfWork, chat_id: int, chat_type: str, user_id: int, locale: str
) -> None:
    """In a group the chat's language changes; in a private chat the user's."""
    if chat_type == "private":
        await uow.users.set_locale(user_id, locale)
    else:
        await uow.chats.set_locale(chat_id, locale)
    await uow.panels.relabel(chat_id, locale)  # a private chat's id is its user's
    await uow.commit()


async def adopt_group_language(uow: UnitOfWork, chat_id: int, gm_locale: str) -> None:
    """A game begins in a group (``/newgame``, an imported game): a group that never chose a
    language (/lang) speaks its GM's from now on, so every shared message (cards, panels,
    trackers) reads the same whoever presses it. A later game, or a later /lang, keeps what
    the group has. The caller commits."""
    if await uow.chats.adopt_locale(chat_id, gm_locale):
        await uow.panels.relabel(chat_id, gm_locale)
