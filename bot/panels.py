"""Redraw the live /res panels of characters changed by an update, a job or the Mini App,
once the change committed (``bot.services.panels``). The panel's look comes from the
composition root (``handlers.views.resources.live_panel``): ``bot/`` imports no handler.
The edits go through the bot's outbound layer like any other, paced per chat."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest
from aiogram.types import InlineKeyboardMarkup
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.i18n import I18n, Translator
from bot.services import panels as service
from db.repositories.games import CharacterDTO
from db.uow import UnitOfWork
from engine.common import SheetModel

logger = logging.getLogger(__name__)

PanelView = Callable[
    [Translator, str, CharacterDTO, SheetModel, bool], tuple[str, InlineKeyboardMarkup]
]


@dataclass(frozen=True)
class PanelRedraw:
    """``await redraw(bot, character_ids, skip)``: their panels, but the message ``skip``
    ((chat id, message id): the panel the update itself just redrew)."""

    i18n: I18n
    session_factory: async_sessionmaker[AsyncSession]
    view: PanelView

    async def __call__(
        self, bot: Bot, character_ids: Collection[int], skip: tuple[int, int] | None = None
    ) -> None:
        if not character_ids:
            return
        try:
            async with UnitOfWork(self.session_factory) as uow:
                live = await self.read(uow, character_ids, skip)
        except Exception:  # the change is made and told; a stale panel is no reason to fail
            logger.exception("live panels of %s: not read", sorted(character_ids))
            return
        await self.send(bot, live)

    async def read(
        self, uow: UnitOfWork, character_ids: Collection[int], skip: tuple[int, int] | None
    ) -> list[service.LivePanel]:
        """The panels to redraw, read on a unit already open (an update's own, after its
        commit: no second connection for it)."""
        return await service.live(uow, character_ids, skip=skip) if character_ids else []

    async def send(self, bot: Bot, live: list[service.LivePanel]) -> None:
        """Redraw them; a panel whose message is gone for good is forgotten."""
        gone = [item.panel for item in live if not await self._edit(bot, item)]
        if gone:
            try:
                async with UnitOfWork(self.session_factory) as uow:
                    for panel in gone:
                        await uow.panels.forget(
                            panel.character_id, panel.chat_id, panel.message_id
                        )
                    await uow.commit()
            except Exception:  # tried again on the next change
                logger.exception("gone panels not forgotten")

    async def _edit(self, bot: Bot, item: service.LivePanel) -> bool:
        """False when the panel message is gone for good (deleted, too old to edit)."""
        panel = item.panel
        t = self.i18n.translator(panel.locale)
        text, keyboard = self.view(t, panel.locale, item.character, item.sheet, item.asks)
        try:
            await bot.edit_message_text(
                text=text, chat_id=panel.chat_id, message_id=panel.message_id,
                reply_markup=keyboard,
            )  # fmt: skip
        except TelegramBadRequest as error:
            if "not modified" in str(error):
                return True
            logger.info("panel %s in chat %s: %s", panel.message_id, panel.chat_id, error)
            return False
        except TelegramAPIError:
            logger.warning("panel %s in chat %s not redrawn", panel.message_id, panel.chat_id)
        return True
