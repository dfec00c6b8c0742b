"""Request cards beyond the plain roll: the per-system options pressed before the roll (a cliché
pump, the GM's matter modifiers, a lifegear weapon and stat) and the GM's «🎲 Request a roll»
on a character's /sheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Router
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.callback_answer import CallbackAnswer

from bot.i18n import Translator
from bot.services import request_options as option_service
from bot.services import requests as request_service
from bot.services import willpower as willpower_service
from bot.services.requests import RequestRefused
from bot.systems import SYSTEMS
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from engine.systems import storyteller
from engine.systems.sheet_rolls import shorthand_example
from handlers.callbacks import notify
from handlers.filters import IsGM
from handlers.owned import carries
from handlers.views import request_builder as builder
from handlers.views import requests as views
from handlers.views.edit import edit_text
from handlers.views.request_builder import BuildCD
from handlers.views.request_options import GearCD, MatterModCD, PumpCD


async def pending_card(
    uow: UnitOfWork, t: Translator, request: RequestDTO, game: GameDTO
) -> tuple[str, InlineKeyboardMarkup]:
    """The pending card's text and buttons: the roll, Willpower, the system's options."""
    gm = await uow.users.get(request.requested_by)
    target = await uow.users.get(request.target_user_id)
    offer = await option_service.offer(uow, game, request)
    chances = request_service.chances(game.system, request)
    player = await roller_name(uow, t, request, target.name if target else "?")
    text = views.card(
        t, request, gm.name if gm else t("the GM"), player, chances, game.timezone, offer,
        game.system,
    )  # fmt: skip
    willpower = willpower_service.offered(game.system, request.expression)
    return text, views.card_keyboard(t, request, willpower=willpower, offer=offer)


async def roller_name(uow: UnitOfWork, t: Translator, request: RequestDTO, player: str) -> str:
    """Who rolls, as the card signs it: a roll by a trait is the character's, so «Ли (Алиса)»;
    plain dice are the player's own."""
    if not request.trait:
        return player
    character = await uow.characters.active_of(request.game_id, request.target_user_id)
    if character is None:
        return player
    return t("{character}, played by {player}", character=character.name, player=player)


async def refresh_card(
    message: Message, uow: UnitOfWork, t: Translator, request: RequestDTO
) -> None:
    """Redraw the pending card the button was on."""
    game = await uow.games.get(request.game_id)
    assert game is not None
    text, markup = await pending_card(uow, t, request, game)
    await edit_text(message, text, markup)


async def change_card(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator,
    uow: UnitOfWork, change: Callable[[Message], Awaitable[RequestDTO]],
) -> None:  # fmt: skip
    """A press that changes a pending request (``change`` gets the card's message): a refusal
    or an engine error is an alert in the presser's language ``t``; otherwise the card is
    redrawn."""
    message = query.message
    if not isinstance(message, Message):
        return
    try:
        request = await change(message)
    except RequestRefused as refused:
        notify(callback_answer, t(refused.reason), alert=True)
        return
    except EngineError as error:
        notify(callback_answer, error.render(t.locale), alert=True)
        return
    await refresh_card(message, uow, t, request)


async def pump(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: PumpCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    await change_card(query, callback_answer, t, uow, lambda message: option_service.pump(
        uow, request_id=callback_data.request_id, chat_id=message.chat.id,
        message_id=message.message_id, user_id=user.id,
        dice=callback_data.dice,
    ))  # fmt: skip


async def modify(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: MatterModCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    await change_card(query, callback_answer, t, uow, lambda message: option_service.modify(
        uow, request_id=callback_data.request_id, chat_id=message.chat.id,
        message_id=message.message_id, user_id=user.id,
        dice=callback_data.dice,
    ))  # fmt: skip


async def gear(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: GearCD,
    t: Translator, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    await change_card(query, callback_answer, t, uow, lambda message: option_service.choose(
        uow, request_id=callback_data.request_id, chat_id=message.chat.id,
        message_id=message.message_id, user_id=user.id,
        weapon=callback_data.weapon, stat=callback_data.stat, boost=callback_data.boost,
    ))  # fmt: skip


# --- «🎲 Request a roll» on a character's /sheet (the GM) ----------------------------------------


async def build(
    query: CallbackQuery, callback_answer: CallbackAnswer, callback_data: BuildCD,
    game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, user: UserDTO,
) -> None:  # fmt: skip
    message = query.message
    found = await uow.characters.get(callback_data.c, for_update=True)
    if (
        not isinstance(message, Message)
        or found is None
        or found.game_id != game.id
        or found.status != "active"
    ):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    if callback_data.t != builder.UNSET and not carries(message, BuildCD, c=found.id):
        # the steps edit their own message only, never one a forged button was sent on
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    if callback_data.t == builder.CANCEL:
        await edit_text(message, t("Request cancelled."), None)
        return
    character = SYSTEMS[game.system].load(found.sheet, found.schema_version)
    traits = builder.traits(game.system, character, locale)
    if callback_data.t == builder.UNSET:
        if not traits:
            notify(callback_answer, t("The sheet has nothing to roll yet."), alert=True)
            return
        text, markup = builder.trait_step(t, found.id, found.name, traits)
        await message.answer(text, reply_markup=markup)  # the /sheet stays as it is
        return
    if not 0 <= callback_data.t < len(traits):
        notify(callback_answer, t("This button is no longer active."), alert=True)
        return
    trait = traits[callback_data.t]
    ability: str | None = None
    if isinstance(character, storyteller.Character):
        abilities = builder.abilities(character, locale)
        if callback_data.a == builder.UNSET:
            await edit_text(
                message, *builder.ability_step(t, callback_data, found.name, trait, abilities)
            )
            return
        if callback_data.a > 0:
            if callback_data.a > len(abilities):
                notify(callback_answer, t("This button is no longer active."), alert=True)
                return
            ability = abilities[callback_data.a - 1].name
    what = trait.name + (f"+{ability}" if ability else "")
    if builder.levels(game.system, locale) and callback_data.d == builder.UNSET:
        await edit_text(
            message, *builder.level_step(t, game.system, locale, callback_data, found.name, what)
        )
        return
    level = None if callback_data.d in (builder.UNSET, builder.NONE) else callback_data.d
    if await uow.requests.by_message(message.chat.id, message.message_id) is not None:
        notify(callback_answer, t("Already requested."))
        return
    try:
        spec = request_service.sheet_spec(
            game.system, character, builder.sheet_text(game.system, trait.name, ability, level),
            locale,
        )  # fmt: skip
    except EngineError as error:
        notify(callback_answer, error.render(locale), alert=True)
        return
    request = await request_service.create(
        uow, game, gm_user_id=user.id, target_user_id=found.owner_user_id or user.id, spec=spec
    )
    text, markup = await pending_card(uow, t, request, game)
    await edit_text(message, text, markup)
    await request_service.attach_card(uow, request, message.message_id)


async def offer_traits(
    message: Message, game: GameDTO, t: Translator, locale: str, uow: UnitOfWork, player: int
) -> bool:
    """The GM's ``/request`` in reply to ``player`` with nothing more: the trait picker of
    their active character, as «🎲 Request a roll» on its /sheet; False when there is none
    (or nothing on its sheet to roll)."""
    found = await uow.characters.active_of(game.id, player)
    if found is None:
        return False
    character = SYSTEMS[game.system].load(found.sheet, found.schema_version)
    traits = builder.traits(game.system, character, locale)
    if not traits:
        return False
    text, markup = builder.trait_step(t, found.id, found.name, traits)
    await message.answer(text, reply_markup=markup)
    return True


def request_example(system: str, locale: str) -> str:
    """A request shorthand of this system (``Атлетика vs 2``) for the usage line."""
    spec = SYSTEMS[system]
    return shorthand_example(spec.sheet_rolls, spec.new_character("?"), locale) or "2d6"


async def build_refused(
    query: CallbackQuery, callback_answer: CallbackAnswer, t: Translator
) -> None:
    notify(callback_answer, t("Only the GM can do that."), alert=True)


def create_router() -> Router:
    router = Router(name=__name__)
    router.callback_query.register(pump, PumpCD.filter())
    router.callback_query.register(modify, MatterModCD.filter())
    router.callback_query.register(gear, GearCD.filter())
    router.callback_query.register(build, BuildCD.filter(), IsGM())
    router.callback_query.register(build_refused, BuildCD.filter())
    return router
