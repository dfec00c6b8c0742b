"""Export files of a character or a whole game, and reading one back (pure; no framework).

An export file is UTF-8 JSON::

    {"format": "tabletop-export", "schema_version": 1, "kind": "character" | "game",
     "system": "<system id>", "exported_at": "<ISO-8601>",
     "character": {<character>},                       # kind "character"
     "game": {"title", "options", "timezone", "gm_user_id",   # kind "game", and:
             "trusted" (gains without the GM), "data" (the game's named documents)},
     "members": [{"user_id", "role"}], "characters": [<character>], "npcs": [<character>],
     "schedules": [{"kind", "weekday", "minute_of_day", "remind_minutes", "grace_hours",
                    "enabled"}],
     "ledger": [{"character": <ref>, "actor_user_id", "kind", "reason", "batch", "diff",
                 "sheet_before", "sheet_after", "version_before", "version_after",
                 "created_at", "undone"}],
     "roll_log": <a "rollog/1" export, exactly what ``python -m engine.verify`` reads> | null,
     "sha256": "<hex SHA-256 of the canonical JSON of every other field>"}

    <character> = {"ref": <int, unique in the file>, "name", "owner_user_id" (int | null),
                   "status", "schema_version" (of the sheet), "sheet": {...},
                   "history": [<ledger entry>, ...]}   # history: in a character file only

Reading (``read_file``) is what the bot's worker process runs: every bound (bytes, nesting,
counts) is checked before the work it guards, every sheet is upgraded to its system's current
schema and validated by its model, the roll log is verified. The result says what is wrong
(``problems``) instead of raising for a sheet that does not fit; a file that is no export at
all, or from a newer bot, raises ``TransferError``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import ValidationError

from engine.common import SheetModel
from engine.dice.log import export_from_json
from engine.dice.verify import FileDigest, VerifyLimits, VerifyReport, digest, verify_export
from engine.errors import EngineError
from engine.text import Msg, ParamValue, register_messages

FORMAT: Final = "tabletop-export"
SCHEMA_VERSION: Final = 1
KINDS: Final = ("character", "game")
STATUSES: Final = ("pending", "active", "returned", "retired")
MEMBER_ROLES: Final = ("cogm", "player")

# The file's parts in words (``transfer.part.<key>``): a refusal names the part, never a path.
_PARTS: Final = {
    "character": ("персонаж", "the character"),
    "characters": ("персонажи", "the characters"),
    "npcs": ("НПС", "the NPCs"),
    "sheet": ("лист персонажа", "the character's sheet"),
    "schema_version": ("версия листа", "the sheet's version"),
    "name": ("имя", "the name"),
    "ref": ("номер персонажа", "the character's number"),
    "owner_user_id": ("владелец", "the owner"),
    "status": ("статус персонажа", "the character's status"),
    "history": ("история изменений", "the history of changes"),
    "ledger": ("журнал изменений", "the ledger of changes"),
    "game": ("игра", "the game"),
    "title": ("название игры", "the game's title"),
    "options": ("настройки игры", "the game's options"),
    "timezone": ("часовой пояс", "the time zone"),
    "gm_user_id": ("мастер", "the GM"),
    "members": ("участники", "the members"),
    "role": ("роль участника", "a member's role"),
    "user_id": ("участник", "a member"),
    "schedules": ("расписание вех", "the milestone schedule"),
    "weekday": ("день недели", "the weekday"),
    "minute_of_day": ("время", "the time"),
    "remind_minutes": ("напоминание", "the reminder"),
    "grace_hours": ("часы ожидания", "the grace hours"),
    "enabled": ("включено ли расписание", "whether the schedule is on"),
    "kind": ("вид записи", "the kind of entry"),
    "actor_user_id": ("кто внёс изменение", "who made the change"),
    "created_at": ("время изменения", "when it changed"),
    "data": ("данные игры", "the game's data"),
}
# pydantic's error types → ``transfer.value.<word>``
_PROBLEMS: Final = {
    "missing": "missing",
    "int_type": "number", "int_parsing": "number", "int_from_float": "number",
    "float_type": "number", "float_parsing": "number",
    "string_type": "text",
    "greater_than": "range", "greater_than_equal": "range", "less_than": "range",
    "less_than_equal": "range",
    "string_too_long": "long", "too_long": "long",
    "enum": "choice", "literal_error": "choice",
    "extra_forbidden": "extra",
}  # fmt: skip

register_messages(
    {
        "transfer.too_large": {
            "ru": "Файл больше {limit} КБ: такой импорт не принимается.",
            "en": "The file is larger than {limit} KB: it cannot be imported.",
        },
        "transfer.not_json": {
            "ru": "Это не файл экспорта: внутри не JSON.",
            "en": "This is not an export file: it holds no JSON.",
        },
        "transfer.too_deep": {
            "ru": "В файле слишком глубокая вложенность (больше {limit} уровней).",
            "en": "The file is nested too deep (more than {limit} levels).",
        },
        "transfer.not_export": {
            "ru": "Это не файл экспорта бота: его выгружает команда /export.",
            "en": "This is not the bot's export file (no format «tabletop-export»).",
        },
        "transfer.newer": {
            "ru": "Файл сделан более новой версией бота (формат {version}, я знаю до "
            "{known}). Обновите бота или экспортируйте заново.",
            "en": "The file comes from a newer version of the bot (format {version}, I know "
            "up to {known}). Update the bot or export again.",
        },
        "transfer.bad_field": {
            "ru": "Файл повреждён или изменён вручную: {part} — {expected}.",
            "en": "The file is damaged or was edited by hand: {part} — {expected}.",
        },
        "transfer.expect.text": {"ru": "нужен текст", "en": "text is needed"},
        "transfer.expect.number": {"ru": "нужно число", "en": "a number is needed"},
        "transfer.expect.object": {"ru": "нужна запись", "en": "a record is needed"},
        "transfer.expect.list": {"ru": "нужен список", "en": "a list is needed"},
        "transfer.expect.bool": {"ru": "нужно «да» или «нет»", "en": "yes or no is needed"},
        "transfer.expect.one_of": {
            "ru": "нужно одно из: {values}",
            "en": "one of these is needed: {values}",
        },
        "transfer.expect.range": {
            "ru": "нужно число от {low} до {high}",
            "en": "a number from {low} to {high} is needed",
        },
        "transfer.expect.max_chars": {
            "ru": "длина не больше {limit}",
            "en": "at most {limit} characters",
        },
        **{f"transfer.part.{key}": {"ru": ru, "en": en} for key, (ru, en) in _PARTS.items()},
        "transfer.part.other": {"ru": "часть файла", "en": "a part of the file"},
        "transfer.value.missing": {"ru": "не заполнено", "en": "missing"},
        "transfer.value.number": {"ru": "нужно число", "en": "a number is needed"},
        "transfer.value.text": {"ru": "нужен текст", "en": "text is needed"},
        "transfer.value.range": {"ru": "вне допустимых пределов", "en": "out of range"},
        "transfer.value.long": {"ru": "слишком длинное", "en": "too long"},
        "transfer.value.choice": {
            "ru": "такого значения нет в правилах",
            "en": "no such value in the rules",
        },
        "transfer.value.extra": {"ru": "лишнее поле", "en": "an unknown entry"},
        "transfer.value.wrong": {"ru": "заполнено неверно", "en": "filled in wrongly"},
        "transfer.too_many": {
            "ru": "Слишком много записей: {part} — больше {limit}.",
            "en": "Too many entries: {part} — more than {limit}.",
        },
        "transfer.unknown_system": {
            "ru": "Неизвестная система правил «{system}».",
            "en": "Unknown rule system «{system}».",
        },
        "transfer.forged": {
            "ru": "Контрольная сумма файла не совпадает: его изменили после экспорта.",
            "en": "The file's checksum does not match: it was changed after the export.",
        },
        "transfer.sheet_newer": {
            "ru": "«{name}»: лист сделан более новой версией бота (версия {version}, я знаю "
            "до {known}).",
            "en": "«{name}»: the sheet comes from a newer version of the bot (version "
            "{version}, I know up to {known}).",
        },
        "transfer.sheet_old": {
            "ru": "«{name}»: лист версии {version} не обновить до текущей.",
            "en": "«{name}»: a sheet of version {version} cannot be upgraded.",
        },
        "transfer.sheet_field": {
            "ru": "«{name}»: {where} — {problem}.",
            "en": "«{name}»: {where} — {problem}.",
        },
        "transfer.sheet_rule": {"ru": "«{name}»: {problem}", "en": "«{name}»: {problem}"},
        "transfer.duplicate_ref": {
            "ru": "Персонаж #{ref} встречается в файле дважды.",
            "en": "Character #{ref} appears twice in the file.",
        },
        "transfer.unknown_ref": {
            "ru": "Запись журнала ссылается на неизвестного персонажа #{ref}.",
            "en": "A ledger entry names an unknown character #{ref}.",
        },
        "transfer.two_active": {
            "ru": "«{name}»: у этого игрока в файле уже есть активный персонаж.",
            "en": "«{name}»: this player already has an active character in the file.",
        },
        "transfer.same_name": {
            "ru": "«{name}»: в файле два активных персонажа с таким именем.",
            "en": "«{name}»: two active characters in the file have this name.",
        },
        "transfer.log_bad": {
            "ru": "Журнал бросков в файле не проходит проверку: {problem}",
            "en": "The roll log in the file does not check out: {problem}",
        },
    }
)


class TransferError(EngineError):
    """The file is not an export this bot can read; nothing was imported."""


@dataclass(frozen=True)
class TransferLimits:
    """Bounds checked before the work they guard (a hostile file costs no more than this)."""

    # Telegram lets a bot download 20 MB; half of it keeps the worker's turn to seconds (a
    # ledger entry holds two sheets: about 4,000 entries with 300 fate characters fit).
    max_bytes: int = 10 * 1024 * 1024
    max_depth: int = 24
    max_characters: int = 300
    max_history: int = 5000
    max_ledger: int = 20000
    max_schedules: int = 50
    max_members: int = 500
    max_string: int = 4096
    max_data_keys: int = 32


@dataclass(frozen=True)
class SheetType:
    """What reading needs of one system: its sheet model and current sheet schema."""

    model: type[SheetModel]
    schema_version: int


Upgrade = Callable[[dict[str, Any]], dict[str, Any]]


def from_unversioned(sheet: dict[str, Any]) -> dict[str, Any]:
    """Sheet version 0 → 1 (every system): a file from before sheets carried a version, in
    the file or in the sheet. Version 1 only added fields, each with a default the model
    fills in, and the version inside the sheet."""
    return {**sheet, "schema_version": 1}


@dataclass(frozen=True)
class ImportedCharacter:
    ref: int
    name: str
    owner_user_id: int | None
    is_npc: bool
    status: str
    sheet: SheetModel | None  # None: it did not fit the model (see the file's problems)
    history: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ImportedGame:
    title: str
    options: dict[str, Any]
    timezone: str
    gm_user_id: int
    members: tuple[tuple[int, str], ...]
    schedules: tuple[dict[str, Any], ...]
    ledger: tuple[dict[str, Any], ...]
    roll_log: dict[str, Any] | None
    # Older files lack these: a gated table, no stored documents.
    trusted: bool = False
    data: dict[str, Any] = field(default_factory=dict)  # ``game_data`` by key


@dataclass(frozen=True)
class ImportFile:
    kind: str
    system: str
    content_hash: str
    characters: tuple[ImportedCharacter, ...]
    game: ImportedGame | None = None
    log_report: VerifyReport | None = None
    problems: tuple[Msg, ...] = field(default_factory=tuple)
    # The roll log's entries and commitments, to hold against the bot's own log of the chat
    # it names (a file whose chain was re-made after a die was changed checks out alone).
    log_digest: FileDigest | None = None


def canonical(data: Mapping[str, Any]) -> bytes:
    return json.dumps(
        data, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
    ).encode()


def content_hash(document: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of every field but ``sha256``: the same content, however
    laid out, has one hash (the import's idempotency key)."""
    return hashlib.sha256(
        canonical({k: v for k, v in document.items() if k != "sha256"})
    ).hexdigest()


def seal(document: dict[str, Any]) -> bytes:
    """The file's bytes: the document with its ``sha256`` (UTF-8, compact: a ledger entry
    holds two whole sheets, so a long campaign's file is mostly sheets)."""
    sealed = {**document, "format": FORMAT, "schema_version": SCHEMA_VERSION}
    sealed["sha256"] = content_hash(sealed)
    return json.dumps(sealed, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


_STRINGS: Final = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')  # unrolled: linear, no backtracking
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")


def check_depth(content: bytes, limit: int) -> None:
    """Refuse nesting past ``limit`` from the raw bytes, before any parser recurses into it:
    strings blanked, only brackets kept, then each pass drops the innermost pairs (C-speed
    passes, ``limit`` of them at most)."""
    brackets = _STRINGS.sub(b'""', content).translate(None, _NOT_BRACKETS)
    too_deep = re.compile(rb"[\[{]{%d}" % (limit + 1))  # that many openers in a row
    for _ in range(limit):
        if not brackets:
            return
        if too_deep.search(brackets):
            raise TransferError(Msg("transfer.too_deep", {"limit": limit}))
        brackets = brackets.replace(b"[]", b"").replace(b"{}", b"")
    if brackets:
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            raise TransferError(Msg("transfer.not_json"))  # brackets that never pair up
        raise TransferError(Msg("transfer.too_deep", {"limit": limit}))


def _bad(where: str, expected: Msg) -> TransferError:
    params: dict[str, ParamValue] = {"part": _part(where), "expected": expected}
    return TransferError(Msg("transfer.bad_field", params))


def _part(where: str) -> Msg:
    """The part of the file at ``where`` (``characters[0].sheet``) in words, never the path."""
    for key in reversed(re.findall(r"[a-z_]+", where)):
        if key in _PARTS:
            return Msg(f"transfer.part.{key}")
    return Msg("transfer.part.other")


def _one_of(values: tuple[str, ...]) -> Msg:
    return Msg("transfer.expect.one_of", {"values": ", ".join(values)})


def _range(low: int, high: int) -> Msg:
    return Msg("transfer.expect.range", {"low": low, "high": high})


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(key)
    names = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in names:
        raise _bad(f"{where}{key}", _expected(names))
    if not isinstance(value, kind):
        raise _bad(f"{where}{key}", _expected(names))
    return value


def _expected(kinds: tuple[type, ...]) -> Msg:
    words = {str: "text", int: "number", dict: "object", list: "list", bool: "bool"}
    return Msg(f"transfer.expect.{words.get(kinds[0], 'object')}")


def _text(data: Mapping[str, Any], key: str, where: str, limits: TransferLimits) -> str:
    value: str = _get(data, key, str, where)
    if len(value) > limits.max_string:
        raise _bad(f"{where}{key}", Msg("transfer.expect.max_chars", {"limit": limits.max_string}))
    return value


def _list(data: Mapping[str, Any], key: str, limit: int, where: str = "") -> list[Any]:
    value: list[Any] = _get(data, key, list, where)
    if len(value) > limit:
        raise TransferError(
            Msg("transfer.too_many", {"part": _part(f"{where}{key}"), "limit": limit})
        )
    return value


def _upgrade(
    system: str, sheet: dict[str, Any], version: int, current: int,
    upgrades: Mapping[tuple[str, int], Upgrade],
) -> dict[str, Any]:  # fmt: skip
    while version < current:
        sheet = upgrades[(system, version)](sheet)
        version += 1
    return sheet


@dataclass
class _Reader:
    system: str
    sheet_type: SheetType
    upgrades: Mapping[tuple[str, int], Upgrade]
    limits: TransferLimits
    problems: list[Msg] = field(default_factory=list)

    def character(self, data: Any, where: str, *, npc: bool, history: bool) -> ImportedCharacter:
        if not isinstance(data, dict):
            raise _bad(where, Msg("transfer.expect.object"))
        where += "."
        name = _text(data, "name", where, self.limits)
        owner = data.get("owner_user_id")
        if owner is not None and (not isinstance(owner, int) or isinstance(owner, bool)):
            raise _bad(f"{where}owner_user_id", Msg("transfer.expect.number"))
        status = _get(data, "status", str, where)
        if status not in STATUSES:
            raise _bad(f"{where}status", _one_of(STATUSES))
        entries = _list(data, "history", self.limits.max_history, where) if history else []
        return ImportedCharacter(
            _get(data, "ref", int, where), name, None if npc else owner, npc, status,
            self.sheet(data, name, where), tuple(self.entry(e, where) for e in entries),
        )  # fmt: skip

    def sheet(self, data: dict[str, Any], name: str, where: str) -> SheetModel | None:
        raw = _get(data, "sheet", dict, where)
        # version 0: written before files recorded a sheet's version
        version = _get(data, "schema_version", int, where) if "schema_version" in data else 0
        current = self.sheet_type.schema_version
        if version > current:
            params = {"name": name, "version": version, "known": current}
            self.problems.append(Msg("transfer.sheet_newer", params))
            return None
        try:
            upgraded = _upgrade(self.system, raw, version, current, self.upgrades)
        except (KeyError, ValueError, TypeError):
            self.problems.append(Msg("transfer.sheet_old", {"name": name, "version": version}))
            return None
        try:
            return self.sheet_type.model.model_validate(upgraded)
        except ValidationError as error:
            for item in error.errors()[:20]:
                path = ".".join(str(p) for p in item["loc"])
                problem = Msg(f"transfer.value.{_PROBLEMS.get(item['type'], 'wrong')}")
                params = {"name": name, "where": path, "problem": problem}
                self.problems.append(Msg("transfer.sheet_field", params))
            return None

    def entry(self, data: Any, where: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise _bad(f"{where}history", Msg("transfer.expect.object"))
        return {
            "character": data.get("character") if isinstance(data.get("character"), int) else 0,
            "actor_user_id": _get(data, "actor_user_id", int, where),
            "kind": _text(data, "kind", where, self.limits)[:32],
            "reason": _get(data, "reason", (str, type(None)), where),
            "batch": _text(data, "batch", where, self.limits)[:64],
            "diff": _get(data, "diff", list, where),
            "sheet_before": _get(data, "sheet_before", dict, where),
            "sheet_after": _get(data, "sheet_after", dict, where),
            "version_before": _get(data, "version_before", int, where),
            "version_after": _get(data, "version_after", int, where),
            "created_at": _text(data, "created_at", where, self.limits),
            "undone": bool(data.get("undone")),
        }


def _document(content: bytes, limits: TransferLimits) -> tuple[dict[str, Any], str]:
    if len(content) > limits.max_bytes:
        raise TransferError(Msg("transfer.too_large", {"limit": limits.max_bytes // 1024}))
    check_depth(content, limits.max_depth)
    try:
        data = json.loads(content)
    except (ValueError, RecursionError):
        raise TransferError(Msg("transfer.not_json")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError(Msg("transfer.not_export"))
    # format 0: an earlier release wrote no version (format 1 added it and the seal, and
    # reads what format 0 holds as it is)
    version = _get(data, "schema_version", int, "") if "schema_version" in data else 0
    if version > SCHEMA_VERSION:
        raise TransferError(Msg("transfer.newer", {"version": version, "known": SCHEMA_VERSION}))
    file_hash = content_hash(data)
    sealed = data.get("sha256")
    if sealed is not None and sealed != file_hash:
        raise TransferError(Msg("transfer.forged"))
    return data, file_hash


def read_file(
    content: bytes,
    sheet_types: Mapping[str, SheetType],
    upgrades: Mapping[tuple[str, int], Upgrade],
    limits: TransferLimits,
    log_limits: VerifyLimits,
) -> ImportFile:
    """Read an export file (the worker process's job). Raises ``TransferError`` for a file that
    is not an export of a known system and format; a sheet that does not fit its model, a
    damaged roll log and the like come back as ``problems`` (nothing is imported then)."""
    data, file_hash = _document(content, limits)
    kind = _get(data, "kind", str, "")
    if kind not in KINDS:
        raise _bad("kind", _one_of(KINDS))
    system = _get(data, "system", str, "")
    if system not in sheet_types:
        raise TransferError(Msg("transfer.unknown_system", {"system": system[:32]}))
    reader = _Reader(system, sheet_types[system], upgrades, limits)
    if kind == "character":
        one = reader.character(data.get("character"), "character", npc=False, history=True)
        return ImportFile(kind, system, file_hash, (one,), problems=tuple(reader.problems))
    return _game(data, reader, file_hash, log_limits)


def _game(
    data: dict[str, Any], reader: _Reader, file_hash: str, log_limits: VerifyLimits
) -> ImportFile:
    limits = reader.limits
    game = _get(data, "game", dict, "")
    cast = _list(data, "characters", limits.max_characters)
    npcs = _list(data, "npcs", limits.max_characters)
    characters = [
        *(reader.character(c, f"characters[{i}]", npc=False, history=False)
          for i, c in enumerate(cast)),
        *(reader.character(c, f"npcs[{i}]", npc=True, history=False) for i, c in enumerate(npcs)),
    ]  # fmt: skip
    refs = [c.ref for c in characters]
    for ref in sorted({r for r in refs if refs.count(r) > 1}):
        reader.problems.append(Msg("transfer.duplicate_ref", {"ref": ref}))
    ledger = [reader.entry(e, "ledger") for e in _list(data, "ledger", limits.max_ledger)]
    for ref in sorted({e["character"] for e in ledger} - set(refs)):
        reader.problems.append(Msg("transfer.unknown_ref", {"ref": ref}))
    log, report, log_digest = _roll_log(data.get("roll_log"), log_limits, reader.problems)
    imported = ImportedGame(
        _text(game, "title", "game.", limits)[:128],
        _get(game, "options", dict, "game."),
        _text(game, "timezone", "game.", limits)[:64],
        _get(game, "gm_user_id", int, "game."),
        tuple(_members(_list(data, "members", limits.max_members))),
        tuple(_schedule(s, i) for i, s in enumerate(
            _list(data, "schedules", limits.max_schedules))),
        tuple(ledger),
        log,
        _get(game, "trusted", bool, "game.") if "trusted" in game else False,
        _data(game, limits),
    )  # fmt: skip
    return ImportFile(
        "game", reader.system, file_hash, tuple(characters), imported, report,
        tuple(reader.problems), log_digest,
    )  # fmt: skip


def _data(game: dict[str, Any], limits: TransferLimits) -> dict[str, Any]:
    """The game's named documents: short keys, few of them (each system reads its own value
    defensively, as it does a stored one)."""
    if "data" not in game:
        return {}
    data: dict[str, Any] = _get(game, "data", dict, "game.")
    if len(data) > limits.max_data_keys:
        limit = limits.max_data_keys
        raise TransferError(Msg("transfer.too_many", {"part": _part("data"), "limit": limit}))
    for key in data:
        if not 0 < len(key) <= 64:
            raise _bad("game.data", Msg("transfer.expect.max_chars", {"limit": 64}))
    return data


def _members(items: list[Any]) -> list[tuple[int, str]]:
    members = []
    for i, item in enumerate(items):
        where = f"members[{i}]."
        if not isinstance(item, dict):
            raise _bad(where[:-1], Msg("transfer.expect.object"))
        role = _get(item, "role", str, where)
        if role not in (*MEMBER_ROLES, "gm"):
            raise _bad(f"{where}role", _one_of(("gm", *MEMBER_ROLES)))
        members.append((_get(item, "user_id", int, where), role))
    return members


def _schedule(item: Any, index: int) -> dict[str, Any]:
    where = f"schedules[{index}]."
    if not isinstance(item, dict):
        raise _bad(where[:-1], Msg("transfer.expect.object"))
    weekday = item.get("weekday")
    if weekday is not None and (not isinstance(weekday, int) or not 0 <= weekday <= 6):
        raise _bad(f"{where}weekday", _range(0, 6))
    minute = _get(item, "minute_of_day", int, where)
    if not 0 <= minute < 24 * 60:
        raise _bad(f"{where}minute_of_day", _range(0, 1439))
    remind = item.get("remind_minutes")
    if remind is not None and (not isinstance(remind, int) or not 1 <= remind <= 1440):
        raise _bad(f"{where}remind_minutes", _range(1, 1440))
    grace = _get(item, "grace_hours", int, where)
    if not 0 <= grace <= 168:
        raise _bad(f"{where}grace_hours", _range(0, 168))
    return {
        "kind": _get(item, "kind", str, where)[:32], "weekday": weekday, "minute_of_day": minute,
        "remind_minutes": remind, "grace_hours": grace,
        "enabled": bool(_get(item, "enabled", bool, where)),
    }  # fmt: skip


def _roll_log(
    raw: Any, limits: VerifyLimits, problems: list[Msg]
) -> tuple[dict[str, Any] | None, VerifyReport | None, FileDigest | None]:
    """The file's roll log, verified as ``python -m engine.verify`` would (its own seeds only):
    a broken chain or a forged hash is a problem of the file."""
    if raw is None:
        return None, None, None
    log = export_from_json(raw)  # LogFormatError (an EngineError) names the bad part
    report = verify_export(log, {}, limits=limits)
    if report.problems:
        problems.append(Msg("transfer.log_bad", {"problem": report.problems[0].msg}))
    return raw, report, digest(log, report)
