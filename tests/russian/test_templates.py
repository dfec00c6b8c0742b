"""Every Russian template reads as a person wrote it (issue 23, items 1–3).

The templates are all Russian ``msgstr`` of the bot's catalogs plus the engine's own Russian
messages. Each is rendered with a female («Алиса»), a male («Боромир») and a plural name
(«Дети ночи») and with counts 1, 2, 5, 11, 21, 22, 25. Names stay in the nominative, so no
template may put a name where Russian needs another case or a gender (a past-tense verb or a
short participle agreeing with the name); counts either go through gettext plurals, checked
here against the forms written out below, or stand after a colon. No Latin words outside dice
notation, commands and a few proper names; no Python reprs.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import bot
import engine
import handlers
from bot.i18n import I18n, Translator, load_translations
from engine.text import _CATALOG  # the engine's registered messages (ru/en per key)

ROOT = Path(__file__).resolve().parents[2]
RU = ROOT / "bot" / "locales" / "ru" / "LC_MESSAGES"
NAMES = ("Алиса", "Боромир", "Дети ночи")
COUNTS = (1, 2, 5, 11, 21, 22, 25)

# Placeholders that carry a person's or a character's name.
NAME_KEYS = frozenset(
    "name player gm who leader character winner loser attacker defender other label "
    "name_ru monster target".split()
)
# Placeholders that carry a count.
COUNT_KEYS = frozenset(
    "n count points budget dice left total spent available need got limit excess lives "
    "rolls min_crossings allowed max_abilities cap acc gained soaked net shifts pages lost "
    "extra cost top expected actual have entries recomputed".split()
)
# Nouns whose form depends on the number before them.
COUNTED_NOUN = re.compile(
    r"^(?:символ|очк|кост|кубик|точ|участник|пункт|рол|параметр|пересечени|бросок|бросков|"
    r"аспект|жизн|персонаж|успех|успехов|раз|минут|час|ход|раунд|оборот|запис)",
)

# Latin allowed in Russian text: dice notation, commands with their arguments, and names.
DICE = re.compile(
    r"\b\d*d(?:\d+|F|%)[!<>=a-zA-Z0-9+\-]*|\b(?:vs|ie|ir|ro|ra|rr|kh|kl|dl|mi|ma|cod|wod)\d*\b|"
    r"\b[ertkfb]\d*\b",
)
COMMAND = re.compile(r"/[a-z_]+(?: (?:[a-z]+|N))*")
PROPER = frozenset(
    "FATE Risus Dice Maiden Roll SHA Europe Moscow Telegram ru en python engine verify "
    "json JSON".split()
)
MARKUP = [re.compile(r"<code>.*?</code>", re.S), re.compile(r"<[^>]+>"), re.compile(r"&\w+;")]
REPR = re.compile(r"\{'|\[\{|\w': ")

# A past-tense verb or a short participle right after a name (it would have to agree with it),
# unless a noun stands before the name and takes the agreement («Персонаж Алиса одобрен»).
GENDERED_AFTER = re.compile(
    r"(?<!Персонаж )(?<!НПС )(?<!монстр )\{(?P<key>\w+)\}(?:</b>)?,? "
    r"(?:уже |не |сразу )?[а-яё]+(?:л|ла|ло|ли|ен|ена|ён|ан|ана|ян|ыт)\b"
)
# Words after which a name would have to change its case.
CASE_BEFORE = re.compile(
    r"\b(?:для|на|к|с|со|у|от|над|под|без|при|о|об|про|персонажа|игрока|мастера|"
    r"нападает) (?:<b>)?\{(?P<key>\w+)\}"
    r"|\bпросит (?:<b>)?\{(?P<object>\w+)\}(?:</b>)? [а-яё]+ть\b"  # «просит Алиса бросить»
)


def _load_all_modules() -> None:
    """Import every module so that every engine message is registered."""
    for package in (engine, bot, handlers):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if any(part in info.name for part in ("emulator", "sandbox", "__main__")):
                continue
            importlib.import_module(info.name)


def _russian_templates() -> Iterator[tuple[str, str, str | tuple[str, ...]]]:
    """(where, msgid, Russian text or plural forms) for every catalog entry, as the merged
    catalogs translate it (a later file overrides an earlier one), and every engine key."""
    merged = load_translations()["ru"]._catalog  # type: ignore[attr-defined]
    for path in sorted(RU.glob("*.po")):
        with path.open("rb") as fh:
            catalog = read_po(fh, locale="ru")
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, str):
                yield path.name, message.id, merged.get(message.id, message.string)
            else:
                forms = tuple(merged.get((message.id[0], i), "") for i in range(3))
                yield path.name, message.id[0], forms
    _load_all_modules()
    for key, texts in sorted(_CATALOG.items()):
        yield "engine", key, texts["ru"]


TEMPLATES = list(_russian_templates())


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _filled(template: str, name: str, count: int) -> str:
    values: dict[str, object] = {}
    for field in _fields(template):
        key = field.split(".")[0].split("[")[0]
        if key in NAME_KEYS:
            values[key] = name
        elif key in COUNT_KEYS:
            values[key] = count
        else:
            values[key] = "…"
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return template


def _latin(text: str) -> list[str]:
    for pattern in MARKUP:
        text = pattern.sub(" ", text)
    text = COMMAND.sub(" ", re.sub(r"\{[^}]*\}", " ", text))
    text = DICE.sub(" ", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in PROPER]


def _forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def test_every_template_renders_without_latin_or_reprs() -> None:
    found = []
    for where, msgid, text in TEMPLATES:
        for form in _forms(text):
            for name in NAMES:
                for count in COUNTS:
                    shown = _filled(form or "", name, count)
                    if _latin(shown) or REPR.search(shown):
                        found.append((where, msgid, shown))
    assert not found, "\n".join(f"{w}: {s!r}" for w, _, s in found[:20])


def test_no_name_needs_a_case_or_a_gender() -> None:
    found = []
    for where, _msgid, text in TEMPLATES:
        for form in _forms(text):
            form = form or ""
            for pattern in (GENDERED_AFTER, CASE_BEFORE):
                for match in pattern.finditer(form):
                    if (match.group("key") or match.groupdict().get("object")) in NAME_KEYS:
                        found.append((where, form))
            if re.search(r"\((?:а|ла|и|ы)\)", form):
                found.append((where, form))
    assert not found, "\n".join(f"{w}: {s!r}" for w, s in found)


def test_a_count_before_a_noun_goes_through_plural_forms() -> None:
    """Outside plural entries a count never stands right before a noun it must agree with
    («31 очков»); abbreviations (мин, ч, усп.) and a count after a colon are fine."""
    found = []
    for where, _msgid, text in TEMPLATES:
        if isinstance(text, tuple):
            continue
        for match in re.finditer(r"\{(\w+)\} (?:[а-яё]+ )?([а-яё]+)(\.?)", text or ""):
            key, noun, dot = match.groups()
            if key in COUNT_KEYS and COUNTED_NOUN.match(noun) and not dot:
                found.append((where, text))
    assert not found, "\n".join(f"{w}: {s!r}" for w, s in found)


@pytest.fixture(scope="module")
def ru() -> Translator:
    return I18n("ru").translator("ru")


# (singular msgid, plural msgid, params) → the Russian text for each of COUNTS.
PLURALS: list[tuple[str, str, dict[str, str], list[str]]] = [
    (
        "💥 {team} lost: the GM picks who loses {n} die.",
        "💥 {team} lost: the GM picks who loses {n} dice.",
        {"team": "Дети ночи"},
        [
            f"💥 Дети ночи проигрывает: мастер выбирает, кто теряет {n} {noun}."
            for n, noun in zip(
                COUNTS, "кость кости костей костей кость кости костей".split(), strict=True
            )
        ],
    ),
    (
        "{n} more character is not shown here.",
        "{n} more characters are not shown here.",
        {},
        [
            f"Ещё {n} {noun} здесь не {verb}."
            for n, noun, verb in zip(
                COUNTS,
                "персонаж персонажа персонажей персонажей персонаж персонажа персонажей".split(),
                "показан показаны показаны показаны показан показаны показаны".split(),
                strict=True,
            )
        ],
    ),
]


@pytest.mark.parametrize(("singular", "plural", "params", "expected"), PLURALS)
def test_plural_forms_agree_with_every_count(
    ru: Translator, singular: str, plural: str, params: dict[str, str], expected: list[str]
) -> None:
    assert [ru.plural(singular, plural, n, **params) for n in COUNTS] == expected


def test_every_plural_entry_has_three_russian_forms() -> None:
    for where, msgid, text in TEMPLATES:
        if isinstance(text, tuple):
            assert len(text) == 3 and all(text), (where, msgid)


# Templates that name someone, rendered for each name: the exact Russian expected.
NAMED: list[tuple[str, dict[str, str], str]] = [
    (
        "🎲 {gm} asks {player} to roll {what}",
        {"gm": "Гена", "what": "3d6"},
        "🎲 Бросок для: {x} — 3d6 (просит Гена)",
    ),
    (
        "✅ {name} is approved and joins the game.",
        {},
        "✅ Персонаж {x} одобрен и вступает в игру.",
    ),
    (
        "📜 {player} submitted a character for approval:",
        {},
        "📜 Персонаж на одобрение (игрок: {x}):",
    ),
    (
        "⌛ GM: {player} has not rolled {what} by the deadline. The button still works.",
        {"what": "3d6"},
        "⌛ Мастеру: срок вышел, а броска нет — {x}, 3d6. Кнопка всё ещё работает.",
    ),
    ("↩️ Undone by {gm}.", {}, "↩️ Отменено ({x})."),
    ("🏁 <b>{title}</b> — applied by {gm}", {"title": "Веха"}, "🏁 <b>Веха</b> — применено ({x})"),
    (
        "⚔️ {name} attacks {target} ({skill}): {dice} → {total}",
        {"target": "Гоблин", "skill": "Драка", "dice": "[+ - 0 0]", "total": "2"},
        "⚔️ {x} нападает, цель — Гоблин (Драка): [+ - 0 0] → 2",
    ),
    ("🛡 {who} shields {other}.", {"other": "Мэл"}, "🛡 {x} прикрывает: Мэл."),
    (
        "💤 {name} is crippled: unconscious at once",
        {},
        "💤 {x}: тяжёлое ранение, сразу без сознания",
    ),
    ("{name} reaches {target} first.", {"target": "10"}, "Первым до 10: {x}."),
    (
        "Undone — {name}: {what}",
        {"what": "потрачено очко судьбы"},
        "Отменено — {x}: потрачено очко судьбы",
    ),
    ("{character}, played by {player}", {"player": "Гена"}, "{x} (Гена)"),
]


@pytest.mark.parametrize(("msgid", "params", "expected"), NAMED)
@pytest.mark.parametrize("name", NAMES)
def test_named_templates_read_right_for_any_name(
    ru: Translator, msgid: str, params: dict[str, str], expected: str, name: str
) -> None:
    keys = _fields(msgid) & NAME_KEYS - set(params)
    assert keys, msgid
    rendered = ru(msgid, **params, **dict.fromkeys(keys, name))
    assert rendered == expected.replace("{x}", name)


# --- every msgid in the code has a Russian translation ------------------------------------------


def _extracted() -> set[str]:
    method_map = [("bot/**.py", "python"), ("handlers/**.py", "python")]
    keywords = {"t": None, "N_": None, "plural": (1, 2), "T": None}
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=method_map, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def _hidden() -> set[str]:
    """Literals chosen by a conditional and passed to ``t`` (``t("a" if x else "b")`` or
    ``text = "a" if x else "b"; t(text)``): extraction cannot see them unless marked ``N_``."""
    found: set[str] = set()
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("handlers/**/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        chosen: dict[str, list[str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        chosen.setdefault(target.id, []).extend(_branches(node.value))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t" and node.args:
                first = node.args[0]
                if isinstance(first, ast.IfExp):
                    found.update(_branches(first))
                elif isinstance(first, ast.Name):
                    found.update(chosen.get(first.id, []))
    return found


def _branches(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _branches(node.body) + _branches(node.orelse)
    return []


def test_every_msgid_in_the_code_has_a_russian_translation() -> None:
    translated = {msgid for _, msgid, text in TEMPLATES if all(f.strip() for f in _forms(text))}
    wanted = _extracted() | _hidden()
    missing = sorted(m for m in wanted if m not in translated and re.search(r"[A-Za-z]", m))
    assert not missing, missing[:20]
