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

    @property
    def archived(self) -> bool:
        """Readable, changeable by no one: its game is archived, or it retired."""
        return archived(self.game, self.character)


def archived(game: GameDTO, character: CharacterDTO) -> bool:
    return game.archived or character.status == "retired"


async def characters_of(
    uow: UnitOfWork, user_id: int, *, statuses: tuple[str, ...], archived: bool = False
) -> list[Owned]:
    """The user's own characters (not NPCs) in every live game they are part of (and, with
    ``archived``, in their archived games too)."""
    found: list[Owned] = []
    for game in await uow.games.games_of(user_id, roles=MEMBER_ROLES, archived=archived):
        rows = await uow.characters.for_game(game.id, statuses=statuses)
        own = [c for c in _ranked(rows) if c.owner_user_id == user_id and not c.is_npc]
        # a returned or retired draft is not listed beside the live one of the same name
        found += [Owned(game, character) for character in names.distinct(own)]
    return found


async def own_character(
    uow: UnitOfWork, user_id: int, character_id: int, *, statuses: tuple[str, ...],
    archived: bool = False,
) -> Owned | None:  # fmt: skip
    """One of the user's own characters by id (a press in the private chat), if it still is
    (in an archived game only with ``archived``)."""
    character = await uow.characters.get(character_id)
    if character is None or character.owner_user_id != user_id:
        return None
    if character.status not in statuses:
        return None
    game = await uow.games.get(character.game_id)
    if game is None or (game.archived and not archived):
        return None
    return Owned(game, character)
