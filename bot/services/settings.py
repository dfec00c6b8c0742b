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
    await uow.commit()
