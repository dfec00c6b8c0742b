"""Translatable messages produced by the engine.

The engine cannot use the bot's gettext catalogs (it imports no framework and is usable on its
own), so every system registers its user-facing texts here, keyed by a dotted message key, in
Russian and English. A ``Msg`` is a key plus JSON-safe parameters; rendering happens at the edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, TypeAlias

ParamValue: TypeAlias = (
    "str | int | float | Msg"  # a nested ``Msg`` is rendered in the same locale
)
LOCALES: Final = ("ru", "en")
FALLBACK_LOCALE: Final = "en"

_CATALOG: dict[str, dict[str, str]] = {}


def register_messages(messages: Mapping[str, Mapping[str, str]]) -> None:
    """Register ``{key: {"ru": template, "en": template}}``; templates use ``str.format``.

    Registering the same key twice with different text is a programming error.
    """
    for key, texts in messages.items():
        missing = [loc for loc in LOCALES if loc not in texts]
        if missing:
            raise ValueError(f"message {key!r} lacks locales {missing}")
        known = _CATALOG.get(key)
        if known is not None and known != dict(texts):
            raise ValueError(f"message {key!r} registered twice with different text")
        _CATALOG[key] = dict(texts)


def has_message(key: str) -> bool:
    return key in _CATALOG


def template(key: str, locale: str) -> str | None:
    """The registered template of ``key`` in ``locale`` (None: no such message)."""
    texts = _CATALOG.get(key)
    return None if texts is None else texts.get(locale)


@dataclass(frozen=True)
class Msg:
    """A message key with parameters; ``render`` picks the locale's template."""

    key: str
    params: Mapping[str, ParamValue] = field(default_factory=dict)

    def render(self, locale: str) -> str:
        texts = _CATALOG.get(self.key)
        if texts is None:
            return self.key
        template = texts.get(locale) or texts[FALLBACK_LOCALE]
        params = {k: v.render(locale) if isinstance(v, Msg) else v for k, v in self.params.items()}
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items()))))


def msg(key: str, **params: ParamValue) -> Msg:
    return Msg(key, params)
