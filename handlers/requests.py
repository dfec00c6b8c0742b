"""/request (GM) and the 🎲 button that only the named player (or a GM) can press."""

from __future__ import annotations

import contextlib

from aiogram import F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import invokes as invoke_service
from bot.services import requests as request_service
from bot.services import willpower as willpower_service
from bot.services.games import is_gm
from bot.services.requests import RequestRefused
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from handlers.callbacks import (
    InvokeBackCD,
    InvokeCD,
    InvokeMenuCD,
    RollForCD,
    RollRequestCD,
    WillpowerCD,
    notify,
)  # fmt: skip
from handlers.filters import HasGame, IsGM
from handlers.games import gm_only, no_game
from handlers.owned import carries
from handlers.request_builder import (
    change_card,
    offer_traits,
    pending_card,
    request_example,
    roller_name,
)
from handlers.trackers import fate as fate_tracker
from handlers.views import requests as views
from handlers.views.edit import edit_markup, edit_text
from handlers.views.safe import error_text


async def new_request(
    message: Message, command: CommandObject, game: GameDTO, t: Translator, locale: str,
    uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    """One card per named player: the player replied to, the players @mentioned, or every
    player with an active character (``all`` / ``все``)."""
    replied = message.reply_to_message
    author = replied.from_user if replied else None
    mentioned, usernames, rest = _leading_mentions(message, command.args or "")
    targets, args = await request_service.targets_of(
        uow, game, replied_to=author.id if author and not author.is_bot else None,
        mentioned=mentioned, usernames=usernames, text=rest,
    )  # fmt: skip
    if not targets and usernames:  # every @name unknown: not a wrong syntax, say which
        unknown = await request_service.unknown_usernames(uow, usernames)
        await message.answer(views.unknown_players(t, unknown or usernames))
        return
    if not targets or not args:
        if author is not None and not author.is_bot and not (command.args or "").strip():
            # a reply with nothing more: what can this player's character roll?
            if await offer_traits(message, game, t, locale, uow, author.id):
                return
        await message.answer(views.usage(t, request_example(game.system, locale)))
        return
    try:
        specs = [
            (target, await request_service.spec_for(uow, game, target, args, locale))
            for target in targets
        ]
    except EngineError as error:
        await message.reply(error_text(error, locale))
        return
    for target, spec in specs:  # all parsed before the first card: bad input posts nothing
        request = await request_service.create(
            uow, game, gm_user_id=user.id, target_user_id=target, spec=spec
        )
        text, markup = await pending_card(uow, t, request, game)
        sent = await message.answer(text, reply_markup=markup)
        await request_service.attach_card(uow, request, sent.message_id)


def _leading_mentions(message: Message, args: str) -> tuple[list[int], list[str], str]:
    """The users mentioned at the start of the command's arguments (``text_mention`` ids,
    ``@username`` names) and the text after them."""
    offset = len(message.text or "") - len(args)  # where the arguments start in the message
    ids: list[int] = []
    names: list[str] = []
    rest_from = 0
    for entity in message.entities or []:
        start = entity.offset - offset  # UTF-16 offsets: exact while the command is ASCII
        if entity.type not in ("mention", "text_mention") or start < rest_from:
            continue
        if args[rest_from:start].strip():
            break  # mentions count only before the roll's text
        if entity.type == "mention":
            names.append(args[start + 1 : start + entity.length])
        elif entity.user is not None and not entity.user.is_bot:
            ids.append(entity.user.id)
        rest_from = start + entity.length
    return ids, names, args[rest_from:]


async def press_roll(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: RollRequestCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        result = await request_service.press(
            uow, request_id=callback_data.request_id, chat_id=message.chat.id,
            message_id=message.message_id, user_id=user.id, user_name=user.name,
        )  # fmt: skip
    except request_service.RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except request_service.RollForPlayer as asked:
        # the answer says it too; the confirmation is a message with buttons
        notify(callback_answer, t("Roll for the player? ({name})", name=asked.player))
        await message.reply(
            views.roll_for_question(t, asked.player),
            reply_markup=views.roll_for_keyboard(t, request_id=asked.request.id),
        )
        return
    if not result.first:
        notify(callback_answer, t("Already rolled."))
        return
    text, markup = await _rolled(uow, t, locale, result, user)
    await edit_text(message, text, markup)


async def _rolled(
    uow: UnitOfWork, t: Translator, locale: str, result: request_service.PressResult,
    user: UserDTO,
) -> tuple[str, InlineKeyboardMarkup | None]:  # fmt: skip
    target = await uow.users.get(result.request.target_user_id)
    aspects = await invoke_service.aspects_for(uow, result.request)
    player = await roller_name(uow, t, result.request, target.name if target else user.name)
    return (
        views.rolled_card(t, locale, result, player),
        views.invoke_menu_keyboard(t, result.request.id) if aspects else None,
    )


async def roll_for(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: RollForCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    """The GM's answer on the confirmation: roll for the player (the request's own card shows
    the result and who rolled), or not; the confirmation goes either way."""
    message = query.message
    if not isinstance(message, Message) or not carries(
        message, RollForCD, request_id=callback_data.request_id
    ):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    if callback_data.go:
        try:
            result = await request_service.press(
                uow, request_id=callback_data.request_id, chat_id=message.chat.id,
                message_id=None, user_id=user.id, user_name=user.name, for_player=True,
            )  # fmt: skip
        except request_service.RequestRefused as refused:
            notify(callback_answer, t(refused.reason), alert=True)
            return
        if not result.first:
            notify(callback_answer, t("Already rolled."))
        elif result.request.message_id is not None and message.bot is not None:
            text, markup = await _rolled(uow, t, locale, result, user)
            with contextlib.suppress(TelegramAPIError):  # the card is gone: the roll stands
                await message.bot.edit_message_text(
                    text, chat_id=message.chat.id, message_id=result.request.message_id,
                    reply_markup=markup,
                )  # fmt: skip
    try:
        await message.delete()
    except TelegramAPIError:  # too old to delete: at least no buttons are left on it
        await edit_markup(message, None)


async def roll_for_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can do that."), alert=True)


async def spend_willpower(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: WillpowerCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    await change_card(query, callback_answer, t, uow, lambda message: willpower_service.spend(
        uow, request_id=callback_data.request_id, chat_id=message.chat.id,
        message_id=message.message_id, user_id=user.id,
    ))  # fmt: skip


async def _invoker_request(
    query: CallbackQuery, callback_answer: CallbackAnswer, request_id: int, t: Translator,
    uow: UnitOfWork, user: UserDTO,
) -> tuple[Message, RequestDTO] | None:  # fmt: skip
    """The rolled request on this card, if the presser may invoke on it (refused otherwise)."""
    message = query.message
    request = await uow.requests.get(request_id)
    if (
        not isinstance(message, Message)
        or request is None
        or not request.shown_at(message.chat.id, message.message_id)
    ):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return None
    game = await uow.games.get(request.game_id)
    if user.id != request.target_user_id and not (game and await is_gm(uow, game, user.id)):
        notify(callback_answer, t("This roll is for someone else."), alert=True)
        return None
    return message, request


async def invoke_menu(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: InvokeMenuCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    found = await _invoker_request(query, callback_answer, callback_data.request_id, t, uow, user)
    if found is None:
        return
    message, request = found
    aspects = await invoke_service.aspects_for(uow, request)
    used = {int(i.get("aspect", -1)) for i in request.invokes}
    keyboard = views.aspect_keyboard(request, aspects, used)
    # Free invokes the player's character holds on the open conflict's board (issue 8).
    free = await fate_tracker.request_invoke_rows(uow, t, request)
    back = views.invoke_back_row(t, request.id)
    keyboard = InlineKeyboardMarkup(inline_keyboard=[*keyboard.inline_keyboard, *free, back])
    notify(callback_answer, t("+2: add 2 to the total. 🔁: roll the dice again."))
    await edit_markup(message, keyboard)


async def invoke_back(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: InvokeBackCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    """The aspect menu closed untouched: the card offers «Invoke» again, nothing is spent."""
    found = await _invoker_request(query, callback_answer, callback_data.request_id, t, uow, user)
    if found is None:
        return
    message, request = found
    await edit_markup(message, views.invoke_menu_keyboard(t, request.id))


async def invoke_aspect(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: InvokeCD,
    t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        invoked = await invoke_service.invoke(
            uow, request_id=callback_data.request_id, chat_id=message.chat.id,
            message_id=message.message_id, user_id=user.id, user_name=user.name,
            aspect=callback_data.aspect, mode=callback_data.mode,
        )  # fmt: skip
    except RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return
    target = await uow.users.get(invoked.request.target_user_id)
    aspects = await invoke_service.aspects_for(uow, invoked.request)
    left = len(aspects) > len(invoked.request.invokes)
    # signed as the roll was: «Ли, played by Алиса» for a trait's roll (issue 36 item 13)
    player = await roller_name(uow, t, invoked.request, target.name if target else user.name)
    await edit_text(
        message,
        views.invoked_card(t, locale, invoked, player),
        views.invoke_menu_keyboard(t, invoked.request.id) if left else None,
    )


def create_router() -> Router:
    router = Router(name=__name__)
    router.message.filter(F.chat.type.in_({"group", "supergroup"}))
    router.message.register(new_request, Command("request"), IsGM())
    router.message.register(gm_only, Command("request"), HasGame())
    router.message.register(no_game, Command("request"))
    router.callback_query.register(press_roll, RollRequestCD.filter())
    router.callback_query.register(roll_for, RollForCD.filter(), IsGM())
    router.callback_query.register(roll_for_refused, RollForCD.filter())
    router.callback_query.register(invoke_menu, InvokeMenuCD.filter())
    router.callback_query.register(invoke_back, InvokeBackCD.filter())
    router.callback_query.register(spend_willpower, WillpowerCD.filter())
    router.callback_query.register(invoke_aspect, InvokeCD.filter())
    return router
