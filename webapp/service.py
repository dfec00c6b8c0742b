"""The Mini App's use cases: who may see which sheet, what a page shows, and a change made
from it — through the resource panel's own use case (``bot.services.resources.apply``), so
the refusals, the ledger entry and the engine's rules are the panel's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from bot.i18n import N_
from bot.services import grants, resources
from bot.services.games import is_gm
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.ledger import LedgerDTO
from db.repositories.rolls import StoredRoll
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.dice.log import LogEntry

MEMBER_ROLES: Final = ("gm", "cogm", "player")
LEDGER_SHOWN: Final = 8
ROLLS_SHOWN: Final = 8
ROLLS_SCANNED: Final = 200  # the chat log's newest rolls searched for the character's own
# a retired character, and any of an archived game, is shown to read (issue 36 item 4)
SHOWN_STATUSES: Final = ("active", "retired")
ARCHIVED: Final = N_("The character is archived: it can be read, not changed.")


class NotFound(Exception):
    """No such character for this user: unknown, not theirs and not their game's, or gone.
    One answer for all, so ids cannot be probed."""


@dataclass(frozen=True)
class Entry:
    character: CharacterDTO
    game: GameDTO
    gm: bool  # the user is a GM or co-GM of the game (else: the character's owner)
    # the page's gain buttons ask the GM («🙋 +1»): the owner at a gated table, as on the
    # panel (``grants.gains_asked``); only ``entry_for`` fills it (the list has no buttons)
    asks: bool = False

    @property
    def archived(self) -> bool:
        """Readable, changeable by no one: its game is archived, or it retired."""
        return self.game.archived or self.character.status == "retired"


@dataclass(frozen=True)
class Page:
    entry: Entry
    sheet: SheetModel
    ledger: list[LedgerDTO]
    rolls: list[LogEntry]
    people: dict[int, str] = field(default_factory=dict)  # the ledger's users, by id


async def characters_for(uow: UnitOfWork, user_id: int) -> list[Entry]:
    """The user's own active characters and, in games they run, every active character."""
    found: list[tuple[bool, Entry]] = []
    for game in await uow.games.games_of(user_id, roles=MEMBER_ROLES, archived=True):
        gm = await is_gm(uow, game, user_id)
        for character in await uow.characters.for_game(game.id, statuses=SHOWN_STATUSES):
            own = character.owner_user_id == user_id and not character.is_npc
            if own or gm:
                found.append((not own, Entry(character, game, gm)))
    # one's own characters first, then the rest of the games one runs
    found.sort(key=lambda pair: (pair[0], pair[1].game.id, pair[1].character.id))
    return [entry for _, entry in found]


async def entry_for(uow: UnitOfWork, user_id: int, character_id: int) -> Entry:
    """One character the user may see (``NotFound`` otherwise)."""
    character = await uow.characters.get(character_id)
    if character is None or character.status not in SHOWN_STATUSES:
        raise NotFound
    game = await uow.games.get(character.game_id)
    if game is None or character.system != game.system:
        raise NotFound
    gm = await is_gm(uow, game, user_id)
    own = character.owner_user_id == user_id and not character.is_npc
    if not (own or gm):
        raise NotFound
    asks = not gm and not game.archived and await grants.gains_asked(uow, game, character)
    return Entry(character, game, gm, asks)


async def roll_mark(uow: UnitOfWork, entry: Entry) -> str:
    """The newest rolls the page may list (the game's chat, the owner's inline rolls in their
    private log), read in one statement: part of the page's version, polled every few
    seconds."""
    logs = _logs(entry)
    newest = await uow.rolls.newest_seqs(logs)
    return "-".join(str(newest.get(chat_id, 0)) for chat_id in logs)


def _logs(entry: Entry) -> tuple[int, ...]:
    """The logs a character's rolls are in: its game's chat, and its owner's private chat
    (inline rolls, ``@bot Атлетика``, are logged there)."""
    owner = entry.character.owner_user_id
    return (entry.game.chat_id,) if owner is None else (entry.game.chat_id, owner)


def _is_of(stored: StoredRoll, character: CharacterDTO) -> bool:
    """A roll of the character: logged for it (a sheet roll, a request, a card, a tracker:
    «Name» or «Name: trait»), or a free roll its player made (logged for the player)."""
    subject = stored.entry.subject.casefold()
    wanted = character.name.casefold()
    if subject == wanted or subject.startswith(wanted + ":"):
        return True
    free = stored.entry.subject == stored.entry.actor
    return free and not character.is_npc and stored.actor_user_id == character.owner_user_id


async def character_rolls(uow: UnitOfWork, entry: Entry) -> list[LogEntry]:
    """The character's rolls among its logs' newest, newest first."""
    found: list[LogEntry] = []
    for chat_id in _logs(entry):
        log_id = await uow.rolls.existing_log_id(chat_id)
        if log_id is None:
            continue
        in_game = chat_id == entry.game.chat_id
        recent = await uow.rolls.recent(log_id, offset=0, limit=ROLLS_SCANNED)
        found += [
            r.entry
            for r in recent
            if (_is_of(r, entry.character) if in_game else _is_named(r, entry.character))
        ]
    found.sort(key=lambda e: e.created_at, reverse=True)
    return found[:ROLLS_SHOWN]


def _is_named(stored: StoredRoll, character: CharacterDTO) -> bool:
    """In the owner's private log only the rolls made for this character count (the player's
    own free rolls there belong to no game)."""
    subject = stored.entry.subject.casefold()
    return subject == character.name.casefold()


async def page(uow: UnitOfWork, entry: Entry) -> Page:
    ledger = await uow.ledger.for_character(entry.character.id, limit=LEDGER_SHOWN)
    rolls = await character_rolls(uow, entry)
    people: dict[int, str] = {}
    for user_id in {i for e in ledger for i in (e.actor_user_id, e.asked_by_user_id) if i}:
        user = await uow.users.get(user_id)
        if user is not None:  # one the bot never met is left unnamed, never shown as an id
            people[user_id] = user.name
    return Page(entry, resources.load(entry.character), ledger, rolls, people)


async def act(
    uow: UnitOfWork, *, user_id: int, character_id: int, version: int, op: resources.Op,
    actor_name: str, locale: str,
) -> resources.Applied | grants.Asked:  # fmt: skip
    """A press on the page: the character's row is locked first and must still be the version
    the page showed (a second tap, a retried request or a change made meanwhile in the chat
    changes nothing), then the panel's use case applies it and commits once. A player's gain
    at a gated table is the GM's call, as on the panel: it opens a request instead (``Asked``;
    the sheet is unchanged, a second press while it is open is refused)."""
    entry = await entry_for(uow, user_id, character_id)
    if entry.archived:
        raise resources.Refused(ARCHIVED)
    locked = await uow.characters.get(character_id, for_update=True)
    if locked is None or locked.version != version:
        raise resources.Refused(N_("The sheet changed meanwhile; it is shown as it is now."))
    if await grants.needs_grant(uow, entry.game, user_id, op):
        return await grants.ask(
            uow, game=entry.game, user_id=user_id, character_id=character_id, op=op
        )
    return await resources.apply(
        uow, game=entry.game, user_id=user_id, character_id=character_id, op=op,
        actor_name=actor_name, locale=locale,
    )  # fmt: skip
