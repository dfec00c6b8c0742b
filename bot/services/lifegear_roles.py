"""lifegear roles, the GM's templates the players create from: kept per game as one JSON list
under ``lifegear.roles`` in the game's data, written by the GM or a co-GM (``/roles``), read by
the player's creation wizard."""

from __future__ import annotations

import logging
from typing import Any, Final

from pydantic import ValidationError

from bot.i18n import N_
from bot.services import games as game_service
from db.uow import UnitOfWork
from engine.systems.lifegear import SYSTEM_ID, Role

logger = logging.getLogger(__name__)

ROLES_KEY: Final = "lifegear.roles"
GM_ROLES: Final = ("gm", "cogm")
MAX_ROLES: Final = 20  # one button per role in the list; more would not fit a phone screen

NOT_THE_GM: Final = N_("Only the GM of this game can change its roles.")
TAKEN: Final = N_("There is already a role called «{name}».")
TOO_MANY: Final = N_("At most {limit} roles per game.")


class RoleRefused(Exception):
    """A refused change of the roles; ``reason`` is a msgid, ``params`` its values (raw)."""

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


async def load_roles(uow: UnitOfWork, game_id: int) -> list[Role]:
    """The game's roles; an entry that no longer parses is skipped (and logged), not fatal."""
    raw = await uow.games.data(game_id, ROLES_KEY)
    roles: list[Role] = []
    for entry in raw if isinstance(raw, list) else []:
        try:
            roles.append(Role.model_validate(entry))
        except ValidationError:
            logger.warning("game %s: skipping an unreadable lifegear role", game_id)
    return roles


async def save_roles(uow: UnitOfWork, game_id: int, roles: list[Role]) -> None:
    dumped = [r.model_dump(mode="json") for r in roles]
    await game_service.save_data(uow, game_id, ROLES_KEY, dumped)


async def may_edit_roles(uow: UnitOfWork, game_id: int, user_id: int) -> bool:
    """Checked again on every write: the GM may have handed the game over meanwhile. Locks the
    game's row until the write commits, so a GM and a co-GM saving at once each read the roles
    the other saved (a save is read, change, write back)."""
    game = await uow.games.get(game_id, for_update=True)
    if game is None or game.archived or game.system != SYSTEM_ID:
        return False
    return await uow.games.role(game_id, user_id) in GM_ROLES


def place_of(roles: list[Role], edited: str) -> int:
    """Where the role being edited is now (found by its stored name: a co-GM may have added or
    deleted roles meanwhile, so a list index could point at another role); -1 for a new one."""
    return next((i for i, r in enumerate(roles) if edited and r.name == edited), -1)


def name_taken(roles: list[Role], edited: str, name: str) -> bool:
    at = place_of(roles, edited)
    return any(r.name.casefold() == name.casefold() for i, r in enumerate(roles) if i != at)


async def put_role(uow: UnitOfWork, game_id: int, user_id: int, role: Role, edited: str) -> None:
    """Save ``role`` in the place of the one named ``edited`` (or last, a new one); commits."""
    if not await may_edit_roles(uow, game_id, user_id):
        raise RoleRefused(NOT_THE_GM)
    roles = await load_roles(uow, game_id)
    if name_taken(roles, edited, role.name):
        raise RoleRefused(TAKEN, name=role.name)
    at = place_of(roles, edited)
    if at < 0 and len(roles) >= MAX_ROLES:
        raise RoleRefused(TOO_MANY, limit=MAX_ROLES)
    if at >= 0:
        roles[at] = role
    else:
        roles.append(role)
    await save_roles(uow, game_id, roles)
    logger.info("game %s: lifegear role saved (%d roles)", game_id, len(roles))


async def delete_role(uow: UnitOfWork, game_id: int, user_id: int, edited: str) -> Role | None:
    """Delete the role named ``edited``; commits. None: it is gone already."""
    if not await may_edit_roles(uow, game_id, user_id):
        raise RoleRefused(NOT_THE_GM)
    roles = await load_roles(uow, game_id)
    at = place_of(roles, edited)
    if at < 0:
        return None
    removed = roles.pop(at)
    await save_roles(uow, game_id, roles)
    return removed
