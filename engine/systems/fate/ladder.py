"""The ladder (Лестница) and the fate dice: 4d6 read as 4dF."""

from __future__ import annotations

from typing import Final

from engine import formats
from engine.dice.source import RandomSource, roll_dice
from engine.text import Msg, msg, register_messages

LADDER: Final[dict[int, tuple[str, str]]] = {
    8: ("Легендарно", "Legendary"),
    7: ("Эпично", "Epic"),
    6: ("Невероятно", "Fantastic"),
    5: ("Превосходно", "Superb"),
    4: ("Прекрасно", "Great"),
    3: ("Хорошо", "Good"),
    2: ("Неплохо", "Fair"),
    1: ("Нормально", "Average"),
    0: ("Посредственно", "Mediocre"),
    -1: ("Плохо", "Poor"),
    -2: ("Ужасно", "Terrible"),
    -3: ("Провал!", "Abysmal"),
}

FATE_DICE: Final = 4
DIE_SIDES: Final = 6
SYMBOLS: Final[dict[int, str]] = {-1: "-", 0: "0", 1: "+"}


def signed(value: int) -> str:
    """``+3``, ``0``, ``−2`` (a real minus sign, as the SPEC shows off-ladder values)."""
    return formats.signed(value)


register_messages(
    {
        **{f"fate.ladder.{value}": {"ru": ru, "en": en} for value, (ru, en) in LADDER.items()},
        "fate.ladder.off": {"ru": "{value}", "en": "{value}"},
    }
)


def ladder_label(value: int) -> Msg:
    """The ladder name of a value; off the ladder (> +8, < −3) the signed number itself."""
    if value in LADDER:
        return msg(f"fate.ladder.{value}")
    return msg("fate.ladder.off", value=signed(value))


def fate_value(face: int) -> int:
    """One d6 face read as a fate die: 1–2 → −1, 3–4 → 0, 5–6 → +1."""
    if not 1 <= face <= DIE_SIDES:
        raise ValueError(f"not a d6 face: {face}")
    return (face - 1) // 2 - 1


def fate_values(faces: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(fate_value(f) for f in faces)


def fate_symbols(faces: tuple[int, ...]) -> str:
    """``(2, 3, 5, 6)`` → ``"-0++"``."""
    return "".join(SYMBOLS[v] for v in fate_values(faces))


def fate_total(faces: tuple[int, ...]) -> int:
    """Sum of the faces read as fate dice (the seed: 2,3,5,6 → +1)."""
    return sum(fate_values(faces))


def roll_fate_faces(source: RandomSource) -> tuple[int, ...]:
    """Draw the four d6 of one fate roll, in order."""
    return roll_dice(source, FATE_DICE, DIE_SIDES)


def fate_notation(modifier: int) -> str:
    """Dice notation for the roll log: ``4dF``, ``4dF+3``, ``4dF-1`` (ASCII minus here)."""
    if modifier == 0:
        return "4dF"
    return f"4dF{modifier:+d}"
