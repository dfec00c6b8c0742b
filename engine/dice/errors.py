"""Errors of the dice core: every one is an ``EngineError`` with a ru/en message.

Syntax errors carry the 1-based position in the user's text and what was expected there; the
message parameters ``expected_ru``/``expected_en`` let one ``Msg`` render in both languages.
"""

from __future__ import annotations

from typing import Final

from engine.errors import EngineError
from engine.text import msg, register_messages

register_messages(
    {
        "dice.syntax.expected": {
            "ru": "Позиция {pos}: ожидалось {expected_ru}, а найдено «{found}».",
            "en": "Position {pos}: expected {expected_en}, found “{found}”.",
        },
        "dice.syntax.unexpected_end": {
            "ru": "Выражение оборвалось: ожидалось {expected_ru}.",
            "en": "The expression ends too early: expected {expected_en}.",
        },
        "dice.syntax.ends_after": {
            "ru": "Позиция {pos}: после «{after}» выражение оборвалось, "
            "а ожидалось {expected_ru}.",
            "en": "Position {pos}: the expression ends after “{after}”; expected {expected_en}.",
        },
        "dice.syntax.hint": {
            "ru": "Позиция {pos}: «{found}» — {hint_ru}.",
            "en": "Position {pos}: “{found}” — {hint_en}.",
        },
        "dice.syntax.empty": {
            "ru": "Пустое выражение: напишите, например, 2d6+1.",
            "en": "Empty expression: write for example 2d6+1.",
        },
        "dice.syntax.invalid": {
            "ru": "Позиция {pos}: {problem_ru}.",
            "en": "Position {pos}: {problem_en}.",
        },
        "dice.limit.too_long": {
            "ru": "Слишком длинное выражение: {length} {unit_ru}, можно не больше {limit}.",
            "en": "The expression is too long: {length} characters, at most {limit} allowed.",
        },
        "dice.limit.too_deep": {
            "ru": "Позиция {pos}: слишком глубокая вложенность (предел — {limit}).",
            "en": "Position {pos}: nesting is too deep, at most {limit} levels allowed.",
        },
        "dice.limit.number_too_big": {
            "ru": "Позиция {pos}: слишком большое число, можно не больше {limit}.",
            "en": "Position {pos}: the number is too big, at most {limit} allowed.",
        },
        "dice.limit.too_many_dice": {
            "ru": "Слишком много кубиков: {count}, можно не больше {limit} (вместе со взрывами).",
            "en": "Too many dice: {count}, at most {limit} allowed (explosions included).",
        },
        "dice.limit.die_too_big": {
            "ru": "Позиция {pos}: кубик d{sides} слишком большой, можно не больше d{limit}.",
            "en": "Position {pos}: a d{sides} is too big, at most d{limit} allowed.",
        },
        "dice.limit.total_too_big": {
            "ru": "Итог броска слишком велик: можно не больше {limit} по модулю.",
            "en": "The total is too big: at most {limit} in absolute value.",
        },
        "dice.eval.division_by_zero": {
            "ru": "Деление на ноль.",
            "en": "Division by zero.",
        },
        "dice.odds.unsupported": {
            "ru": "Точные шансы для «{expression}» не считаются: {problem_ru}.",
            "en": "Exact odds for “{expression}” are not supported: {problem_en}.",
        },
        "dice.odds.bad_argument": {
            "ru": "Неверный параметр для расчёта шансов: {problem_ru}.",
            "en": "Invalid odds parameter: {problem_en}.",
        },
        "dice.verify.too_large.entries": {
            "ru": "записей: {count}, можно не больше {limit}",
            "en": "{count} entries, at most {limit}",
        },
        "dice.verify.too_large.faces": {
            "ru": "в записи №{seq} кубиков: {count}, можно не больше {limit}",
            "en": "entry #{seq} has {count} dice, at most {limit}",
        },
        "dice.verify.too_large.text": {
            "ru": "общая длина выражений бросков: {count} симв., предел — {limit}",
            "en": "roll expressions of {count} characters, at most {limit}",
        },
        "dice.verify.too_large.dice": {
            "ru": "кубиков для пересчёта: {count}, можно не больше {limit}",
            "en": "{count} dice to recompute, at most {limit}",
        },
        "dice.log.roll_id_taken": {
            "ru": "Под номером этого сообщения в журнале уже другой бросок ({expression}), "
            "поэтому ничего не брошено. Отправьте команду ещё раз.",
            "en": "The log already holds another roll ({expression}) under this message's "
            "number, so nothing was rolled. Send the command again.",
        },
        "dice.log.bad_format": {
            "ru": "Файл журнала бросков повреждён: {problem}.",
            "en": "The roll log file is malformed: {problem}.",
        },
    }
)

# (ru, en) descriptions of what the parser expected; keys are used by the parser.
EXPECTED: Final[dict[str, tuple[str, str]]] = {
    "operand": ("число, кубик (например 2d6) или «(»", "a number, a die (e.g. 2d6) or “(”"),
    "sides": ("число граней, % или F", "a number of sides, % or F"),
    "number": ("число", "a number"),
    "rparen": ("«)»", "“)”"),
    "operator": ("+, -, *, / или конец выражения", "+, -, *, / or the end"),
}


class DiceError(EngineError):
    """Base of every dice-core failure."""


class DiceSyntaxError(DiceError):
    """The notation cannot be read; the message says where and what was expected."""


class DiceLimitError(DiceError):
    """The notation is readable but exceeds a limit (length, nesting, dice, die size)."""


class DiceEvalError(DiceError):
    """Evaluation failed for a reason the user caused (division by zero)."""


class OddsError(DiceError):
    """Exact odds are not available for this request."""


class RollIdTaken(DiceError):
    """A roll id already logged for a different roll (another expression or label): the same
    id is the same roll only for the same text, never the stored result of another one."""

    @classmethod
    def of(cls, logged_expression: str) -> RollIdTaken:
        return cls(msg("dice.log.roll_id_taken", expression=logged_expression))


class LogFormatError(DiceError):
    """An exported roll log is not in the ``rollog/1`` format."""


def expected_error(
    pos: int, expected: str, found: str, *, after: tuple[int, str] | None = None
) -> DiceSyntaxError:
    """A syntax error at 0-based ``pos`` (shown 1-based); ``found`` empty means end of text,
    where ``after`` is the last token read (its 0-based position and text): a dangling
    ``2d6 +`` is shown at its «+»."""
    ru, en = EXPECTED[expected]
    if not found:
        if after is not None and after[1]:
            return DiceSyntaxError(
                msg(
                    "dice.syntax.ends_after", pos=after[0] + 1, after=after[1],
                    expected_ru=ru, expected_en=en,
                )
            )  # fmt: skip
        return DiceSyntaxError(msg("dice.syntax.unexpected_end", expected_ru=ru, expected_en=en))
    return DiceSyntaxError(
        msg("dice.syntax.expected", pos=pos + 1, expected_ru=ru, expected_en=en, found=found)
    )


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian plural form for ``n`` (1 символ, 2 символа, 5 символов, 21 символ)."""
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def too_long_error(length: int, limit: int) -> DiceLimitError:
    unit = ru_plural(length, "символ", "символа", "символов")
    return DiceLimitError(msg("dice.limit.too_long", length=length, limit=limit, unit_ru=unit))


def hint_error(pos: int, found: str, hint_ru: str, hint_en: str) -> DiceSyntaxError:
    """Text that is not understood, with what to write instead (``6d10t7`` → ``6d10>=7``)."""
    found = found if len(found) <= 40 else found[:39] + "…"
    return DiceSyntaxError(
        msg("dice.syntax.hint", pos=pos + 1, found=found, hint_ru=hint_ru, hint_en=hint_en)
    )


def invalid_error(pos: int, problem_ru: str, problem_en: str) -> DiceSyntaxError:
    """A readable but meaningless construct (``kh5`` on 4 dice, ``1d1!``)."""
    return DiceSyntaxError(
        msg("dice.syntax.invalid", pos=pos + 1, problem_ru=problem_ru, problem_en=problem_en)
    )


class VerifyTooLarge(DiceError):
    """A roll log is past the limits of an online check (``engine.dice.verify.VerifyLimits``);
    the offline ``python -m engine.verify`` has none."""
