"""/newgame, /game, and the GM's own /options, /cogm, /uncogm, /timezone and archiving — a
group becomes a game."""

from __future__ import annotations

from html import escape
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import N_, I18n, Translator, own_locale
from bot.services import games as game_service
from bot.services import grants as grant_service
from bot.services import schedules as schedule_service
from bot.services.profile import parse_timezone
from bot.systems import SYSTEMS
from db.repositories.games import GameDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine import formats
from handlers import topics, wizards
from handlers.callbacks import (
    ArchiveCancelCD,
    ArchiveCD,
    CogmRemoveCD,
    GameOptionCD,
    NewGameCD,
    notify,
)
from handlers.filters import HasGame, IsGM, IsMainGM
from handlers.owned import own
from handlers.views import games as views
from handlers.views import grants as grant_views
from handlers.views import topics as topic_views
from handlers.views.edit import edit_text


class NewGameSG(StatesGroup):
    title = State()


async def new_game(
    message: Message, command: CommandObject, state: FSMContext, t: Translator, uow: UnitOfWork
) -> None:
    if await uow.games.live_for_chat(message.chat.id) is not None:
        await message.answer(t("This chat already has a game. The GM can archive it first."))
        return
    title = game_service.clean_title(command.args or "")
    await state.set_data({"title": title} if title else {})
    assert message.from_user is not None
    await message.answer(
        views.system_picker_text(t), reply_markup=views.system_picker(t, message.from_user.id)
    )


async def pick_system(
    query: CallbackQuery,
    callback_answer: CallbackAnswer, callback_data: NewGameCD, state: FSMContext, t: Translator,
    uow: UnitOfWork, user: UserDTO, bot: Bot, i18n: I18n,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, NewGameCD, by=callback_data.by)
    if message is None:
        return
    if callback_data.by != query.from_user.id:
        notify(callback_answer, t("Only the one who typed /newgame can choose."), alert=True)
        return
    if not game_service.is_system(callback_data.system):  # a forged press: change nothing
        notify(callback_answer, t("There is no such rule system."), alert=True)
        return
    if await uow.games.live_for_chat(message.chat.id) is not None:
        return  # a second tap after the game was created: nothing left to choose
    title = (await state.get_data()).get("title")
    if title:
        await _create(message, state, t, uow, user, bot, i18n, callback_data.system, title)
        return
    await state.set_state(NewGameSG.title)
    await state.update_data(system=callback_data.system)
    await edit_text(message, views.ask_title(t, callback_data.system))


async def got_title(
    message: Message, state: FSMContext, t: Translator, uow: UnitOfWork, user: UserDTO, bot: Bot,
    i18n: I18n,
) -> None:  # fmt: skip
    title = game_service.clean_title(message.text or "")
    if title is None:
        await message.answer(t("A title is one line of 1 to 64 characters. Try again."))
        return
    system = str((await state.get_data()).get("system", ""))
    await _create(message, state, t, uow, user, bot, i18n, system, title, edit=False)


async def _create(
    message: Message, state: FSMContext, t: Translator, uow: UnitOfWork, user: UserDTO,
    bot: Bot, i18n: I18n, system: str, title: str, *, edit: bool = True,
) -> None:  # fmt: skip
    await state.clear()
    try:
        game = await game_service.create_game(
            uow, chat_id=message.chat.id, gm_user_id=user.id, system=system, title=title,
            gm_locale=own_locale(user, i18n.default_locale),
        )  # fmt: skip
    except game_service.GameError as error:
        await message.answer(t(error.reason))
        return
    token = await game_service.character_link_token(uow, game)
    me = await bot.me()
    setup = await wizards.setup_needed(game.system, uow, game.id)
    text = views.game_created(t, game, user.name, setup)
    keyboard = views.create_character_keyboard(t, views.deep_link(me.username or "", token))
    if edit:
        await edit_text(message, text, reply_markup=keyboard)
    else:
        await message.answer(text, reply_markup=keyboard)


async def _card(
    game: GameDTO, t: Translator, uow: UnitOfWork, bot: Bot, viewer: int
) -> tuple[str, InlineKeyboardMarkup]:
    members = await uow.games.members(game.id)
    characters = await uow.characters.for_game(game.id, statuses=("pending", "returned", "active"))
    schedules = await schedule_service.list_for(uow, game)
    log_id = await uow.rolls.existing_log_id(game.chat_id)
    epoch = await uow.rolls.open_epoch(log_id) if log_id is not None else None
    token = await game_service.character_link_token(uow, game)
    me = await bot.me()
    link = views.deep_link(me.username or "", token)
    text = views.game_card(t, game, members, characters, epoch, schedules)
    return text, views.game_keyboard(t, link, game, members, viewer)


async def show_game(
    message: Message, game: GameDTO, t: Translator, uow: UnitOfWork, bot: Bot
) -> None:
    viewer = message.from_user.id if message.from_user else 0
    text, keyboard = await _card(game, t, uow, bot, viewer)
    if game.thread_id is not None or message.chat.is_forum:  # another topic's game, gone
        gone = topics.gone_games(await uow.games.live_in_chat(game.chat_id), viewer)
        keyboard = topics.with_archive_buttons(t, keyboard, gone)
    await message.answer(text, reply_markup=keyboard)


async def no_game(message: Message, t: Translator, uow: UnitOfWork, bot: Bot) -> None:
    elsewhere = await uow.games.live_in_chat(message.chat.id)  # in other forum topics
    if elsewhere and not message.chat.is_forum:  # the group turned its topics off
        moved = await game_service.without_topics(uow, elsewhere)
        if moved is not None:
            await show_game(message, moved, t, uow, bot)
            return
        await message.answer(topic_views.topics_off(t, elsewhere))
        return
    if elsewhere:  # the GM's games whose topic was deleted are archived from here
        gone = topics.gone_games(elsewhere, message.from_user.id if message.from_user else 0)
        text = topic_views.games_elsewhere(t, elsewhere)
        await message.answer(text, reply_markup=topics.with_archive_buttons(t, None, gone))
        return
    await message.answer(t("No game in this chat yet. Start one with /newgame."))


async def options(message: Message, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    text, keyboard = await _options_view(game, t, uow)
    await message.answer(text, reply_markup=keyboard)


async def _options_view(
    game: GameDTO, t: Translator, uow: UnitOfWork, values: dict[str, Any] | None = None
) -> tuple[str, InlineKeyboardMarkup]:
    """The system's numbers, then the switch every system has: do players' gains need the GM."""
    fields = game_service.option_fields(game.system)
    if values is None:
        values = SYSTEMS[game.system].options(game.options).model_dump(mode="json")
    text = views.options_text(t, game, fields, values) if fields else ""
    trusted = await uow.grants.trusted(game.id)
    return grant_views.with_trust(t, text, views.options_keyboard(t, fields), trusted)


async def redraw_options(message: Message, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    text, keyboard = await _options_view(game, t, uow)
    await edit_text(message, text, keyboard)


async def change_option(
    query: CallbackQuery,
    callback_answer: CallbackAnswer,
    callback_data: GameOptionCD,
    game: GameDTO,
    t: Translator,
    uow: UnitOfWork,
) -> None:
    message = own(query, callback_answer, t, GameOptionCD, field=callback_data.field)
    if message is None:
        return
    try:
        values = await game_service.change_option(
            uow, game, callback_data.field, callback_data.delta
        )
    except game_service.GameError:
        notify(callback_answer, t("This button is no longer active."))
        return
    text, keyboard = await _options_view(game, t, uow, values)
    await edit_text(message, text, keyboard)


async def add_cogm(message: Message, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None or target.is_bot:
        await message.answer(t("Reply with /cogm to a message of the person to make co-GM."))
        return
    try:
        await game_service.add_cogm(uow, game, target.id)
    except game_service.GameError as error:
        await message.answer(t(error.reason))
        return
    await message.answer(t("{name} is now a co-GM.", name=escape(target.full_name)))


async def remove_cogm(message: Message, game: GameDTO, t: Translator, uow: UnitOfWork) -> None:
    target = message.reply_to_message.from_user if message.reply_to_message else None
    if target is None or target.is_bot:
        await message.answer(
            t("Reply with /uncogm to a message of the co-GM, or use the button on /game.")
        )
        return
    if await game_service.remove_cogm(uow, game, target.id):
        await message.answer(t("{name} is no longer a co-GM.", name=escape(target.full_name)))
    else:
        await message.answer(t("That person is not a co-GM."))


async def remove_cogm_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: CogmRemoveCD,
    game: GameDTO, t: Translator, uow: UnitOfWork, bot: Bot,
) -> None:  # fmt: skip
    message = own(
        query, callback_answer, t, CogmRemoveCD, game_id=game.id, user_id=callback_data.user_id
    )
    if message is None:
        return
    if not await game_service.remove_cogm(uow, game, callback_data.user_id):
        notify(callback_answer, t("That person is not a co-GM."), alert=True)
        return
    notify(callback_answer, t("No longer a co-GM."))
    text, keyboard = await _card(game, t, uow, bot, game.gm_user_id)  # the GM pressed
    await edit_text(message, text, keyboard)


async def set_timezone(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, uow: UnitOfWork
) -> None:
    zone = parse_timezone(command.args or "")
    if zone is None:
        await message.answer(
            t("I don't know that time zone. Write it like Europe/Moscow or +3, or /cancel.")
        )
        return
    await game_service.set_timezone(uow, game, zone)
    await message.answer(t("Game time zone: {zone}.", zone=formats.zone_name(zone)))


async def archive(
    query: CallbackQuery,
    callback_answer: CallbackAnswer,
    callback_data: ArchiveCD,
    game: GameDTO,
    t: Translator,
    uow: UnitOfWork,
) -> None:
    if not isinstance(query.message, Message) or callback_data.game_id != game.id:
        notify(callback_answer, t("This button is no longer active."))
        return
    if not callback_data.confirm:  # the question comes as a new message: nothing is edited
        open_scene = bool(await uow.trackers.open_for_game(game.id))
        text, keyboard = views.archive_question(t, game, open_scene=open_scene)
        await query.message.answer(text, reply_markup=keyboard)
        return
    message = own(query, callback_answer, t, ArchiveCD, game_id=game.id, confirm=True)
    if message is None:
        return
    if await game_service.archive(uow, game):
        await edit_text(message, t("The game is archived. Start a new one with /newgame."))


async def archive_cancel(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: ArchiveCancelCD,
    game: GameDTO, t: Translator,
) -> None:  # fmt: skip
    message = own(query, callback_answer, t, ArchiveCancelCD, game_id=game.id)
    if message is None or callback_data.game_id != game.id:
        return
    notify(callback_answer, t("Cancelled."))
    await edit_text(message, t("The game goes on: not archived."))


COGM_REFUSAL = N_("Only the game's GM can do that, not a co-GM.")


async def gm_only(message: Message, t: Translator) -> None:
    await message.answer(t("Only the GM can do that."))


async def gm_only_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can do that."), alert=True)


async def cogm_refused(message: Message, t: Translator) -> None:
    await message.answer(t(COGM_REFUSAL))


async def cogm_refused_button(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t(COGM_REFUSAL), alert=True)


GM_ONLY = ("options", "cogm", "uncogm", "timezone")
GM_ONLY_BUTTONS = (
    GameOptionCD, ArchiveCD, CogmRemoveCD, grant_views.GrantTrustCD, ArchiveCancelCD
)  # fmt: skip


async def toggle_trust(
    query: CallbackQuery, callback_answer: CallbackAnswer,
    callback_data: grant_views.GrantTrustCD, game: GameDTO, t: Translator, uow: UnitOfWork,
    user: UserDTO,
) -> None:  # fmt: skip
    """/options' switch: do players' gains need the GM (the GM's alone)."""
    message = own(query, callback_answer, t, grant_views.GrantTrustCD, on=callback_data.on)
    if message is None:
        return
    await grant_service.set_trusted(uow, game, callback_data.on, user.id)
    notify(callback_answer, t("Saved."))
    await redraw_options(message, game, t, uow)


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.callback_query.filter(F.message.chat.type.in_({"group", "supergroup"}))

    router.message.register(new_game, Command("newgame"))
    router.callback_query.register(pick_system, NewGameCD.filter())
    router.message.register(got_title, NewGameSG.title, F.text)

    # The GM's alone (README, "Who may do what"); a co-GM is told so, anyone else too.
    gm = Router(name=__name__ + ".gm")
    gm.message.filter(IsMainGM())
    gm.callback_query.filter(IsMainGM())
    gm.message.register(options, Command("options"))
    gm.message.register(add_cogm, Command("cogm"))
    gm.message.register(remove_cogm, Command("uncogm"))
    gm.message.register(set_timezone, Command("timezone"))
    gm.callback_query.register(change_option, GameOptionCD.filter())
    gm.callback_query.register(archive, ArchiveCD.filter())
    gm.callback_query.register(archive_cancel, ArchiveCancelCD.filter())
    gm.callback_query.register(remove_cogm_button, CogmRemoveCD.filter())
    gm.callback_query.register(toggle_trust, grant_views.GrantTrustCD.filter())

    cogm = Router(name=__name__ + ".cogm")
    cogm.message.filter(IsGM())
    cogm.callback_query.filter(IsGM())
    cogm.message.register(cogm_refused, Command(*GM_ONLY))
    for data in GM_ONLY_BUTTONS:
        cogm.callback_query.register(cogm_refused_button, data.filter())

    refused = Router(name=__name__ + ".refused")
    refused.message.filter(HasGame())
    refused.message.register(gm_only, Command(*GM_ONLY))
    for data in GM_ONLY_BUTTONS:
        refused.callback_query.register(gm_only_button, data.filter())
    refused.message.register(show_game, Command("game"))

    without_game = Router(name=__name__ + ".without_game")
    without_game.message.register(no_game, Command("game", *GM_ONLY))

    router.include_routers(gm, cogm, refused, without_game)
    return router
