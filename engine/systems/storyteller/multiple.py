"""Multiple actions in one turn: split the smallest of the pools between them (seed 003).

«Вы должны выбрать самый маленький из доступных вам бросков и распределить кубики между
предполагаемыми действиями. После этого делайте отдельные броски для каждого действия.»
Each action is then rolled on its own, in any order; one may succeed while another fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.text import msg, register_messages

from .actions import check_index
from .rolls import DEFAULT_DIFFICULTY, PoolRoll, RollRecord, check_difficulty, roll_pool

register_messages(
    {
        "storyteller.multiple.too_few": {
            "ru": "Множественное действие — это хотя бы два действия.",
            "en": "A multiple action needs at least two actions.",
        },
        "storyteller.multiple.bad_split": {
            "ru": "Разделение {split} не подходит: нужно по кубику на действие или больше, "
            "всего не больше {limit} (наименьший запас).",
            "en": "The split {split} does not fit: each action needs at least one die, "
            "{limit} in all at most (the smallest pool).",
        },
        "storyteller.multiple.already_rolled": {
            "ru": "Действие {index} уже брошено.",
            "en": "Action {index} has already been rolled.",
        },
    }
)


@dataclass(frozen=True)
class PlannedAction:
    """One of the actions: its full pool (attribute + ability) and difficulty."""

    label: str
    pool: int
    difficulty: int = DEFAULT_DIFFICULTY


class MultipleEntry(SheetModel):
    label: str
    pool: int
    dice: int
    difficulty: int
    roll: RollRecord | None = None


class MultipleAction(SheetModel):
    """The split and the rolls made so far."""

    entries: tuple[MultipleEntry, ...]

    @property
    def done(self) -> bool:
        return all(entry.roll is not None for entry in self.entries)


@dataclass(frozen=True)
class MultipleStep:
    index: int
    label: str
    roll: PoolRoll
    done: bool


def smallest_pool(actions: Sequence[PlannedAction]) -> int:
    """The dice to split: the smallest pool among the actions."""
    return min(action.pool for action in actions)


def start_multiple(actions: Sequence[PlannedAction], split: Sequence[int]) -> MultipleAction:
    """Split the smallest pool as the player chose (``split[i]`` dice for action ``i``).

    DECISION: the split may leave dice unused (the seed only says the dice are divided), but
    every action gets at least one die and the total never exceeds the smallest pool.
    """
    if len(actions) < 2:
        raise RuleViolation(msg("storyteller.multiple.too_few"))
    limit = smallest_pool(actions)
    if len(split) != len(actions) or min(split) < 1 or sum(split) > limit:
        shown = "+".join(str(n) for n in split)
        raise RuleViolation(msg("storyteller.multiple.bad_split", split=shown, limit=limit))
    for action in actions:
        check_difficulty(action.difficulty)
    entries = tuple(
        MultipleEntry(label=a.label, pool=a.pool, dice=n, difficulty=a.difficulty)
        for a, n in zip(actions, split, strict=True)
    )
    return MultipleAction(entries=entries)


def roll_multiple(
    state: MultipleAction, index: int, source: RandomSource, *, willpower: bool = False
) -> tuple[MultipleAction, MultipleStep]:
    """Roll action ``index`` (0-based) with its share of the dice."""
    check_index(index, len(state.entries))
    entry = state.entries[index]
    if entry.roll is not None:
        raise RuleViolation(msg("storyteller.multiple.already_rolled", index=index + 1))
    roll = roll_pool(source, entry.dice, entry.difficulty, willpower=willpower)
    entries = list(state.entries)
    entries[index] = entry.model_copy(update={"roll": roll.record()})
    new = MultipleAction(entries=tuple(entries))
    return new, MultipleStep(index, entry.label, roll, new.done)
