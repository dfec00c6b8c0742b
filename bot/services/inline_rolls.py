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


def _is_notation(text: str) -> bool:
    try:
        parse(text)
    except EngineError:
        return False
    return True


async def offer(uow: UnitOfWork, user: UserDTO, query: str, locale: str) -> Offered:
    """The placeholders for ``query``: a dice roll, or the trait of each active character of
    the user's that can roll it (one per game). Stores them; rolls nothing."""
    query = query.strip()[:MAX_QUERY]
    if not query:
        return Offered([], None)
    offers: list[Offer] = []
    rows: list[OfferDTO] = []
    notation_error: EngineError | None = None
    sheet_error: EngineError | None = None
    try:
        request = parse_request(query)  # a roll set or several rolls; None for one roll
        if request is None:
            parse(query)
    except EngineError as refused:
        request, notation_error = None, refused
    notation = notation_error is None
    if notation:
        offers.append(Offer(new_offer_id(), query, query, None, None))
        rows.append(OfferDTO(offers[-1].id, user.id, query, None))
    if request is None:
        for owned in await own_characters.characters_of(uow, user.id, statuses=("active",)):
            if notation and not sheet_rolls.prefers_sheet_roll(owned.game.system, query):
                continue
            try:
                plan = _plan(owned, query, locale)
            except EngineError as refused:
                sheet_error = sheet_error or refused
                continue
            made = Offer(new_offer_id(), query, plan.title, owned.game.title, owned.character.name)
            offers.append(made)
            rows.append(OfferDTO(made.id, user.id, query, owned.game.id))
    if offers:
        await uow.inline.add_offers(rows)
        await uow.commit()
        return Offered(offers, None)
    return Offered([], sheet_error or notation_error)


def _plan(owned: own_characters.Owned, query: str, locale: str) -> sheet_rolls.SheetRoll:
    spec = SYSTEMS[owned.game.system]
    character = spec.load(owned.character.sheet, owned.character.schema_version)
    return sheet_rolls.plan_sheet_roll(owned.game.system, character, query, locale)


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
            subject=user.name, actor_user_id=user.id,
        )  # fmt: skip
        rolls = [logged]
    return InlineRoll(rolls, plan, request, fresh=True)


async def _stored_plan(
    uow: UnitOfWork, user: UserDTO, stored: OfferDTO, locale: str
) -> sheet_rolls.SheetRoll:
    """The trait roll of the offer's game, planned against the sheet as it is now."""
    assert stored.game_id is not None
    for owned in await own_characters.characters_of(uow, user.id, statuses=("active",)):
        if owned.game.id == stored.game_id:
            return _plan(owned, stored.query, locale)
    raise CharacterGone(stored.game_id)
