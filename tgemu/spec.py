"""Every call checked against the pinned Bot API specification (``tgemu/botapi/``).

The emulator's methods implement Telegram's behaviour; this module checks the call's shape
before any of them runs, the way the documentation states it: the method exists; every
parameter is one the method has; the required ones are present; each value has one of the
parameter's types, through arrays, nested objects, unions (``Integer or String``) and abstract
types (``BotCommandScope``: one of its subtypes); and the limits the descriptions state —
lengths ("1-256 characters", "1-64 bytes"), counts ("1-100 identifiers", "At most 100
commands"), integer ranges ("Values between 1-100") and value lists ('must be one of "a",
"b"', 'always "x"', "must be article") — are parsed from the description strings, with a
small table (``EXPLICIT_VALUES``) for the lists the descriptions only point at (parse modes,
chat actions, update types).

Lenient only where Telegram's server is: a top-level parameter may be a string whatever its
type — the server reads every top-level parameter as text (a form body's only kind; a JSON
body's top level is flattened the same way), so ``"42"`` is an Integer, ``"true"`` a Boolean
and a JSON-serialized string an object there. Inside nested objects types are strict.
Limits stated "after entities parsing" are checked by the methods on the parsed text
(``tgemu/validation.py``); their refusals are deviations too (``LIMIT_REFUSALS``).

Deliberately stricter than Telegram: an unknown parameter or nested field is refused (the
server ignores it silently — which is how a misspelt or removed parameter goes unnoticed).
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import web

SPEC_FILE = Path(__file__).with_name("botapi") / "api-10.1.min.json"
SPEC_VERSION = "Bot API 10.1"

# aiogram 3.31 speaks Bot API 10.3; the newest published spec is 10.1. What aiogram can send
# that 10.1 lacks is accepted here without a type check (the spec gives none to check against).
# Deprecated parameters aiogram still has (disable_web_page_preview, reply_to_message_id,
# allow_sending_without_reply on send methods, switch_pm_*, …) are *not* listed: they are
# gone from the specification and a call that sends them is a deviation.
_EPHEMERAL = frozenset({"ephemeral_message_parameters", "receiver_user_id", "callback_query_id"})
_SEND_METHODS = (
    "sendMessage", "sendPhoto", "sendLivePhoto", "sendAudio", "sendDocument", "sendVideo",
    "sendAnimation", "sendVoice", "sendVideoNote", "sendLocation", "sendVenue", "sendContact",
    "sendSticker",
)  # fmt: skip
NEWER_THAN_PIN: dict[str, frozenset[str]] = {
    **{name: _EPHEMERAL for name in _SEND_METHODS},  # Bot API 10.2/10.3: ephemeral messages
    "sendRichMessage": frozenset({"ephemeral_message_parameters"}),
    "sendMessageDraft": frozenset({"can_stop", "keep_on_stop"}),
    "sendRichMessageDraft": frozenset({"can_stop", "keep_on_stop"}),
    "promoteChatMember": frozenset({"can_send_welcome_messages"}),
    "ChatAdministratorRights": frozenset({"can_send_welcome_messages"}),
    "BotCommand": frozenset({"is_ephemeral"}),
    "InlineKeyboardButton": frozenset({"disabled"}),
    "InlineKeyboardMarkup": frozenset({"force_reply"}),
    "ReplyKeyboardMarkup": frozenset({"force_reply"}),
    "ReplyParameters": frozenset({"ephemeral_message_id"}),
    "RichBlockTable": frozenset({"is_compact"}),
    "InputRichMessage": frozenset({"blocks", "media"}),
}
NEWER_METHODS = frozenset(
    {
        "deleteEphemeralMessage", "editEphemeralMessageText", "editEphemeralMessageCaption",
        "editEphemeralMessageMedia", "editEphemeralMessageReplyMarkup",
    }
)  # fmt: skip
NEWER_UPDATE_TYPES = frozenset({"subscription", "stopped_message_generation"})

# Value lists the descriptions point at instead of stating ("See formatting options").
CHAT_ACTIONS = frozenset(
    {
        "typing", "upload_photo", "record_video", "upload_video", "record_voice",
        "upload_voice", "upload_document", "choose_sticker", "find_location",
        "record_video_note", "upload_video_note",
    }
)  # fmt: skip
# Telegram compares parse modes case-insensitively, and an empty one means none.
PARSE_MODES = frozenset({"html", "markdownv2", "markdown", ""})
EXPLICIT_VALUES: dict[tuple[str, str], frozenset[str]] = {
    ("sendChatAction", "action"): CHAT_ACTIONS,
}

# Refusals of the emulator's methods that enforce a limit the specification states ("1-4096
# characters after entities parsing", "1-64 bytes", well-formed entities): only a bot bug
# causes them, so they count as deviations too.
LIMIT_REFUSALS = (
    "BUTTON_DATA_INVALID", "can't parse entities", "message is too long", "text is empty",
    "caption is too long", "MESSAGE_TOO_LONG", "reply markup is too long",
    "RESULTS_TOO_MUCH", "RESULT_ID_DUPLICATE", "RESULT_ID_INVALID",  # "No more than 50", "Unique"
)  # fmt: skip

_PARSED = frozenset({"text", "caption", "message_text"})
_LENGTH = re.compile(r"(\d+)-(\d+) (characters|bytes)( after entit(?:y|ies) parsing)?", re.I)
_INT_RANGE = re.compile(r"(?<![\w.])(\d+)-(\d+)(?![\w-])|[Mm]ust be between (\d+) and (\d+)")
_COUNT = re.compile(
    r"(?<![\w.])(\d+)-(\d+) (?!characters|bytes)|up to (\d+) (?!characters|bytes)"
    r"|[Aa]t most (\d+)|[Nn]o more than (\d+)"
)
_VALUES = re.compile(
    r"(?:must be|always|one of|can be(?: either)?)\s+(?:one of\s+)?(?=[\"“])", re.I
)
_QUOTED = re.compile(r"[\"“]([^\"”]*)[\"”]")
_BARE_VALUE = re.compile(r", must be ([a-z_0-9]+)$")
_SENTENCE_END = re.compile(r"\.(?:\s|$)")
_INT_TEXT = re.compile(r"-?\d+")
_TRUE = frozenset({"true", "1"})
_BOOLS = frozenset({"true", "false", "1", "0"})


class _File:
    """A multipart file part standing for an InputFile parameter."""

    def __repr__(self) -> str:
        return "<file>"


FILE = _File()


@dataclass(frozen=True)
class FieldSpec:
    name: str
    types: tuple[str, ...]
    required: bool
    length: tuple[int, int, str] | None = None  # (low, high, "characters" | "bytes")
    int_range: tuple[int, int] | None = None
    count: tuple[int, int] | None = None
    values: frozenset[str] | None = None
    fold_case: bool = False


@dataclass(frozen=True)
class ObjectSpec:
    name: str
    fields: dict[str, FieldSpec]
    subtypes: tuple[str, ...] = ()
    newer: frozenset[str] = frozenset()

    required: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "required", tuple(f.name for f in self.fields.values() if f.required)
        )


@dataclass
class Deviation:
    """A call that the specification (or a limit it states) does not allow."""

    method: str
    problem: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.method}: {self.problem}"


class DeviationLog:
    """One emulator's deviations. Every log is listed in ``ALL_LOGS`` while it lives, so a
    test suite can fail on any (``tests/conftest.py``) whichever emulator saw it."""

    def __init__(self) -> None:
        self.items: list[Deviation] = []
        ALL_LOGS.add(self)

    def add(self, deviation: Deviation) -> None:
        self.items.append(deviation)

    def take(self) -> list[Deviation]:
        """The deviations so far, forgotten here (a test that provokes one takes it)."""
        taken, self.items = self.items, []
        return taken


ALL_LOGS: weakref.WeakSet[DeviationLog] = weakref.WeakSet()


class SpecError(Exception):
    """``problem`` says what deviates; ``answer`` is what Telegram answers (its own words
    where it has them for the case, ``TELEGRAM_WORDING``)."""

    def __init__(self, problem: str, answer: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.answer = answer or problem


# How Telegram words the refusal of a limit it states (the emulator's methods answer the same).
TELEGRAM_WORDING: dict[tuple[str, str], str] = {
    ("InlineKeyboardButton", "callback_data"): "BUTTON_DATA_INVALID",
    ("answerCallbackQuery", "text"): "MESSAGE_TOO_LONG",
    ("BotCommand", "command"): "BOT_COMMAND_INVALID",
    ("BotCommand", "description"): "BOT_COMMAND_DESCRIPTION_INVALID",
    ("setMyCommands", "commands"): "too many commands specified",
}

# What Telegram answers when a required parameter is absent (it reads most as empty text).
MISSING_WORDING = {"chat_id": "chat_id is empty", "text": "message text is empty"}


def _wording(owner: str, name: str) -> str | None:
    if owner.startswith("InlineQueryResult") and name == "id":
        return "RESULT_ID_INVALID"
    return TELEGRAM_WORDING.get((owner, name))


def _field(owner: str, raw: Mapping[str, Any], siblings: set[str]) -> FieldSpec:
    name: str = raw["name"]
    types = tuple(raw["types"])
    desc: str = raw.get("description", "")
    length = int_range = count = None
    values: frozenset[str] | None = None
    fold_case = False
    if "String" in types:
        m = _LENGTH.search(desc)
        # "after entities parsing", or a text beside a parse_mode (InputTextMessageContent
        # does not say it): the method checks the parsed text
        parsed = m and (m.group(4) or ("parse_mode" in siblings and name in _PARSED))
        if m and not parsed:
            length = (int(m.group(1)), int(m.group(2)), m.group(3).lower())
        values = _values(desc)
    if types == ("Integer",):
        m = _INT_RANGE.search(desc)
        if m:
            low, high = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            int_range = (int(low), int(high))
    if any(t.startswith("Array of") for t in types):
        m = _COUNT.search(desc)
        if m:
            groups = m.groups()
            if groups[0]:
                count = (int(groups[0]), int(groups[1]))
            else:
                count = (0, int(next(g for g in groups[2:] if g)))
    if name == "parse_mode" or name.endswith("_parse_mode"):
        values, fold_case = PARSE_MODES, True
    if (owner, name) in EXPLICIT_VALUES:
        values = EXPLICIT_VALUES[(owner, name)]
    return FieldSpec(name, types, bool(raw.get("required")), length, int_range, count, values,
                     fold_case)  # fmt: skip


def _fields(owner: str, raw: Mapping[str, Any]) -> dict[str, FieldSpec]:
    siblings = {f["name"] for f in raw.get("fields", [])}
    return {f["name"]: _field(owner, f, siblings) for f in raw.get("fields", [])}


def _values(desc: str) -> frozenset[str] | None:
    m = _VALUES.search(desc)
    if m:
        end = _SENTENCE_END.search(desc, m.end())
        clause = desc[m.end() : end.start() if end else len(desc)]
        found = _QUOTED.findall(clause)
        return frozenset(found) if found else None
    bare = _BARE_VALUE.search(desc)
    return frozenset({bare.group(1)}) if bare else None


class BotApiSpec:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.version: str = data["version"]
        self.methods: dict[str, ObjectSpec] = {}
        self.method_names: dict[str, str] = {}
        for name, raw in data["methods"].items():
            fields = _fields(name, raw)
            self.methods[name] = ObjectSpec(
                name, fields, newer=NEWER_THAN_PIN.get(name, frozenset())
            )
            self.method_names[name.lower()] = name
        for name in NEWER_METHODS:
            self.method_names.setdefault(name.lower(), name)
        self.types: dict[str, ObjectSpec] = {}
        for name, raw in data["types"].items():
            fields = _fields(name, raw)
            subtypes = tuple(raw.get("subtypes", ()))
            self.types[name] = ObjectSpec(
                name, fields, subtypes, newer=NEWER_THAN_PIN.get(name, frozenset())
            )
        update = self.types["Update"]
        self.update_types = frozenset(f for f in update.fields if f != "update_id")
        self.update_types |= NEWER_UPDATE_TYPES

    # the call ----------------------------------------------------------------------
    def method_name(self, name: str) -> str | None:
        """Telegram's spelling of ``name`` (method names match case-insensitively)."""
        return self.method_names.get(name.lower())

    def check_call(
        self,
        method: str,
        params: Mapping[str, Any],
        parts: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        """Raise ``SpecError`` at the call's first deviation. ``params`` are as received: a
        form's text, a JSON body's values, ``FILE`` for an uploaded part; ``parts`` the file
        parts no parameter names (one named after a parameter is that parameter)."""
        name = self.method_name(method)
        if name is None:
            raise SpecError(f'unknown method "{method}"')
        spec = self.methods.get(name)
        if spec is None:  # newer than the pin (NEWER_THAN_PIN): nothing to check against
            return
        named = {part: FILE for part in parts if part in spec.fields and part not in params}
        if named:
            params = {**params, **named}
        for key, value in params.items():
            fspec = spec.fields.get(key)
            if fspec is None:
                if key in spec.newer:
                    continue
                raise SpecError(f'unknown parameter "{key}"')
            self._check_value(name, fspec, value, key, top=True)
        missing = [key for key in spec.required if key not in params]
        if missing:
            raise SpecError(
                f'required parameter "{missing[0]}" is missing',
                MISSING_WORDING.get(missing[0], f'parameter "{missing[0]}" is required'),
            )

    # values ------------------------------------------------------------------------
    def _check_value(
        self, owner: str, fspec: FieldSpec, value: Any, path: str, *, top: bool
    ) -> None:
        value = self._check_types(fspec.types, value, path, top=top)
        self._check_limits(owner, fspec, value, path)

    def _check_limits(self, owner: str, fspec: FieldSpec, value: Any, path: str) -> None:
        if isinstance(value, str):
            if fspec.values is not None:
                probe = value.lower() if fspec.fold_case else value
                if probe not in fspec.values:
                    raise SpecError(f'field "{path}" has unsupported value "{value}"')
            if fspec.length is not None:
                low, high, unit = fspec.length
                size = len(value.encode("utf-8")) if unit == "bytes" else len(value)
                if not low <= size <= high:
                    raise SpecError(
                        f'field "{path}" must be {low}-{high} {unit} long, not {size}',
                        _wording(owner, fspec.name),
                    )
        elif isinstance(value, int) and not isinstance(value, bool) and fspec.int_range:
            low, high = fspec.int_range
            if not low <= value <= high:
                raise SpecError(f'field "{path}" must be between {low} and {high}, not {value}')
        elif isinstance(value, list) and fspec.count is not None:
            low, high = fspec.count
            if not low <= len(value) <= high:
                raise SpecError(
                    f'field "{path}" must have {low}-{high} items, not {len(value)}',
                    _wording(owner, fspec.name),
                )
        if (owner, fspec.name) in (
            ("getUpdates", "allowed_updates"),
            ("setWebhook", "allowed_updates"),
        ):
            for i, item in enumerate(value if isinstance(value, list) else ()):
                if item not in self.update_types:
                    raise SpecError(f'field "{path}[{i}]" has unknown update type "{item}"')

    def _check_types(self, types: tuple[str, ...], value: Any, path: str, *, top: bool) -> Any:
        """The value as parsed (a top-level text read as its type); raises on no match."""
        errors: list[tuple[int, SpecError]] = []
        for type_name in types:
            try:
                return self._check_type(type_name, value, path, top=top)
            except SpecError as exc:
                errors.append((self._affinity(type_name, value), exc))
        if len(types) > 1 and not any(score > 0 for score, _ in errors):
            raise SpecError(f'field "{path}" must be of type {" or ".join(types)}')
        raise max(errors, key=lambda e: e[0])[1]

    def _affinity(self, type_name: str, value: Any) -> int:
        """How much ``value`` looks like a ``type_name``: picks the error worth reporting."""
        if isinstance(value, str) and value[:1] in ("{", "["):  # a top-level JSON text
            try:
                value = json.loads(value)
            except ValueError:
                return 0
        if isinstance(value, dict) and type_name in self.types:
            spec = self.types[type_name]
            known = sum(1 for key in value if key in spec.fields)
            names = self._concrete(type_name)
            return known + (10 if any(self._discriminated(n, value) for n in names) else 0)
        if isinstance(value, list) and type_name.startswith("Array of"):
            return 1
        return 0

    def _concrete(self, type_name: str) -> list[str]:
        spec = self.types.get(type_name)
        if spec is None or not spec.subtypes:
            return [type_name]
        return [n for sub in spec.subtypes for n in self._concrete(sub)]

    def _discriminated(self, type_name: str, value: Mapping[str, Any]) -> bool:
        spec = self.types.get(type_name)
        if spec is None:
            return False
        for key in ("type", "source", "status"):
            fspec = spec.fields.get(key)
            if fspec and fspec.values and value.get(key) in fspec.values:
                return True
        return False

    def _check_type(self, type_name: str, value: Any, path: str, *, top: bool) -> Any:
        wrong = _Wrong(path, type_name)
        if type_name.startswith("Array of "):
            if top and isinstance(value, str):
                value = _json(value, wrong)
            if not isinstance(value, list):
                raise wrong.error()
            inner = type_name[len("Array of ") :]
            for i, item in enumerate(value):
                self._check_type(inner, item, f"{path}[{i}]", top=False)
            return value
        if type_name == "InputFile":
            if value is FILE:
                return value
            raise wrong.error()
        if value is FILE:
            raise wrong.error()
        if type_name == "String":
            if isinstance(value, str):
                return value
            raise wrong.error()
        if type_name == "Integer":
            if top and isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
                return int(value)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            raise wrong.error()
        if type_name == "Float":
            if top and isinstance(value, str):
                try:
                    return float(value)
                except ValueError:
                    raise wrong.error() from None
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return value
            raise wrong.error()
        if type_name in ("Boolean", "True"):
            if top and isinstance(value, str) and value.lower() in _BOOLS:
                value = value.lower() in _TRUE
            if not isinstance(value, bool) or (type_name == "True" and value is not True):
                raise wrong.error()
            return value
        if type_name not in self.types:
            raise SpecError(f'field "{path}" has a type the specification lacks: {type_name}')
        if top and isinstance(value, str):
            value = _json(value, wrong)
        if not isinstance(value, dict):
            raise wrong.error()
        self._check_object(type_name, value, path)
        return value

    def _check_object(self, type_name: str, value: dict[str, Any], path: str) -> None:
        spec = self.types[type_name]
        if spec.subtypes:
            self._check_types(spec.subtypes, value, path, top=False)
            return
        for key, item in value.items():
            fspec = spec.fields.get(key)
            if fspec is None:
                if key in spec.newer:
                    continue
                raise SpecError(f'field "{path}" of type {type_name} has no field "{key}"')
            self._check_value(type_name, fspec, item, f"{path}.{key}", top=False)
        missing = [key for key in spec.required if key not in value]
        if missing:
            raise SpecError(f'field "{path}" of type {type_name} lacks "{missing[0]}"')


class _Wrong:
    """A type mismatch, made into an error only when raised (most checks pass)."""

    __slots__ = ("path", "type_name")

    def __init__(self, path: str, type_name: str) -> None:
        self.path, self.type_name = path, type_name

    def error(self) -> SpecError:
        return SpecError(f'field "{self.path}" must be of type {self.type_name}')


def _json(text: str, wrong: _Wrong) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise wrong.error() from None


@cache
def load_spec() -> BotApiSpec:
    return BotApiSpec(json.loads(SPEC_FILE.read_text(encoding="utf-8")))


async def received_params(request: web.Request) -> tuple[dict[str, Any], set[str]]:
    """The call's parameters as they came (before the emulator's decoding): query string and
    form values as text, a JSON body's values as they are, a file part as ``FILE`` where
    ``attach://<part>`` names it; and the names of the file parts nothing names (a part named
    after a parameter is that parameter; aiogram uploads under random part names)."""
    params: dict[str, Any] = dict(request.query.items())
    # (``can_read_body`` is false once the emulator read it: both readers below are cached)
    if request.content_type == "application/json":
        body = await request.json()
        if isinstance(body, dict):
            params.update(body)
        return params, set()
    form = await request.post()
    parts = {k for k, v in form.items() if isinstance(v, web.FileField)}
    attached: set[str] = set()
    for key, value in form.items():
        if isinstance(value, web.FileField):
            continue
        if isinstance(value, str) and value.startswith("attach://"):
            part = value[len("attach://") :]
            if part in parts:
                attached.add(part)
                params[key] = FILE
                continue
        params[key] = value
    return params, parts - attached


def limit_refusal(description: str) -> bool:
    return any(marker in description for marker in LIMIT_REFUSALS)
