"""Quick NPCs (issue 24 item 1): the GM writes one line, the game's system reads it into a
sheet (``SystemSpec.npc_form``), the NPC is active at once; the GM lists and retires them.

A quick NPC skips the creation rules (a mook has no pyramid of skills); the system's form
checks what it reads instead. Nothing here branches on the system. The use cases commit once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.i18n import N_
from bot.services.characters import sheet_name
from bot.services.games import is_gm
from bot.services.names import fold
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO, NameTaken
from db.uow import UnitOfWork
from engine.systems.npc import NpcFormError

PAGE_SIZE: Final = 8
ONLY_GM: Final = N_("Only the GM can do that.")
GONE: Final = N_("That NPC is already retired.")
NAME_TAKEN: Final = N_(
    "The game already has «{name}». Give the NPC another name: /npc {name} 2: …"
)
EMPTY: Final = N_("Nothing to make an NPC of: the line has no name and no traits.")


class NpcRefused(Exception):
    """A refused NPC action; ``reason`` is a msgid."""

    def __init__(self, reason: str, **args: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.args_ = args  # the msgid's {placeholders}


@dataclass(frozen=True)
class NpcPage:
    npcs: list[CharacterDTO]  # this page's
    page: int
    pages: int
    total: int


def has_form(game: GameDTO) -> bool:
    return SYSTEMS[game.system].npc_form is not None


def example(game: GameDTO, locale: str) -> str:
    form = SYSTEMS[game.system].npc_form
    return form.example(locale) if form is not None else ""


async def active_npcs(uow: UnitOfWork, game: GameDTO) -> list[CharacterDTO]:
    rows = await uow.characters.for_game(game.id, statuses=("active",))
    return [c for c in rows if c.is_npc]


async def create(
    uow: UnitOfWork, game: GameDTO, *, user_id: int, text: str, mook_name: str
) -> CharacterDTO:
    """The NPC of the GM's line, active at once. ``mook_name`` names a nameless one; it
    holds ``{n}``, the first number from 1 no NPC of the game is called by. Raises
    ``NpcFormError`` for a line the system cannot read, ``NpcRefused`` for a line of
    punctuation only or a name an active character of the game has (nothing is written)."""
    if not await is_gm(uow, game, user_id):
        raise NpcRefused(ONLY_GM)
    spec = SYSTEMS[game.system]
    if spec.npc_form is None:
        raise NpcRefused(N_("This system has no quick NPCs: use the full form."))
    if not any(ch.isalnum() for ch in text):  # «:::», «, ;» — punctuation is no NPC
        raise NpcRefused(EMPTY)
    rows = await uow.characters.for_game(game.id, statuses=("active", "retired"))
    taken = {fold(c.name) for c in rows if c.is_npc}
    number = 1  # nameless mooks count from 1, past any taken name
    while fold(mook_name.format(n=number)) in taken:
        number += 1
    character = spec.npc_form.build(text, mook_name.format(n=number))
    name = fold(sheet_name(character))
    if same := next((c for c in rows if c.status == "active" and fold(c.name) == name), None):
        # two of one name: /sheet, /r and the trackers could reach only one of them
        raise NpcRefused(NAME_TAKEN, name=same.name)
    sheet = character.model_dump(mode="json")
    try:
        stored = await uow.characters.add(
            game_id=game.id, owner_user_id=None, is_npc=True, system=game.system,
            name=sheet_name(character), status="active", sheet=sheet,
            schema_version=spec.schema_version,
        )  # fmt: skip
    except NameTaken:  # made meanwhile (a second /npc at once): the database's unique index
        await uow.rollback()
        raise NpcRefused(NAME_TAKEN, name=sheet_name(character)) from None
    await uow.characters.add_version(
        stored.id, 1, author_user_id=user_id, kind="create", diff=[], sheet=sheet
    )
    await uow.commit()
    return stored


async def page_of(uow: UnitOfWork, game: GameDTO, page: int) -> NpcPage:
    npcs = await active_npcs(uow, game)
    pages = max(1, -(-len(npcs) // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    return NpcPage(npcs[page * PAGE_SIZE : (page + 1) * PAGE_SIZE], page, pages, len(npcs))


async def retire(uow: UnitOfWork, game: GameDTO, *, user_id: int, character_id: int) -> str:
    """Active → retired, once however many presses; returns the NPC's name."""
    if not await is_gm(uow, game, user_id):
        raise NpcRefused(ONLY_GM)
    found = await uow.characters.get(character_id, for_update=True)
    if found is None or found.game_id != game.id or not found.is_npc:
        raise NpcRefused(N_("This button is no longer active."))
    if not await uow.characters.set_status(
        character_id, expected=("active",), status="retired", comment=None
    ):
        raise NpcRefused(GONE)
    await uow.characters.add_version(
        character_id, found.version, author_user_id=user_id, kind="retire", diff=[],
        sheet=found.sheet,
    )  # fmt: skip
    await uow.commit()
    return found.name


__all__ = ["NpcFormError", "NpcPage", "NpcRefused", "create", "page_of", "retire"]
