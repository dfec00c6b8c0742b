"""Inline rolls (``@bot 4dF+2``, ``@bot Атлетика`` in any chat) that cannot be cherry-picked.

An inline answer is shown before the user picks it, so nothing here rolls while answering: the
answer offers placeholders (``offer``), each remembered as an ``inline_offers`` row holding the
query and never a result. The roll is made when Telegram reports the placeholder sent
(``chosen_inline_result``) or, with inline feedback off, when its owner presses its button
(``roll_offer``): once per sent message (``inline_rolls``' key on the inline_message_id), in
the roller's own log, kept under their private chat's id.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.services import multi_rolls, own_characters, sheet_rolls
from bot.services.rolls import LoggedRoll, roll_logged
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.inline import OfferDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.dice.parser import parse
from engine.dice.request import RollRequest, parse_request
from engine.errors import EngineError

MAX_QUERY = 256  # Telegram's limit on an inline query's text


@dataclass(frozen=True)
class Offer:
    """One placeholder of an inline answer: its id (the result's and the button's) and what
    it will roll, for people."""

    id: str
    query: str
    title: str  # the notation, or the trait's title
    game_title: str | None  # a trait roll: the game and character it is for
    character: str | None


@dataclass(frozen=True)
class Offered:
    offers: list[Offer]
    error: EngineError | None  # nothing to offer: what the user typed is not a roll


@dataclass(frozen=True)
class InlineRoll:
    """The roll of a sent inline message, as logged; not ``fresh`` (and no rolls): the
    message was rolled before."""

    rolls: list[LoggedRoll]
    plan: sheet_rolls.SheetRoll | None
    request: RollRequest | None
    fresh: bool


class OfferGone(Exception):
    """The message names no offer (forged, or one from before a database reset)."""


class CharacterGone(Exception):
    """A trait roll's character is no longer active in its game (retired, game archived)."""


class NotYours(Exception):
    """Someone other than the roller pressed the placeholder's button."""


def new_offer_id() -> str:
    return secrets.token_urlsafe(12)  # 16 characters: fits a result id and callback data


async def offer(uow: UnitOfWork, user: UserDTO, query: str, locale: str) -> Offered:
    """The placeholders for ``query``: a dice roll, or the trait of the user's active
    character in each game where it reads as one. Stores them; rolls nothing."""
    query = query.strip()[:MAX_QUERY]
    if not query:
        return Offered([], None)
    notation_error: EngineError | None = None
    try:
        request = parse_request(query)  # a roll set or several rolls; None for one roll
        if request is None:
            parse(query)
    except EngineError as refused:
        request, notation_error = None, refused
    offers: list[tuple[Offer, int | None]] = []
    if notation_error is None:
        offers.append((Offer(new_offer_id(), query, query, None, None), None))
    sheet_error: EngineError | None = None
    if request is None:  # a roll set is never a trait
        sheet, sheet_error = await _sheet_offers(
            uow, user, query, locale, notation=notation_error is None
        )
        offers += sheet
    if not offers:
        return Offered([], sheet_error or notation_error)
    await uow.inline.add_offers([OfferDTO(o.id, user.id, query, game) for o, game in offers])
    await uow.commit()
    return Offered([o for o, _ in offers], None)


async def _sheet_offers(
    uow: UnitOfWork, user: UserDTO, query: str, locale: str, *, notation: bool
) -> tuple[list[tuple[Offer, int | None]], EngineError | None]:
    """An offer (with its game's id) per game whose active character of the user's rolls
    ``query`` as a trait — as ``/r`` reads it there — and the first refusal, if any."""
    found: list[tuple[Offer, int | None]] = []
    error: EngineError | None = None
    for game, character in await _active_characters(uow, user.id):
        if notation and not sheet_rolls.prefers_sheet_roll(game.system, query):
            continue  # dice notation means dice, as /r reads it
        try:
            plan = _plan(game, character, query, locale)
        except EngineError as refused:
            error = error or refused
            continue
        made = Offer(new_offer_id(), query, plan.title, game.title, character.name)
        found.append((made, game.id))
    return found, error


async def _active_characters(uow: UnitOfWork, user_id: int) -> list[tuple[GameDTO, CharacterDTO]]:
    """The user's active character in each live game they play in (the one /r rolls)."""
    found = []
    for game in await uow.games.games_of(user_id, roles=own_characters.MEMBER_ROLES):
        character = await uow.characters.active_of(game.id, user_id)
        if character is not None:
            found.append((game, character))
    return found


def _plan(
    game: GameDTO, character: CharacterDTO, query: str, locale: str
) -> sheet_rolls.SheetRoll:
    sheet = SYSTEMS[game.system].load(character.sheet, character.schema_version)
    return sheet_rolls.plan_sheet_roll(game.system, sheet, query, locale)


def inline_roll_id(inline_message_id: str) -> str:
    return f"inline:{inline_message_id}"


async def roll_offer(
    uow: UnitOfWork, user: UserDTO, offer_id: str, inline_message_id: str, locale: str
) -> InlineRoll:
    """Roll the offer sent as ``inline_message_id``, once: a second report of the message (a
    redelivery, a press after the roll) rolls nothing and gets ``fresh`` false.

    Raises ``OfferGone``, ``NotYours`` or ``EngineError`` (the character is no longer active,
    the sheet no longer has the trait) before writing anything."""
    stored = await uow.inline.offer(offer_id)
    if stored is None:
        raise OfferGone(offer_id)
    if stored.user_id != user.id:
        raise NotYours(offer_id)
    roll_id = inline_roll_id(inline_message_id)
    claimed = await uow.inline.claimed(inline_message_id)
    if claimed is not None:
        if claimed[0] != offer_id:
            raise OfferGone(offer_id)  # another offer's message: a forged button
        return InlineRoll([], None, None, fresh=False)
    plan = await _stored_plan(uow, user, stored, locale) if stored.game_id is not None else None
    request = parse_request(stored.query) if plan is None else None
    if not await uow.inline.claim(inline_message_id, offer_id, user.id, roll_id):
        # another report of the message claimed it meanwhile; this one waited and lost
        return InlineRoll([], None, None, fresh=False)
    if request is not None:
        rolls = await multi_rolls.roll_many(
            uow, request, chat_id=user.id, roll_id=roll_id, actor=user.name,
            actor_user_id=user.id,
        )  # fmt: skip
    else:
        text = plan.notation if plan is not None else stored.query
        logged = await roll_logged(
            uow, chat_id=user.id, roll_id=roll_id, text=text, actor=user.name,
            subject=await _subject(uow, user, stored), actor_user_id=user.id,
        )  # fmt: skip
        rolls = [logged]
    return InlineRoll(rolls, plan, request, fresh=True)


async def _subject(uow: UnitOfWork, user: UserDTO, stored: OfferDTO) -> str:
    """A trait roll is logged for the character whose sheet it read (its sheet lists it)."""
    if stored.game_id is None:
        return user.name
    character = await uow.characters.active_of(stored.game_id, user.id)
    return character.name if character is not None else user.name


async def _stored_plan(
    uow: UnitOfWork, user: UserDTO, stored: OfferDTO, locale: str
) -> sheet_rolls.SheetRoll:
    """The trait roll of the offer's game, planned against the sheet as it is now."""
    for game, character in await _active_characters(uow, user.id):
        if game.id == stored.game_id:
            return _plan(game, character, stored.query, locale)
    raise CharacterGone(stored.game_id)
