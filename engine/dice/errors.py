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
        "dice.syntax.empty": {
            "ru": "Пустое выражение: напишите, например, 2d6+1.",
            "en": "Empty expression: write for example 2d6+1.",
        },
        "dice.syntax.invalid": {
            "ru": "Позиция {pos}: {problem_ru}.",
            "en": "Position {pos}: {problem_en}.",
        },
        "dice.limit.too_long": {
            "ru": "Слишком длинное выражение: {length} символов, можно не больше {limit}.",
            "en": "The expression is too long: {length} characters, at most {limit} allowed.",
        },
        "dice.limit.too_deep": {
            "ru": "Позиция {pos}: слишком глубокая вложенность, можно не больше {limit} уровней.",
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


class LogFormatError(DiceError):
    """An exported roll log is not in the ``rollog/1`` format."""


def expected_error(pos: int, expected: str, found: str) -> DiceSyntaxError:
    """A syntax error at 0-based ``pos`` (shown 1-based); ``found`` empty means end of text."""
    ru, en = EXPECTED[expected]
    if not found:
        return DiceSyntaxError(msg("dice.syntax.unexpected_end", expected_ru=ru, expected_en=en))
    return DiceSyntaxError(
        msg("dice.syntax.expected", pos=pos + 1, expected_ru=ru, expected_en=en, found=found)
    )


def invalid_error(pos: int, problem_ru: str, problem_en: str) -> DiceSyntaxError:
    """A readable but meaningless construct (``kh5`` on 4 dice, ``1d1!``)."""
    return DiceSyntaxError(
        msg("dice.syntax.invalid", pos=pos + 1, problem_ru=problem_ru, problem_en=problem_en)
    )
