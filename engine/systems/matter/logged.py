"""Running a scene operation on dice that come from a log, one roll at a time.

The bot rolls every die through its verifiable roll log, where a roll is asked for by its
notation (``3d10>=7!``, ``chance``) and its faces are known only once logged; the engine draws
dice one by one from a ``RandomSource``. ``run_logged`` bridges the two: it runs the operation
on the faces logged so far, followed by ones (a 1 never explodes, so the run always ends), and
answers either the notation of the next roll the operation needs (the caller logs it and calls
again with its faces appended) or the operation's result when every roll it made was served
from the log. The notation of roll k+1 depends only on the faces of rolls 1..k, so the loop
asks for exactly the rolls the operation makes, in the order it makes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.dice.source import RandomSource
from engine.errors import EngineError
from engine.systems.matter.events import Event
from engine.text import msg, register_messages

register_messages(
    {
        "matter.logged.mismatch": {
            "ru": "Броски из журнала не совпали с ходом правил.",
            "en": "The logged rolls do not match what the rules rolled.",
        },
    }
)

R = TypeVar("R")


@dataclass(frozen=True)
class NeedsRoll:
    """The operation needs one more roll: log ``notation`` and run it again.

    ``event`` is the probe's event of that roll (whose roll and why; its faces are not real).
    """

    notation: str
    event: Event


@dataclass(frozen=True)
class Done(Generic[R]):
    """Every roll of the operation was served from the log; ``result`` is final."""

    result: R


class _LoggedSource:
    """The logged faces in order, then ones."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = list(faces)
        self.drawn: list[int] = []
        self.overflowed = False

    def randint(self, low: int, high: int) -> int:
        pos = len(self.drawn)
        if pos < len(self._faces):
            face = self._faces[pos]
            if not low <= face <= high:
                raise EngineError(msg("matter.logged.mismatch"))
        else:
            self.overflowed = True
            face = low
        self.drawn.append(face)
        return face


def run_logged(
    operation: Callable[[RandomSource], R],
    rolls_of: Callable[[R], Sequence[Event]],
    logged: Sequence[Sequence[int]],
) -> NeedsRoll | Done[R]:
    """Run ``operation`` on the ``logged`` rolls' faces (one sequence per roll, in order).

    ``rolls_of`` lists the result's events that carry a roll, in the order drawn. Raises
    ``EngineError`` when the log's faces do not fit the rolls the rules made (a bug, or a log
    that is not this operation's).
    """
    source = _LoggedSource([f for faces in logged for f in faces])
    result = operation(source)
    rolls = [event for event in rolls_of(result) if event.roll is not None]
    drawn = [f for event in rolls if event.roll is not None for f in event.roll.faces]
    if drawn != source.drawn or len(rolls) < len(logged):
        raise EngineError(msg("matter.logged.mismatch"))
    for event, faces in zip(rolls, logged, strict=False):
        assert event.roll is not None
        if tuple(event.roll.faces) != tuple(faces):
            raise EngineError(msg("matter.logged.mismatch"))
    if len(rolls) > len(logged):
        event = rolls[len(logged)]
        assert event.roll is not None
        return NeedsRoll(event.roll.notation, event)
    if source.overflowed:
        raise EngineError(msg("matter.logged.mismatch"))
    return Done(result)
