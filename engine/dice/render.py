"""Rendering roll results for Telegram (HTML) and as plain text.

``render_html`` always returns at most ``TELEGRAM_LIMIT`` characters of well-formed Telegram
HTML: user text (the label) is escaped, long dice lists are summarised ("… +N more") rather than
cut, and if even the summary is too long only the header and the total are shown. Nothing is
ever cut inside a tag or an entity, because truncation happens on raw text before escaping.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Final

from engine import formats
from engine.dice.evaluator import MAX_REROLLS
from engine.dice.results import DiceGroup, Die, RollResult
from engine.text import msg, register_messages

TELEGRAM_LIMIT: Final = 4096
_SHOWN_STEPS: Final = (None, 200, 100, 40, 12, 0)  # dice shown per group, tried in turn
_MAX_LABEL: Final = 200
_MAX_NOTATION: Final = 300

register_messages(
    {
        "dice.render.total": {"ru": "Итог", "en": "Total"},
        "dice.render.successes": {"ru": "Успехов", "en": "Successes"},
        "dice.render.botch": {"ru": "Провал!", "en": "Botch!"},
        "dice.render.critical_failure": {
            "ru": "Критический провал!",
            "en": "Critical failure!",
        },
        "dice.render.more": {"ru": "… ещё {count}", "en": "… {count} more"},
        "dice.render.passed": {"ru": "выполнено", "en": "passed"},
        "dice.render.botches": {"ru": "провалов (b): {count}", "en": "botches (b): {count}"},
        "dice.render.not_passed": {"ru": "не выполнено", "en": "not passed"},
        "dice.render.rerolls_stopped": {
            "ru": "⚠️ перебросы остановлены после {limit}, оставлено как выпало: {faces}",
            "en": "⚠️ rerolls stopped after {limit}, kept as rolled: {faces}",
        },
    }
)


_CHANCE: Final = re.compile(r"\bchance\b")


def display_notation(expression: str, locale: str) -> str:
    """Notation as the reader's language writes it: the chance die is «шанс» in Russian (the
    parser reads both words), everything else is the same in every language."""
    return _CHANCE.sub("шанс", expression) if locale == "ru" else expression


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Fmt:
    """Markup helpers: HTML escapes and tags, or plain text."""

    def __init__(self, markup: bool) -> None:
        self.markup = markup

    def esc(self, text: str) -> str:
        return html.escape(text, quote=False) if self.markup else text

    def tag(self, name: str, text: str) -> str:
        return f"<{name}>{text}</{name}>" if self.markup else text

    def die(self, die: Die) -> str:
        text = f"{die.symbol}({die.face})" if die.fate else str(die.face)
        if die.exploded:
            text += "!"
        if not die.kept:
            return self.tag("s", text) if self.markup else f"~{text}~"
        if die.success:
            return self.tag("b", text) if self.markup else f"{text}*"
        if die.cancel:
            return self.tag("i", text) if self.markup else f"{text}x"
        return text


def _group_line(fmt: _Fmt, group: DiceGroup, shown: int | None, locale: str) -> str:
    dice: Sequence[Die] = group.dice if shown is None else group.dice[:shown]
    parts = [fmt.die(d) for d in dice]
    hidden = len(group.dice) - len(dice)
    if hidden:
        parts.append(fmt.esc(msg("dice.render.more", count=hidden).render(locale)))
    notation = fmt.esc(_clip(display_notation(group.notation, locale), _MAX_NOTATION))
    value = formats.number(group.value)
    return f"{notation}: [{' '.join(parts)}] → {value}{_botches(group, locale)}"


def _botches(group: DiceGroup, locale: str) -> str:
    """What the group's line adds after its dice: botches counted, rerolls cut short."""
    notes = []
    if group.botches:
        notes.append(msg("dice.render.botches", count=group.botches).render(locale))
    stopped = [str(d.face) for d in group.dice if d.reroll_stopped]
    if stopped:
        notes.append(
            msg("dice.render.rerolls_stopped", limit=MAX_REROLLS, faces=", ".join(stopped)).render(
                locale
            )
        )
    return "".join(f" ({note})" for note in notes)


def _header(fmt: _Fmt, result: RollResult, locale: str) -> list[str]:
    lines = []
    if result.label:
        lines.append(fmt.tag("b", fmt.esc(_clip(result.label, _MAX_LABEL))))
    expression = display_notation(result.expression, locale)
    lines.append("🎲 " + fmt.tag("code", fmt.esc(_clip(expression, _MAX_NOTATION))))
    return lines


def _footer(fmt: _Fmt, result: RollResult, locale: str) -> list[str]:
    key = "dice.render.successes" if result.counts_successes else "dice.render.total"
    lines = []
    if result.tags:
        tags = " · ".join(f"{fmt.esc(_clip(tag, 40))}: {value}" for tag, value in result.tags)
        lines.append(tags)
    if result.comparison is not None:
        left, cmp, right = result.comparison
        word = "dice.render.passed" if result.total else "dice.render.not_passed"
        check = fmt.esc(f"{left} {cmp} {right}")
        total = fmt.tag("b", msg(word).render(locale))
        lines.append(f"{msg('dice.render.total').render(locale)}: {check} → {total}")
        return lines
    lines.append(f"{msg(key).render(locale)}: {fmt.tag('b', formats.number(result.total))}")
    if result.botch:
        lines.append(fmt.tag("b", fmt.esc(msg("dice.render.botch").render(locale))))
    if result.critical_failure:
        lines.append(fmt.tag("b", fmt.esc(msg("dice.render.critical_failure").render(locale))))
    return lines


def telegram_length(text: str) -> int:
    """Length as Telegram counts it (UTF-16 code units; an emoji outside the BMP is 2)."""
    return len(text.encode("utf-16-le")) // 2


def _render(result: RollResult, locale: str, *, markup: bool, limit: int) -> str:
    fmt = _Fmt(markup)
    head, foot = _header(fmt, result, locale), _footer(fmt, result, locale)
    for shown in _SHOWN_STEPS:
        body = [_group_line(fmt, g, shown, locale) for g in result.groups]
        text = "\n".join([*head, *body, *foot])
        if telegram_length(text) <= limit:
            return text
    for text in ("\n".join([*head, *foot]), "\n".join(foot)):
        if telegram_length(text) <= limit:
            return text
    return str(result.total)[:limit]  # plain digits: nothing to cut inside a tag


def render_html(result: RollResult, locale: str = "ru", *, limit: int = TELEGRAM_LIMIT) -> str:
    """Telegram HTML (parse_mode=HTML) of a roll, at most ``limit`` characters."""
    return _render(result, locale, markup=True, limit=limit)


def render_text(result: RollResult, locale: str = "ru", *, limit: int = TELEGRAM_LIMIT) -> str:
    """Plain text of a roll: dropped dice as ~5~, successes as 8*, cancelling ones as 1x."""
    return _render(result, locale, markup=False, limit=limit)


def render_line(
    result: RollResult,
    locale: str = "ru",
    *,
    short: bool = False,
    with_expression: bool = True,
    shown: int = 40,
) -> str:
    """One roll of a multi-roll answer on one line of Telegram HTML (at most ``shown`` dice
    per term; ``short``: the total only). A roll set shows its expression once, in its header
    (``with_expression=False``)."""
    fmt = _Fmt(True)
    parts = []
    if result.label and with_expression:
        parts.append(fmt.tag("b", fmt.esc(_clip(result.label, 60))))
    if with_expression:
        expression = display_notation(result.expression, locale)
        parts.append(fmt.tag("code", fmt.esc(_clip(expression, 80))))
    if not short:
        for group in result.groups:
            dice = [fmt.die(d) for d in group.dice[:shown]]
            hidden = len(group.dice) - len(dice)
            if hidden:
                dice.append(fmt.esc(msg("dice.render.more", count=hidden).render(locale)))
            parts.append(f"[{' '.join(dice)}]{_botches(group, locale)}")
    if result.comparison is not None:
        left, cmp, right = result.comparison
        word = "dice.render.passed" if result.total else "dice.render.not_passed"
        value = f"{fmt.esc(f'{left} {cmp} {right}')} → {fmt.tag('b', msg(word).render(locale))}"
    elif result.counts_successes:
        value = f"{msg('dice.render.successes').render(locale)}: {fmt.tag('b', str(result.total))}"
    else:
        value = fmt.tag("b", str(result.total))
    line = f"{' '.join(parts)} → {value}" if parts else value
    if result.botch:
        line += " · " + fmt.esc(msg("dice.render.botch").render(locale))
    if result.critical_failure:
        line += " · " + fmt.esc(msg("dice.render.critical_failure").render(locale))
    return line


def without_repeated(body: str, words: str) -> str:
    """A rendered roll (HTML lines) without the line its outcome's ``words`` say again: no
    «Критический провал!» above a system's «Критический провал»."""
    if not words:
        return body
    return "\n".join(line for line in body.split("\n") if _said(line) != _said(words))


def _said(line: str) -> str:
    """A line as read: no tags, no closing «!» or «.», any case."""
    return html.unescape(re.sub(r"<[^>]+>", "", line)).strip().rstrip("!.").casefold()
