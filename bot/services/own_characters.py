"""Finding characters for /sheet and /res: every match of a name (so an ambiguous name can be
asked about), and a player's own characters across their live games (the private chat)."""

from __future__ import annotations

from dataclasses import dataclass

from db.repositories.games import CharacterDTO, GameDTO
from db.uow import UnitOfWork

_STATUS_ORDER = {"active": 0, "pending": 1, "returned": 2, "retired": 3}
MEMBER_ROLES = ("gm", "cogm", "player")


def _ranked(characters: list[CharacterDTO]) -> list[CharacterDTO]:
    return sorted(characters, key=lambda c: (_STATUS_ORDER.get(c.status, 9), c.id))


def matching(characters: list[CharacterDTO], name: str) -> list[CharacterDTO]:
    """The characters an exact name (case aside) names, else those whose name holds it; active
    before pending, oldest first. Several with one name are all returned: the caller asks."""
    wanted = name.strip().casefold()
    if not wanted:
        return []
    ranked = _ranked(characters)
    exact = [c for c in ranked if c.name.casefold() == wanted]
    return exact or [c for c in ranked if wanted in c.name.casefold()]


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
        for character in _ranked(await uow.characters.for_game(game.id, statuses=statuses)):
            if character.owner_user_id == user_id and not character.is_npc:
                found.append(Owned(game, character))
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
