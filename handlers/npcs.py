"""Quick NPCs (issue 24 item 1): ``/npc Громила: Бой 3, Атлетика 2`` makes an active NPC in
one message; ``/npc`` alone explains the form and links the full wizard; the GM's paged list
(also from /game) retires NPCs, asking first."""

from __future__ import annotations

from html import escape

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import games as game_service
from bot.services import npcs as service
from bot.systems import SYSTEMS
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from handlers.callbacks import notify
from handlers.filters import HasGame, IsGM
from handlers.owned import carries, show
from handlers.views import npcs as views
from handlers.views.edit import edit_text
from handlers.views.games import deep_link
from handlers.views.safe import error_text
from handlers.views.sheets import sheet_pages


async def npc_command(
    message: Message, command: CommandObject, game: GameDTO, user: UserDTO, t: Translator,
    locale: str, uow: UnitOfWork, bot: Bot,
) -> None:  # fmt: skip
    if not (command.args or "").strip():
        await _how_to(message, game, t, locale, uow, bot)
        return
    try:
        stored = await service.create(
            uow, game, user_id=user.id, text=command.args or "", mook_name=t("Mook {n}")
        )
    except service.NpcFormError as error:
        await message.answer(error_text(error, locale))
        return
    except service.NpcRefused as refused:
        if refused.reason == service.EMPTY:  # refused, with what a line looks like
            await _how_to(message, game, t, locale, uow, bot, refusal=t(refused.reason))
        else:
            args = {key: escape(value) for key, value in refused.args_.items()}
            await message.answer(t(refused.reason, **args))
        return
    spec = SYSTEMS[stored.system]
    page = sheet_pages(stored.system, spec.load(stored.sheet, stored.schema_version), t, locale)
    await message.answer(views.created(t, stored, page[0]))


async def _how_to(
    message: Message, game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, bot: Bot,
    *, refusal: str = "",
) -> None:  # fmt: skip
    token = await game_service.npc_link_token(uow, game)
    count = len(await service.active_npcs(uow, game))
    me = await bot.me()
    text = views.how_to(t, service.example(game, locale), count)
    await message.answer(
        f"{refusal}\n\n{text}" if refusal else text,
        reply_markup=views.how_to_keyboard(t, deep_link(me.username or "", token), count),
    )


async def npc_refused(message: Message, t: Translator) -> None:
    await message.answer(t("Only the GM can do that."))


async def npc_list(query: CallbackQuery, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    if isinstance(query.message, Message):
        page = await service.page_of(uow, game, 0)
        await query.message.answer(
            views.page_text(t, game, page), reply_markup=views.page_keyboard(t, page)
        )


async def npc_page(
    query: CallbackQuery, callback_data: views.NpcPageCD, game: GameDTO, t: Translator,
    uow: UnitOfWork,
) -> None:  # fmt: skip
    if not isinstance(query.message, Message):
        return
    page = await service.page_of(uow, game, callback_data.page)
    text, keyboard = views.page_text(t, game, page), views.page_keyboard(t, page)
    # Only the list redraws itself: pressed elsewhere (a forged button) it comes anew.
    await show(query.message, text, keyboard, views.NpcPageCD, views.NpcRetireCD)


async def npc_retire(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: views.NpcRetireCD,
    game: GameDTO, user: UserDTO, t: Translator, uow: UnitOfWork,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message) or not carries(message, views.NpcRetireCD):
        notify(callback_answer, t("This button is no longer active."))
        return
    if not callback_data.ok:
        found = await uow.characters.get(callback_data.c)
        if found is None or found.game_id != game.id or not found.is_npc:
            notify(callback_answer, t("This button is no longer active."))
            return
        text, keyboard = views.retire_question(t, found, callback_data.page)
        await edit_text(message, text, keyboard)
        return
    try:
        name = await service.retire(uow, game, user_id=user.id, character_id=callback_data.c)
    except service.NpcRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        name = None
    if name is not None:
        notify(callback_answer, views.retired(t, name))
    page = await service.page_of(uow, game, callback_data.page)
    await edit_text(message, views.page_text(t, game, page), views.page_keyboard(t, page))


async def button_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can do that."), alert=True)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))
    gm = Router(name=__name__ + ".gm")
    gm.message.filter(IsGM())
    gm.callback_query.filter(IsGM())
    gm.message.register(npc_command, Command("npc"))
    gm.callback_query.register(npc_list, views.NpcListCD.filter())
    gm.callback_query.register(npc_page, views.NpcPageCD.filter())
    gm.callback_query.register(npc_retire, views.NpcRetireCD.filter())
    others = Router(name=__name__ + ".others")
    others.message.register(npc_refused, Command("npc"), HasGame())
    others.callback_query.register(button_refused, views.NpcListCD.filter())
    others.callback_query.register(button_refused, views.NpcPageCD.filter())
    others.callback_query.register(button_refused, views.NpcRetireCD.filter())
    router.include_routers(gm, others)
    return router
