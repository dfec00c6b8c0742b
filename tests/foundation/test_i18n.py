"""Every user-facing string in the code has a Russian translation; placeholders survive."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir

from bot.i18n import I18n, locale_from_language_code, resolve_locale

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"t": None, "N_": None, "T": None, "plural": (1, 2)}


def _extracted() -> list[str | tuple[str, ...]]:
    found: list[str | tuple[str, ...]] = []
    for sub in ("bot", "handlers"):
        for _file, _line, message, _comments, _ctx in extract_from_dir(
            ROOT / sub, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            if message:
                found.append(message)
    return found


def _msgids() -> set[str]:
    """Messages with one form (a plural's forms are checked by ``_plurals``)."""
    return {m for m in _extracted() if isinstance(m, str)}


def _plurals() -> set[tuple[str, str]]:
    return {(m[0], m[1]) for m in _extracted() if isinstance(m, tuple) and len(m) == 2}


def test_every_message_has_a_russian_translation() -> None:
    ru = I18n("ru").translator("ru")
    ids = _msgids()
    assert len(ids) > 10
    untranslated = sorted(m for m in ids if ru(m) == m)
    assert untranslated == []
    plurals = ru.translations
    assert [p for p in _plurals() if plurals.ngettext(*p, 5) in p] == []


def test_plural_forms_keep_their_placeholders() -> None:
    ru = I18n("ru").translator("ru").translations
    for singular, plural in _plurals():
        for n in (1, 2, 5):
            shown = ru.ngettext(singular, plural, n)
            assert set(re.findall(r"\{(\w+)\}", shown)) == set(
                re.findall(r"\{(\w+)\}", singular)
            ), (singular, n)


def test_placeholders_match_between_languages() -> None:
    ru = I18n("ru").translator("ru")
    for message in _msgids():
        assert set(re.findall(r"\{(\w+)\}", message)) == set(
            re.findall(r"\{(\w+)\}", ru.translations.gettext(message))
        ), message


def test_locale_resolution() -> None:
    assert locale_from_language_code("en-US", "ru") == "en"
    assert locale_from_language_code("de", "ru") == "ru"
    assert locale_from_language_code(None, "en") == "en"
    common = {"language_code": "en", "default": "ru"}
    assert resolve_locale(chat_locale="ru", user_locale=None, is_group=True, **common) == "ru"
    assert resolve_locale(chat_locale="ru", user_locale=None, is_group=False, **common) == "en"
    assert resolve_locale(chat_locale=None, user_locale="ru", is_group=True, **common) == "ru"


def test_catalogs_agree_where_they_share_a_message() -> None:
    """Each feature has its own catalog and they are merged per locale: a message id
    translated differently in two catalogs would make one of them silently lose."""
    from babel.messages.pofile import read_po

    for folder in sorted((ROOT / "bot" / "locales").glob("*/LC_MESSAGES")):
        seen: dict[str, tuple[str, str]] = {}
        clashes = []
        for path in sorted(folder.glob("*.po")):
            with path.open("rb") as fh:
                catalog = read_po(fh)
            for message in catalog:
                if not message.id or not message.string:
                    continue
                key = str(message.id)
                earlier = seen.setdefault(key, (path.name, str(message.string)))
                if earlier[1] != str(message.string):
                    clashes.append((key, earlier, path.name, str(message.string)))
        assert clashes == [], folder


def test_a_template_the_call_cannot_fill_is_shown_not_raised() -> None:
    """A msgid carrying braces the call does not fill (a refusal's reason built elsewhere, a
    translation gone wrong) answers with the text as it is and logs it, instead of failing
    the update."""
    t = I18n("ru").translator("en")
    assert t("Hello, {name}!", other="x") == "Hello, {name}!"
    assert t("Hello, {name}!", name="Ира") == "Hello, Ира!"
    assert t.plural("{n} die {oops}", "{n} dice {oops}", 3) == "{n} dice {oops}"
