"""Live resource panels: the /res panel a chat has open for a character is redrawn when the
character changes from elsewhere (a grant on a request card, a milestone — by hand or on a
schedule —, a tracker's damage, the Mini App), so nobody acts on a stale value.

``remember`` is called when a panel is sent; ``live`` gives what a redraw needs. The redraw
itself (``bot.panels``) runs after the change committed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.services import grants as grant_service
from bot.services import resources
from db.repositories.games import CharacterDTO
from db.repositories.panels import PanelDTO
from db.uow import UnitOfWork
from engine.common import SheetModel


@dataclass(frozen=True)
class LivePanel:
    panel: PanelDTO
    character: CharacterDTO
    sheet: SheetModel
    asks: bool  # its gains are requests to the GM (the buttons say so)


async def remember(
    uow: UnitOfWork, character: CharacterDTO, chat_id: int, message_id: int, locale: str
) -> None:
    """The message just sent is the character's live panel in that chat. No commit."""
    await uow.panels.remember(character.id, chat_id, message_id, locale)


async def live(
    uow: UnitOfWork, character_ids: Iterable[int], *, skip: tuple[int, int] | None = None
) -> list[LivePanel]:
    """The open panels of these characters but the message ``skip`` (chat, message id), each
    with the character as it is now (an archived game's or a retired character's panel is
    left as it was)."""
    found: list[LivePanel] = []
    for panel in await uow.panels.of(character_ids):
        if skip == (panel.chat_id, panel.message_id):
            continue
        character = await uow.characters.get(panel.character_id)
        if character is None or character.status != "active":
            continue
        game = await uow.games.get(character.game_id)
        if game is None or game.archived or game.chat_id != panel.chat_id:
            continue
        asks = await grant_service.gains_asked(uow, game, character)
        found.append(LivePanel(panel, character, resources.load(character), asks))
    return found
