"""Finding characters for /sheet and /res: every match of a name (so an ambiguous name can be
asked about), and a player's own characters across their live games (the private chat)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.services import names
from db.repositories.games import CharacterDTO, GameDTO
from db.uow import UnitOfWork

_STATUS_ORDER = {"active": 0, "pending": 1, "returned": 2, "retired": 3}
MEMBER_ROLES = ("gm", "cogm", "player")


def _ranked(characters: list[CharacterDTO]) -> list[CharacterDTO]:
    return sorted(characters, key=lambda c: (_STATUS_ORDER.get(c.status, 9), c.id))


@dataclass(frozen=True)
class Owned:
    game: GameDTO
    character: CharacterDTO


async def characters_of(
    uow: UnitOfWork, user_id: int, *, statuses: tuple[str, ...]
) -> list[Owned]:
    """The user's own characters (not NPCs) in every live game they are part of."""
    found: list[Owned] = []
    for game in await uow.games.games_of(user_id, roles=MEMBER_ROLES):
        rows = await uow.characters.for_game(game.id, statuses=statuses)
        own = [c for c in _ranked(rows) if c.owner_user_id == user_id and not c.is_npc]
        # a returned or retired draft is not listed beside the live one of the same name
        found += [Owned(game, character) for character in names.distinct(own)]
    return found


async def own_character(
    uow: UnitOfWork, user_id: int, character_id: int, *, statuses: tuple[str, ...]
) -> Owned | None:
    """One of the user's own characters by id (a press in the private chat), if it still is."""
    character = await uow.characters.get(character_id)
    if character is None or character.owner_user_id != user_id:
        return None
    if character.status not in statuses:
        return None
    game = await uow.games.get(character.game_id)
    if game is None or game.archived:
        return None
    return Owned(game, character)
