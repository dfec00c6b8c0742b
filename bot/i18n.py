"""gettext catalogs (Babel ``.po`` files under ``bot/locales``), Russian first, English too.

Message ids are English source strings. The ``.po`` files are compiled in memory at start, so a
fresh checkout needs no build step. Extraction: ``make i18n`` (keywords ``t``, ``N_``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any, Protocol

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

logger = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
DOMAIN = "messages"
SUPPORTED = ("ru", "en")


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; translate it where it is shown."""
    return message


def _compile(po_path: Path, locale: str) -> Translations:
    with po_path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def load_translations(path: Path = LOCALES_DIR) -> dict[str, NullTranslations]:
    """``messages.po`` plus every other ``*.po`` of the locale (one per creation wizard, so
    their authors never edit the same file), merged into one catalog per locale."""
    catalogs: dict[str, NullTranslations] = {}
    for locale in SUPPORTED:
        folder = path / locale / "LC_MESSAGES"
        files = sorted(folder.glob("*.po"), key=lambda p: (p.stem != DOMAIN, p.name))
        if not files:
            catalogs[locale] = NullTranslations()
            continue
        merged = _compile(files[0], locale)
        for extra in files[1:]:
            merged.merge(_compile(extra, locale))
        catalogs[locale] = merged
    return catalogs


@dataclass(frozen=True)
class Translator:
    """Per-update translator: ``t("Hello, {name}!", name=...)``."""

    locale: str
    translations: NullTranslations

    def __call__(self, message: str, /, **params: object) -> str:
        text = self.translations.gettext(message)
        return _format(text, params) if params else text

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        text = self.translations.ngettext(singular, plural, n)
        return _format(text, {"n": n, **params})


def _format(text: str, params: Mapping[str, object]) -> str:
    """``text.format(**params)``; a template whose fields the call does not fill (a
    translation gone wrong, a msgid carrying braces) is shown as it is, never a crash: the
    user still gets an answer, the log says what to mend."""
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError) as error:
        logger.error("message %r cannot take %s: %r", text[:80], sorted(params), error)
        return text


class I18n:
    """All catalogs, loaded once by the composition root."""

    def __init__(self, default_locale: str, path: Path = LOCALES_DIR) -> None:
        self.default_locale = default_locale
        self._catalogs = load_translations(path)

    def translator(self, locale: str) -> Translator:
        locale = locale if locale in self._catalogs else self.default_locale
        return Translator(locale, self._catalogs[locale])

    def all(self) -> Mapping[str, Translator]:
        return {loc: self.translator(loc) for loc in SUPPORTED}

    def of_user(self, user: Speaker | None) -> Translator:
        """What the bot tells ``user`` in private (a notice sent from a group's update too):
        in the user's own language, never the group's."""
        return self.translator(own_locale(user, self.default_locale))

    def of_group(self, chat_locale: str | None) -> Translator:
        """What the bot says in a group on its own (a job's post, a card drawn from a private
        chat's update): the group's language, the default until it has one."""
        return self.translator(chat_locale or self.default_locale)


class Speaker(Protocol):
    """A user as the database knows them (``UserDTO``)."""

    @property
    def locale(self) -> str | None: ...

    @property
    def language_code(self) -> str | None: ...


def locale_from_language_code(code: str | None, default: str) -> str:
    """Telegram's ``language_code`` ("ru", "en-US", …) to a supported locale."""
    if code:
        base = code.split("-")[0].lower()
        if base in SUPPORTED:
            return base
    return default


def update_locale(update: Any, default: str) -> str:
    """The locale of an update's sender, from the update alone (no database): for words said
    where the update's own context is not at hand (errors, faults, parking)."""
    source = update.callback_query or update.message
    user = source.from_user if source is not None else None
    return locale_from_language_code(user.language_code if user else None, default)


def own_locale(user: Speaker | None, default: str) -> str:
    """A user's own language: their /lang in private, else Telegram's ``language_code``."""
    if user is None:
        return default
    return user.locale or locale_from_language_code(user.language_code, default)


def resolve_locale(
    *,
    chat_locale: str | None,
    user_locale: str | None,
    language_code: str | None,
    default: str,
    is_group: bool,
) -> str:
    """ONE LANGUAGE PER GROUP: a group speaks the chat's language (its /lang, else the language
    of the GM of its first game, set at /newgame: ``settings.adopt_group_language``), whoever
    writes or presses, so a shared message never flips. Only a group that has neither (no
    game yet, no /lang) answers each sender in their own; a private chat is its user's."""
    if is_group and chat_locale:
        return chat_locale
    if user_locale:
        return user_locale
    return locale_from_language_code(language_code, default)
