"""Every view function of ``handlers/views`` and the check of what it renders."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from collections.abc import Callable, Mapping
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from hypothesis import strategies as st

import handlers.views
from tests.safehtml.hostile import Mode, Unsupported, for_type
from tgemu.html import HtmlParseError, parse_html, strip_text
from tgemu.validation import MAX_CALLBACK_DATA_BYTES, MAX_INLINE_BUTTONS, MAX_TEXT

View = Callable[..., Any]


def all_views() -> dict[str, View]:
    """``module.function`` -> function, for every public function defined in handlers/views."""
    found: dict[str, View] = {}
    package = handlers.views
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(value):
                continue
            if value.__module__ == module.__name__:
                found[f"{info.name.removeprefix('handlers.views.')}.{name}"] = value
    return found


Override = Callable[[Mode], st.SearchStrategy[Any]]


def arguments(
    view: View, mode: Mode, overrides: Mapping[str, Override] | None = None
) -> st.SearchStrategy[dict[str, Any]]:
    """Hostile keyword arguments for ``view`` (its defaults are drawn too); ``overrides``
    gives some parameters by name (HTML the caller made, a code, a page)."""
    try:
        hints = typing.get_type_hints(view, include_extras=True)
    except NameError as error:
        raise Unsupported(f"{view.__qualname__}: {error}") from None
    strategies: dict[str, st.SearchStrategy[Any]] = {}
    for name, param in inspect.signature(view).parameters.items():
        if overrides and name in overrides:
            strategies[name] = overrides[name](mode)
            continue
        strategy = for_type(hints.get(name, Any), mode, name=name)
        if param.default is not inspect.Parameter.empty and name in ("limit", "width"):
            continue  # a size the caller chooses: its default is what messages use
        strategies[name] = strategy
    return st.fixed_dictionaries(strategies)


def derivable(view: View, overrides: Mapping[str, Override] | None = None) -> str | None:
    """None when hostile arguments can be derived for ``view``, else why not."""
    if inspect.iscoroutinefunction(view):
        return "a coroutine (edits a message or reads the database)"
    try:
        arguments(view, Mode.ANY, overrides)
    except Unsupported as error:
        return f"no hostile value for {error}"
    return None


def check_rendered(value: Any) -> None:
    """What a view returned obeys Telegram's rules: HTML that parses (tags known and
    balanced, no bare ``<`` or ``&``), at most 4,096 characters shown; keyboards with callback
    data of at most 64 bytes, button texts present, at most 100 buttons."""
    if isinstance(value, str):
        check_html(value)
    elif isinstance(value, InlineKeyboardMarkup):
        check_keyboard(value)
    elif isinstance(value, InlineKeyboardButton):
        check_button(value)
    elif isinstance(value, list | tuple):
        for item in value:
            check_rendered(item)


def check_html(html: str, *, limit: int | None = MAX_TEXT) -> None:
    try:
        text, entities = parse_html(html)
    except HtmlParseError as error:
        raise AssertionError(f"not Telegram HTML ({error}): {html[:300]!r}") from None
    text, _ = strip_text(text, entities)
    if limit is not None:
        assert len(text) <= limit, f"{len(text)} characters: {html[:200]!r}…"


def check_keyboard(markup: InlineKeyboardMarkup) -> None:
    buttons = [b for row in markup.inline_keyboard for b in row]
    assert len(buttons) <= MAX_INLINE_BUTTONS, len(buttons)
    for button in buttons:
        check_button(button)


def check_button(button: InlineKeyboardButton) -> None:
    assert button.text.strip(), button
    data = button.callback_data
    if data is not None:
        assert 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES, data
