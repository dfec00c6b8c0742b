"""A finished creation or edit wizard's sheet: stored, shown to the GM in the group for
approval (or applied at once when the GM edits), and the player told. Apart from
``handlers.characters`` (the approval presses) because the wizards call it and the character
handlers start the wizards: kept here, neither imports the other in a circle."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

from bot.delivery import Delivery
from bot.i18n import I18n, Translator
from bot.services import characters as character_service
from bot.services import games as game_service
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.common import SheetModel, Violation, name_taken
from handlers.views import characters as views
from handlers.views.sheets import render_sheet

if TYPE_CHECKING:  # annotations only: the wizards import this module
    from handlers.wizards.common import WizardStart

logger = logging.getLogger(__name__)


async def _chat_translator(uow: UnitOfWork, i18n: I18n, chat_id: int) -> Translator:
    chat = await uow.chats.get(chat_id)
    return i18n.of_group(chat.locale if chat else None)


async def submit_from_wizard(
    uow: UnitOfWork, bot: Bot, i18n: I18n, t: Translator, *, start: WizardStart, user: UserDTO,
    character: SheetModel, history: Sequence[Mapping[str, Any]] | None = None,
) -> list[Violation]:  # fmt: skip
    """Store the sheet, ask the GM in the group, tell the player. Returns blocking problems.
    ``history``: an imported character's ledger entries (checked by the rules of play)."""
    game = await uow.games.get(start.game_id)
    if game is None or game.archived:
        await bot.send_message(user.id, t("This game is archived; nothing was sent."))
        return []
    spec = SYSTEMS[game.system]
    in_play = start.character_id is not None or history is not None
    # only a GM's NPC may leave creation points unspent
    npc = start.npc and await game_service.is_gm(uow, game, user.id)
    blocking = spec.blocking(character, spec.options(game.options), in_play=in_play, npc=npc)
    if blocking:
        return blocking
    if start.character_id is not None:
        return await _submit_edit(uow, bot, i18n, t, game, start, user, character)
    try:
        submitted = await character_service.submit(
            uow, game=game, author_user_id=user.id, character=character, npc=npc,
            history=history,
        )  # fmt: skip
    except character_service.NameInUse as taken:  # an NPC's name: the wizard stays open
        return [name_taken(taken.name)]
    t_group = await _chat_translator(uow, i18n, game.chat_id)
    stored = submitted.character
    if npc:
        await Delivery.beside(uow, i18n).post(bot, game, views.npc_added(t_group, stored))
        await bot.send_message(user.id, views.npc_saved(t, stored))
    else:
        head = views.submitted_head(t_group, user.name)
        # what the player may leave unspent (the engine's warnings), for the GM to see
        notes = views.leftovers(t_group, spec.validate(character, spec.options(game.options)))
        room = 4096 - len(head) - len(notes) - 4
        sheet_html = _sheet_html(stored, t_group, t_group.locale, limit=room)
        posted = None
        try:
            posted = await Delivery.beside(uow, i18n).post(
                bot, game,
                "\n\n".join(part for part in (head, sheet_html, notes) if part),
                reply_markup=views.review_keyboard(t_group, stored.id),
            )  # fmt: skip
        except TelegramAPIError:
            logger.warning("could not post submission %s to chat %s", stored.id, game.chat_id)
        if posted is None:  # stored and pending all the same; the GM sees it in /game
            await bot.send_message(user.id, views.not_posted(t, stored))
            return []
        await bot.send_message(user.id, views.sent_for_approval(t, stored))
    return []


async def _submit_edit(
    uow: UnitOfWork, bot: Bot, i18n: I18n, t: Translator, game: GameDTO, start: WizardStart,
    user: UserDTO, character: SheetModel,
) -> list[Violation]:  # fmt: skip
    """The GM's edit applies at once; the owner's waits for the GM as a proposal. A name
    another active character has is returned as a problem (the wizard stays open)."""
    current = await uow.characters.get(start.character_id or 0)
    is_gm = await game_service.is_gm(uow, game, user.id)
    if current is None or not character_service.can_edit(current, user.id, is_gm=is_gm):
        await bot.send_message(user.id, t("You cannot edit this character."))
        return []
    t_group = await _chat_translator(uow, i18n, game.chat_id)
    if is_gm:
        try:
            updated = await character_service.edit(
                uow, current.id, user.id, character, base_version=start.base_version
            )
        except character_service.NameInUse as taken:
            return [name_taken(taken.name)]
        except character_service.CharacterError as error:
            await bot.send_message(user.id, t(error.reason))
            return []
        await Delivery.beside(uow, i18n).post(
            bot, game, views.gm_edited(t_group, updated, user.name)
        )
        await bot.send_message(user.id, views.edit_saved(t, updated))
        return []
    proposal = await character_service.propose(
        uow, current, user.id, character, base_version=start.base_version
    )
    changes = character_service.diff(current.sheet, proposal.sheet)
    await Delivery.beside(uow, i18n).post(
        bot, game,
        views.proposal_card(t_group, current, user.name, changes),
        reply_markup=views.proposal_keyboard(t_group, proposal.id),
    )  # fmt: skip
    await bot.send_message(user.id, views.proposal_sent(t, current))
    return []


def _sheet_html(character: CharacterDTO, t: Translator, locale: str, *, limit: int = 4096) -> str:
    spec = SYSTEMS[character.system]
    model = spec.load(character.sheet, character.schema_version)
    return render_sheet(character.system, model, t, locale, limit=limit)
