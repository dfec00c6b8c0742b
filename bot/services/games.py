"""Games: create one per chat, membership and roles, options, archive, deep-link tokens."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_
from bot.services import settings
from bot.systems import SYSTEMS
from bot.systems import GameOption as GameOption  # re-exported: the views name it here
from db.repositories.games import GameDTO
from db.uow import UnitOfWork

TITLE_MAX = 64
GM_ROLES = ("gm", "cogm")
CREATE_CHARACTER = "char"
EDIT_CHARACTER = "edit"
NPC = "npc"


class GameError(Exception):
    """A refused game action; ``reason`` is a msgid for the view."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def clean_title(raw: str) -> str | None:
    title = " ".join(raw.split())
    return title if 0 < len(title) <= TITLE_MAX and not title.startswith("/") else None


def is_system(system: str) -> bool:
    """Whether ``system`` names a rule system (a button's data can be forged)."""
    return system in SYSTEMS


async def create_game(
    uow: UnitOfWork, *, chat_id: int, gm_user_id: int, gm_locale: str, system: str, title: str
) -> GameDTO:
    """``gm_locale``: the GM's own language, the group's from now on unless it chose one."""
    if system not in SYSTEMS:
        raise GameError(N_("This button is no longer active."))
    if await uow.games.live_for_chat(chat_id) is not None:
        raise GameError(N_("This chat already has a game. The GM can archive it first."))
    game = await uow.games.create(chat_id, system, title, gm_user_id)
    await settings.adopt_group_language(uow, chat_id, gm_locale)
    await uow.commit()
    return game


async def is_gm(uow: UnitOfWork, game: GameDTO, user_id: int) -> bool:
    return await uow.games.role(game.id, user_id) in GM_ROLES


async def character_link_token(uow: UnitOfWork, game: GameDTO) -> str:
    """The game's opaque token for "create a character" deep links (stable per game)."""
    existing = await uow.games.token_for(CREATE_CHARACTER, game.id)
    if existing is not None:
        return existing
    token = secrets.token_urlsafe(12)
    await uow.games.add_token(token, CREATE_CHARACTER, game.id)
    await uow.commit()
    return token


async def npc_link_token(uow: UnitOfWork, game: GameDTO) -> str:
    """The game's token for the GM's «New NPC» deep link (checked again when it is used)."""
    existing = await uow.games.token_for(NPC, game.id)
    if existing is not None:
        return existing
    token = secrets.token_urlsafe(12)
    await uow.games.add_token(token, NPC, game.id)
    await uow.commit()
    return token


async def edit_link_token(uow: UnitOfWork, game: GameDTO, character_id: int) -> str:
    """The opaque token of a character's «Edit» deep link (stable per character)."""
    existing = await uow.games.token_for(EDIT_CHARACTER, game.id, character_id)
    if existing is not None:
        return existing
    token = secrets.token_urlsafe(12)
    await uow.games.add_token(token, EDIT_CHARACTER, game.id, character_id)
    await uow.commit()
    return token


@dataclass(frozen=True)
class Link:
    game: GameDTO
    purpose: str
    character_id: int | None


async def resolve_link(uow: UnitOfWork, token: str) -> Link | None:
    link = await uow.games.token(token)
    if link is None:
        return None
    game = await uow.games.get(link.game_id)
    if game is None or game.archived:
        return None
    return Link(game, link.purpose, link.character_id)


async def game_for_token(uow: UnitOfWork, token: str) -> GameDTO | None:
    link = await resolve_link(uow, token)
    return link.game if link is not None and link.purpose == CREATE_CHARACTER else None


async def add_cogm(uow: UnitOfWork, game: GameDTO, user_id: int) -> None:
    if user_id == game.gm_user_id:
        raise GameError(N_("That is the GM already."))
    await uow.games.set_member(game.id, user_id, "cogm")
    await uow.commit()


async def remove_cogm(uow: UnitOfWork, game: GameDTO, user_id: int) -> bool:
    """The GM takes a co-GM's powers back; the person stays at the table as a player (their
    characters stay theirs). False if they were no co-GM. Commits."""
    removed = await uow.games.remove_cogm(game.id, user_id)
    await uow.commit()
    return removed


async def archive(uow: UnitOfWork, game: GameDTO) -> bool:
    done = await uow.games.archive(game.id)
    await uow.commit()
    return done


def option_fields(system: str) -> tuple[GameOption, ...]:
    """The per-game numbers a GM may change with buttons (creation budgets, bonus dice)."""
    spec = SYSTEMS.get(system)
    return spec.game_options if spec is not None else ()


async def change_option(uow: UnitOfWork, game: GameDTO, field: str, delta: int) -> dict[str, Any]:
    spec = SYSTEMS[game.system]
    fields = {f.field: f for f in option_fields(game.system)}
    if field not in fields:
        raise GameError(N_("This button is no longer active."))
    # Read under a row lock: a GM and a co-GM pressing at once must not lose a change.
    locked = await uow.games.get(game.id, for_update=True)
    assert locked is not None
    current = spec.options(locked.options).model_dump(mode="json")
    value = int(current.get(field, 0)) + delta
    option = fields[field]
    value = max(option.minimum, min(option.maximum, value))
    updated = spec.options({**current, field: value}).model_dump(mode="json")
    await uow.games.set_options(game.id, updated)
    await uow.commit()
    return updated


async def set_timezone(uow: UnitOfWork, game: GameDTO, zone: str) -> None:
    """The game's time zone (its schedules follow it); commits."""
    await uow.games.set_timezone(game.id, zone)
    await uow.commit()


async def save_data(uow: UnitOfWork, game_id: int, key: str, value: Any) -> None:
    """One of the game's stored lists (a wizard's lifegear roles, …); commits at once, so the
    game's row lock a wizard took to read it (``for_update``) ends with the save."""
    await uow.games.set_data(game_id, key, value)
    await uow.commit()


async def without_topics(uow: UnitOfWork, games: list[GameDTO]) -> GameDTO | None:
    """A group that turned its forum topics off keeps its games: a single topic game moves to
    the group itself, where every message now is; commits. None: several games (they cannot
    be told apart without topics: turning topics back on reaches them again)."""
    bound = [g for g in games if g.thread_id is not None]
    if len(games) != 1 or len(bound) != 1:
        return None
    moved = await uow.games.to_group(bound[0].id)
    await uow.commit()
    return moved
