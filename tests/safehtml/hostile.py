"""Hostile values for any view argument, derived from its type: every string a user could
have typed (tags, ``&``, ``<``, right-to-left and zero-width marks, 64-character names), every
list up to 80 items. ``Mode.WORST`` is the largest case only: 64-character names, 80-item lists.

Values are derived from type hints (dataclasses, pydantic models, enums, containers), with
the few fields whose strings are codes rather than text (a system id, a status, a locale)
drawn from what the database or the registry allows — a view may index a table with those.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from html import escape
from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from bot.i18n import I18n, Translator
from bot.services.games import GameOption, option_fields
from bot.services.milestones import KIND_TITLES
from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.systems.storyteller.health import DamageKind
from engine.text import Msg, register_messages

# A message of the engine's own (``Msg``) carrying hostile text: a leaf (a ``Msg`` may hold
# another, and deriving that type by its hints recursed without end).
register_messages({"test.hostile": {"ru": "{value}", "en": "{value}"}})

# What users type that Telegram HTML cares about, and what makes text hard to measure.
PIECES = (
    "<b>", "</b>", "<i>", "<script>", "</", "<", ">", "&", "&amp;", "&foo;", "&#0;", '"', "'",
    "\u202e", "\u200f", "\u2066", "\u200b", "\u200d", "\ufeff", "Ж", "ё", "🎲", "👨‍👩‍👧", "{n}",
    "{name}", "%s", "\n", " ", "\t", "a", "1", "—",
)  # fmt: skip
NAME_MAX = 64
LIST_MAX = 80


def _long(seed: str) -> str:
    return (seed * NAME_MAX)[:NAME_MAX]


LONG_NAMES = (
    _long("<b>&Ж\u202e"),
    _long("&lt;<i>🎲\u200b"),
    _long("Жжжжжжжжжж "),
    _long("</b>&foo;\u2066"),
)

# Names and texts are stored stripped and non-empty (every input goes through clean_text).
hostile_text = (
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), min_size=1, max_size=24)
    .map(lambda parts: "".join(parts)[:NAME_MAX].strip())
    .filter(bool)
)


class Mode(enum.Enum):
    ANY = "any"  # hypothesis explores: short and long strings, lists of 0 to 80 items
    WORST = "worst"  # 64-character names everywhere, 80 items in every top-level list


_I18N = I18n("ru")
TRANSLATORS = (_I18N.translator("ru"), _I18N.translator("en"))

# One rule system (and one of its milestone kinds) per example, shared by every argument:
# a view given a fate game and a storyteller sheet would be testing nothing real.
_SYSTEM_KIND = st.shared(st.sampled_from(sorted(KIND_TITLES)), key="system-kind")
SYSTEM = _SYSTEM_KIND.map(lambda pair: pair[0])
KIND = _SYSTEM_KIND.map(lambda pair: pair[1])
HEX = st.text("0123456789abcdef", min_size=64, max_size=64)

_CODES: dict[str, st.SearchStrategy[Any]] = {
    "system": SYSTEM,
    "hash": HEX,
    "commitment": HEX,
    "prev_hash": HEX,
    "locale": st.sampled_from(["ru", "en"]),
    "timezone": st.sampled_from(["UTC", "Europe/Moscow", "Asia/Vladivostok"]),
    "zone": st.sampled_from(["UTC", "Europe/Moscow"]),
    "current": st.sampled_from(["ru", "en"]),
}

_WORD = st.sampled_from(PIECES + LONG_NAMES)
_DIFF = st.fixed_dictionaries({"path": _WORD, "before": _WORD | st.integers(), "after": _WORD})

# (owner type name, field) -> strategy, for strings that are codes of one table
FIELD_CODES: dict[tuple[str, str], st.SearchStrategy[Any]] = {
    ("Plan", "kind"): KIND,
    ("ScheduleDTO", "kind"): KIND,
    ("", "kind"): KIND,  # a view's own parameter: the milestone kind
    ("VersionDTO", "kind"): st.sampled_from(["create", "approve", "return", "edit"]),
    ("VersionDTO", "diff"): st.lists(_DIFF, max_size=8),
    ("LedgerDTO", "diff"): st.lists(_DIFF, max_size=8),
    # /history's change: a version's kind or a ledger entry's (bot/services/characters.py)
    ("Change", "kind"): st.sampled_from(["create", "edit", "fate.fp.gain", "milestone.minor"]),
    ("Change", "diff"): st.lists(_DIFF, max_size=8),
    # a stored sheet, as a new character of the game's system (views read its name, if at all)
    ("CharacterDTO", "sheet"): st.tuples(SYSTEM, _WORD).map(
        lambda pair: SYSTEMS[pair[0]].new_character(pair[1]).model_dump(mode="json")
    ),
    ("LedgerDTO", "sheet_before"): st.just({}),
    ("LedgerDTO", "sheet_after"): st.just({}),
    ("Applied", "batch"): st.none() | st.text("0123456789abcdef", min_size=16, max_size=16),
    ("HealthTrack", "boxes"): st.lists(st.sampled_from(list(DamageKind)), max_size=7).map(tuple),
    # a difficulty or target as /request accepts it (the engine refuses others)
    ("RequestDTO", "target_number"): st.none() | st.integers(2, 10),
    ("RequestDTO", "deadline"): st.datetimes(
        min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)
    ),  # views that show it are only called for requests with one
    ("CharacterDTO", "status"): st.sampled_from(["pending", "active", "returned", "retired"]),
    ("MemberDTO", "role"): st.sampled_from(["gm", "cogm", "player"]),
    # a row without the system's own words names itself by one of our msgids
    ("OddsRow", "key"): st.just("at least {n}"),
    ("OddsRow", "params"): st.fixed_dictionaries({"n": st.integers(-(10**6), 10**6)}),
}


_ANY_OPTION = tuple(o for s in sorted(SYSTEMS) for o in option_fields(s))


class Unsupported(TypeError):
    """No hostile values can be derived for this type (the caller decides what to do)."""


def for_type(
    tp: Any, mode: Mode, *, name: str = "", owner: str = "", depth: int = 0
) -> st.SearchStrategy[Any]:
    """Values of ``tp`` (a parameter or field called ``name`` of ``owner``)."""
    if (owner, name) in FIELD_CODES:
        return FIELD_CODES[(owner, name)]
    if name in _CODES and tp in (str, typing.Any):
        return _CODES[name]
    if name.endswith("html") and tp is str:  # HTML the caller made: hostile text inside
        return for_type(str, mode).map(lambda text: f"<b>{escape(text, quote=False)}</b>")
    if tp is SheetModel:
        return SYSTEM.flatmap(lambda s: _model(SYSTEMS[s].character_type, mode, depth))
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        inner = st.one_of(
            [for_type(a, mode, name=name, owner=owner, depth=depth) for a in options]
        )
        return inner if len(options) == len(args) else st.none() | inner
    if origin is typing.Annotated:
        return for_type(args[0], mode, name=name, owner=owner, depth=depth)
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (list, Sequence, tuple, set, frozenset) or tp in (list, tuple):
        item = args[0] if args else str
        if origin is tuple and len(args) > 1 and args[1] is not Ellipsis:
            return st.tuples(*(for_type(a, mode, name=name, depth=depth + 1) for a in args))
        elements = for_type(item, mode, name=name, owner=owner, depth=depth + 1)
        if mode is Mode.WORST:  # 80 of what a view lists; what each item holds stays small
            size = LIST_MAX if depth == 0 else 1
            many = st.lists(elements, min_size=size, max_size=size)
        else:
            many = st.lists(elements, max_size=LIST_MAX if depth == 0 else 3)
        if origin in (set, frozenset):
            return many.map(lambda xs: origin(_hashable(xs)))
        return many.map(tuple) if origin is tuple else many
    if origin in (dict, Mapping) or tp is dict:
        key, value = args if args else (str, str)
        keys = for_type(key, mode, name=name, owner=owner, depth=depth + 1)
        values = for_type(value, mode, name=name, owner=owner, depth=depth + 1)
        return st.dictionaries(keys, values, max_size=3 if depth == 0 else 1)
    if tp is str:
        return st.sampled_from(LONG_NAMES) if mode is Mode.WORST else hostile_text
    if tp is bool:
        return st.booleans()
    if tp is bytes:
        return st.binary(min_size=32, max_size=32)
    if tp is int:
        return st.integers(0, 10**9) if "id" in name else st.integers(-3, 12)
    if tp is float:
        return st.floats(0, 1000, allow_nan=False)
    if tp is Fraction:
        return st.fractions(0, 1, max_denominator=10**6)
    if tp is datetime:
        return st.datetimes(
            min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)
        )
    if tp is Translator:
        return st.sampled_from(TRANSLATORS)
    if tp is Msg:
        text = st.sampled_from(LONG_NAMES) if mode is Mode.WORST else hostile_text
        return text.map(lambda value: Msg("test.hostile", {"value": value}))
    if tp is GameOption:  # the registry's own table, not text
        return SYSTEM.flatmap(lambda s: st.sampled_from(option_fields(s) or _ANY_OPTION))
    if tp is typing.Any or tp is object:
        return st.sampled_from(LONG_NAMES) if mode is Mode.WORST else hostile_text
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return st.sampled_from(list(tp))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass(tp, mode, depth)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return _model(tp, mode, depth)
    raise Unsupported(f"{tp!r} ({owner}.{name})")


def _hashable(values: list[Any]) -> list[Any]:
    return [v for v in values if isinstance(v, typing.Hashable)]


def _hints(tp: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(tp, include_extras=True)
    except NameError as error:  # a name imported only for type checkers
        raise Unsupported(f"{tp!r}: {error}") from None


def _dataclass(tp: type[Any], mode: Mode, depth: int) -> st.SearchStrategy[Any]:
    hints = _hints(tp)
    fields = {
        f.name: for_type(hints[f.name], mode, name=f.name, owner=tp.__name__, depth=depth)
        for f in dataclasses.fields(tp)
        if f.init
    }
    return st.builds(tp, **fields)


def _model(tp: type[BaseModel], mode: Mode, depth: int) -> st.SearchStrategy[Any]:
    hints = _hints(tp)
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for field_name, info in tp.model_fields.items():
        strategy = for_type(
            hints.get(field_name, info.annotation), mode, name=field_name, owner=tp.__name__,
            depth=depth,
        )  # fmt: skip
        fields[field_name] = strategy if info.is_required() else st.just(...) | strategy

    @st.composite
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> Any:
        data = {k: v for k, s in fields.items() if (v := draw(s)) is not ...}
        try:
            return tp.model_validate(data)
        except ValidationError:
            # a field the model constrains (a range, a pattern): keep its default instead
            valid = {k: v for k, v in data.items() if _accepts(tp, k, v)}
            try:
                return tp.model_validate(valid)
            except ValidationError:
                from hypothesis import reject

                reject()

    return build()


def _accepts(tp: type[BaseModel], field: str, value: Any) -> bool:
    try:
        tp.__pydantic_validator__.validate_assignment(tp.model_construct(), field, value)
    except (ValidationError, TypeError, ValueError, AttributeError):
        return False
    return True
