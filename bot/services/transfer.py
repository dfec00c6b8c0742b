"""/export and /import: a character or a whole game as a file, and back.

Reading a file (JSON, bounds, sheet models, the roll log's chain) runs in the worker process
(``bot.cpu``) within ``LIMITS``; the file's size is checked before it is downloaded. What the
rules say of the sheets (creation rules for a character, in-play rules for a game) is checked
here, on models already read. A file is imported into a game once: the ``imports`` row of the
(game, content hash) is written in the same transaction as what it creates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from bot.cpu import CpuPool
from bot.i18n import N_
from bot.services import characters as character_service
from bot.services import milestones, own_characters, settings
from bot.services import verify as verify_service
from bot.services.names import fold
from bot.services.verify import LIMITS as LOG_LIMITS
from bot.services.verify import game_name
from bot.systems import SHEET_UPGRADES, SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.schedules import ScheduleRepo
from db.repositories.transfer import TransferRepo, parse_time
from db.uow import UnitOfWork
from engine.common import SheetModel, Violation
from engine.text import Msg
from engine.transfer import (
    ImportedCharacter,
    ImportFile,
    SheetType,
    TransferLimits,
    read_file,
    seal,
)

LIMITS: Final = TransferLimits()
MAX_FILE_BYTES: Final = LIMITS.max_bytes  # checked against Telegram's file_size first
READ_SECONDS: Final = 30.0
EXPORT_STATUSES: Final = ("active", "pending", "returned")
IMPORTED_LOG_KEY: Final = "imported_roll_log"
# Game data that belongs to this chat's messages and log, not to the game: left out of a file.
LOCAL_DATA: Final = frozenset({IMPORTED_LOG_KEY, milestones.LAST_KEY})
PLAY_RULES: Final = N_("The sheet breaks the rules of play:")


@dataclass(frozen=True)
class Refusal:
    """Why nothing was imported: ``reason`` is a msgid (its ``params`` msgids too), ``problems``
    what the engine found, every one of them."""

    reason: str
    problems: tuple[Msg | Violation, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    system: str = ""  # the file's system: its glossary names the sheet's fields


class ImportRefused(Exception):
    def __init__(
        self, reason: str, problems: tuple[Msg | Violation, ...] = (), *, system: str = "",
        **params: str,
    ) -> None:  # fmt: skip
        super().__init__(reason)
        self.refusal = Refusal(reason, problems, params, system)


@dataclass(frozen=True)
class GameImported:
    game: GameDTO
    characters: int
    npcs: int
    schedules: int
    ledger: int
    rolls: int
    skipped: tuple[str, ...] = field(default_factory=tuple)  # schedules of unknown milestones


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _character_json(character: CharacterDTO) -> dict[str, Any]:
    spec = SYSTEMS[character.system]
    sheet = spec.load(character.sheet, character.schema_version).model_dump(mode="json")
    return {
        "ref": character.id, "name": character.name, "owner_user_id": character.owner_user_id,
        "status": character.status, "schema_version": spec.schema_version, "sheet": sheet,
    }  # fmt: skip


async def character_file(uow: UnitOfWork, character: CharacterDTO) -> bytes:
    """One character: its sheet (current schema), its system and its ledger history."""
    history = await TransferRepo(uow.session).ledger(
        character.game_id, character_id=character.id, limit=LIMITS.max_history
    )
    document = {
        "kind": "character", "system": character.system, "exported_at": _now(),
        "character": {**_character_json(character), "history": history},
    }  # fmt: skip
    return seal(document)


async def game_file(uow: UnitOfWork, game: GameDTO) -> bytes:
    """The whole game: characters, NPCs, members, schedules, options, ledger, roll log."""
    every = await uow.characters.for_game(game.id, statuses=(*EXPORT_STATUSES, "retired"))
    log_id = await uow.rolls.existing_log_id(game.chat_id)
    log = await uow.rolls.export(log_id, game_name(game.chat_id)) if log_id else None
    schedules = await ScheduleRepo(uow.session).for_game(game.id)
    transfer = TransferRepo(uow.session)
    document = {
        "kind": "game", "system": game.system, "exported_at": _now(),
        "game": {
            "title": game.title, "options": game.options, "timezone": game.timezone,
            "gm_user_id": game.gm_user_id, "trusted": await uow.grants.trusted(game.id),
            "data": {
                key: value for key, value in (await transfer.game_data(game.id)).items()
                if key not in LOCAL_DATA
            },
        },
        "members": [
            {"user_id": m.user_id, "role": m.role} for m in await uow.games.members(game.id)
        ],
        "characters": [_character_json(c) for c in every if not c.is_npc],
        "npcs": [_character_json(c) for c in every if c.is_npc],
        "schedules": [
            {
                "kind": s.kind, "weekday": s.weekday, "minute_of_day": s.minute_of_day,
                "remind_minutes": s.remind_minutes, "grace_hours": s.grace_hours,
                "enabled": s.enabled,
            }
            for s in schedules
        ],
        "ledger": await transfer.ledger(game.id, limit=LIMITS.max_ledger),
        "roll_log": log.to_json() if log is not None else None,
    }  # fmt: skip
    return seal(document)


async def read(cpu: CpuPool, content: bytes) -> ImportFile:
    """The file read and checked in the worker. Raises ``EngineError`` for a file that is no
    export this bot reads, ``CpuError`` when the work did not end."""
    types = {k: SheetType(s.character_type, s.schema_version) for k, s in SYSTEMS.items()}
    return await cpu.run(
        read_file, content, types, dict(SHEET_UPGRADES), LIMITS, LOG_LIMITS, timeout=READ_SECONDS
    )


async def games_for(uow: UnitOfWork, user_id: int, system: str) -> list[GameDTO]:
    """The live games the user is part of whose system is the file's."""
    games = await uow.games.games_of(user_id, roles=own_characters.MEMBER_ROLES)
    return [g for g in games if g.system == system]


def _one_sheet(parsed: ImportFile) -> SheetModel:
    if parsed.problems:
        raise ImportRefused(
            N_("The file cannot be imported:"), parsed.problems, system=parsed.system
        )
    sheet = parsed.characters[0].sheet
    assert sheet is not None  # a sheet that did not fit is among the problems
    return sheet


@dataclass(frozen=True)
class PreparedCharacter:
    sheet: SheetModel
    history: tuple[dict[str, Any], ...]  # the file's ledger entries, times parsed


async def prepare_character(
    uow: UnitOfWork, parsed: ImportFile, game: GameDTO, user_id: int
) -> PreparedCharacter:
    """Check a character file against the game by the rules of play (a character in play has
    spent fate points, taken harm, advanced: what ``/res``, milestones and fights produce; the
    GM still approves it), and claim the file for the game (not committed: the submission
    that follows commits both). Raises ``ImportRefused`` listing every violation; nothing is
    stored then."""
    if parsed.kind != "character":
        raise ImportRefused(N_("This file holds a whole game, not one character."))
    if parsed.system != game.system:
        raise ImportRefused(
            N_("This character is for «{file}», and this game is «{game}»."),
            file=SYSTEMS[parsed.system].title, game=SYSTEMS[game.system].title,
        )  # fmt: skip
    sheet = _one_sheet(parsed)
    spec = SYSTEMS[game.system]
    violations = spec.blocking(sheet, spec.options(game.options), in_play=True)
    if violations:
        raise ImportRefused(PLAY_RULES, tuple(violations), system=parsed.system)
    if not await TransferRepo(uow.session).claim(
        game.id, parsed.content_hash, "character", user_id
    ):
        await uow.rollback()
        raise ImportRefused(N_("This file was already imported into this game: nothing new."))
    name = parsed.characters[0].name
    present = await uow.characters.for_game(game.id, statuses=("pending", "returned", "active"))
    if any(fold(c.name) == fold(name) for c in present):
        # an export brought back into its own game would stand beside itself: two «Zed»
        await uow.rollback()  # nor is the file claimed
        raise ImportRefused(
            N_("«{name}» is already in this game. A character's file is for another game of "
               "the same system."),
            name=name,
        )  # fmt: skip
    now = datetime.now(UTC)
    history = tuple(
        {**entry, "created_at": parse_time(entry["created_at"], now)}
        for entry in parsed.characters[0].history
    )
    return PreparedCharacter(sheet, history)


def _check_cast(parsed: ImportFile, options: SheetModel) -> list[Msg | Violation]:
    """Every problem of the game's characters under the rules of play, named. An NPC is
    checked as an NPC: the GM makes one freely (``/npc Громила: Бой 3`` has no concept
    aspect), so its sheet's model is its only rule."""
    spec = SYSTEMS[parsed.system]
    found: list[Msg | Violation] = list(parsed.problems)
    active: set[int] = set()
    names: set[str] = set()  # one active character per name (``characters_active_name``)
    for character in parsed.characters:
        if character.sheet is not None and character.status == "active":
            name = character_service.sheet_name(character.sheet)
            if fold(name) in names:
                found.append(Msg("transfer.same_name", {"name": name}))
            names.add(fold(name))
        if character.sheet is None or character.is_npc:
            continue
        for violation in spec.blocking(character.sheet, options, in_play=True):
            found.append(Msg("transfer.sheet_rule", {
                "name": character.name, "problem": violation.msg,
            }))  # fmt: skip
        if character.status == "active" and character.owner_user_id is not None:
            if character.owner_user_id in active:
                found.append(Msg("transfer.two_active", {"name": character.name}))
            active.add(character.owner_user_id)
    return found


async def import_game(
    uow: UnitOfWork, parsed: ImportFile, *, chat_id: int, user_id: int, locale: str
) -> GameImported:
    """A whole game into a chat without a live game, by its GM (or a co-GM named in the
    file), who runs it here (a group without a language of its own speaks theirs, ``locale``,
    as after /newgame). Everything or nothing; commits."""
    if parsed.kind != "game" or parsed.game is None:
        raise ImportRefused(N_("This file holds one character, not a game."))
    part = parsed.game
    if user_id != part.gm_user_id and (user_id, "cogm") not in part.members:
        raise ImportRefused(N_("Only the game's GM can import it."))
    if await uow.games.live_for_chat(chat_id) is not None:
        raise ImportRefused(N_("This chat already has a game. The GM can archive it first."))
    spec = SYSTEMS[parsed.system]
    try:
        options = spec.options(part.options)
    except ValidationError:
        raise ImportRefused(N_("The game's options in the file are wrong.")) from None
    await _same_log(uow, parsed)
    problems = _check_cast(parsed, options)
    if problems:
        raise ImportRefused(
            N_("The file cannot be imported:"), tuple(problems), system=parsed.system
        )
    game = await uow.games.create(chat_id, parsed.system, part.title, user_id)
    await settings.adopt_group_language(uow, chat_id, locale)
    await uow.games.set_options(game.id, options.model_dump(mode="json"))
    await uow.games.set_timezone(game.id, _zone(part.timezone, game.timezone))
    if part.trusted:
        await uow.grants.set_trusted(game.id, True, user_id)
    for key, value in part.data.items():
        if key not in LOCAL_DATA:
            await uow.games.set_data(game.id, key, value)
    for member, role in part.members:
        if member != user_id:
            await uow.games.set_member(game.id, member, "cogm" if role == "gm" else role)
    ids = await _add_cast(uow, game, parsed.characters, user_id)
    transfer = TransferRepo(uow.session)
    now = datetime.now(UTC)
    ledger = [
        {**e, "character": ids[e["character"]], "created_at": parse_time(e["created_at"], now)}
        for e in part.ledger
    ]
    await transfer.add_ledger(game.id, ledger)
    added, skipped = await _add_schedules(uow, game, part.schedules, user_id)
    if part.roll_log is not None:
        await uow.games.set_data(game.id, IMPORTED_LOG_KEY, part.roll_log)
    await transfer.claim(game.id, parsed.content_hash, "game", user_id)
    await uow.commit()
    npcs = sum(c.is_npc for c in parsed.characters)
    rolls = len(part.roll_log.get("entries") or []) if part.roll_log else 0
    return GameImported(
        game, len(parsed.characters) - npcs, npcs, added, len(ledger), rolls, skipped
    )


async def _same_log(uow: UnitOfWork, parsed: ImportFile) -> None:
    """The file's roll log is the bot's own log of the chat it names, as far as both go (an
    older file stops early; that is no forgery). A die changed with the chain re-made checks
    out alone, so a mismatch here is refused, naming the first entry that differs."""
    if parsed.log_digest is None:
        return
    comparison = await verify_service.against_own_log(uow, parsed.log_digest)
    if comparison is None:
        return
    if comparison.differs:
        raise ImportRefused(
            N_(
                "The roll log in the file is not the log I keep for its chat: entry "
                "#{entry} differs. Export the game again."
            ),
            entry=str(comparison.matched + 1),
        )
    if comparison.epochs:
        raise ImportRefused(
            N_(
                "The roll log in the file is not the log I keep for its chat: the seed "
                "commitment of epoch {epoch} differs. Export the game again."
            ),
            epoch=str(comparison.epochs[0]),
        )


def _zone(name: str, default: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return default
    return name


async def _add_cast(
    uow: UnitOfWork, game: GameDTO, cast: tuple[ImportedCharacter, ...], user_id: int
) -> dict[int, int]:
    """The characters and NPCs, each with an «import» version; the file's ref → the new id."""
    spec = SYSTEMS[game.system]
    ids: dict[int, int] = {}
    for character in cast:
        assert character.sheet is not None
        sheet = character.sheet.model_dump(mode="json")
        stored = await uow.characters.add(
            game_id=game.id, owner_user_id=character.owner_user_id, is_npc=character.is_npc,
            system=game.system, name=character_service.sheet_name(character.sheet),
            status=character.status, sheet=sheet, schema_version=spec.schema_version,
        )  # fmt: skip
        await uow.characters.add_version(
            stored.id, 1, author_user_id=user_id, kind="import", diff=[], sheet=sheet
        )
        if character.owner_user_id is not None and character.owner_user_id != user_id:
            await uow.games.add_member(game.id, character.owner_user_id, "player")
        ids[character.ref] = stored.id
    return ids


async def _add_schedules(
    uow: UnitOfWork, game: GameDTO, schedules: tuple[dict[str, Any], ...], user_id: int
) -> tuple[int, tuple[str, ...]]:
    repo = ScheduleRepo(uow.session)
    known = milestones.kinds(game.system)
    skipped = tuple(s["kind"] for s in schedules if s["kind"] not in known)
    added = 0
    for item in schedules:
        if item["kind"] not in known:
            continue
        schedule = await repo.add(
            game_id=game.id, kind=item["kind"], weekday=item["weekday"],
            minute_of_day=item["minute_of_day"], remind_minutes=item["remind_minutes"],
            created_by=user_id, created_at=datetime.now(UTC), grace_hours=item["grace_hours"],
        )  # fmt: skip
        added += 1
        if not item["enabled"]:
            await TransferRepo(uow.session).disable_schedule(schedule.id)
    if added:
        await repo.notify_changed()
    return added, skipped


async def forget_import(uow: UnitOfWork) -> None:
    """The submission was refused after the import was prepared (the game's rules changed in
    between): nothing of it is kept."""
    await uow.rollback()
