"""Injected randomness.

Every roll in the engine draws from a ``RandomSource``; nothing uses the global ``random``
module. Production dice come from the HMAC commit–reveal source (``engine.dice.hmac_source``);
tests pass a ``ScriptedSource`` (exact faces) or a ``SeededSource``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from engine.errors import EngineError
from engine.text import msg, register_messages

register_messages(
    {
        "dice.source.exhausted": {
            "ru": "Заготовленные броски закончились.",
            "en": "The scripted dice ran out.",
        },
        "dice.source.out_of_range": {
            "ru": "Заготовленный бросок {face} не подходит для кубика {low}..{high}.",
            "en": "Scripted face {face} does not fit a die {low}..{high}.",
        },
    }
)


@runtime_checkable
class RandomSource(Protocol):
    """Uniform integers; ``randint(low, high)`` includes both ends, like ``random.randint``."""

    def randint(self, low: int, high: int) -> int: ...


class ScriptedSource:
    """Returns the given faces in order; for tests that need exact dice."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._pos = 0

    @property
    def used(self) -> int:
        return self._pos

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._pos

    def randint(self, low: int, high: int) -> int:
        if self._pos >= len(self._faces):
            raise EngineError(msg("dice.source.exhausted"))
        face = self._faces[self._pos]
        if not low <= face <= high:
            raise EngineError(msg("dice.source.out_of_range", face=face, low=low, high=high))
        self._pos += 1
        return face


class SeededSource:
    """A private ``random.Random`` instance: reproducible, not for production dice."""

    def __init__(self, seed: int | str | bytes) -> None:
        self._rng = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


def roll_die(source: RandomSource, sides: int) -> int:
    """One die with faces 1..sides."""
    return source.randint(1, sides)


def roll_dice(source: RandomSource, count: int, sides: int) -> tuple[int, ...]:
    return tuple(source.randint(1, sides) for _ in range(count))
