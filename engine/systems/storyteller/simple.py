"""Simple action with retries: each new try after a failure is +1 difficulty (seed 003).

The seed: «Рассказчик может прибавлять один пункт к сложности каждого последующего броска ...
Персонаж добивается своей цели после первого же успешного броска.» The Storyteller may also
forbid further tries (``forbid_retry``) or not escalate (``escalate=False``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.text import msg, register_messages

from .actions import ActionStatus, check_turn_limit, require_active
from .rolls import (
    DEFAULT_DIFFICULTY,
    PoolRoll,
    RollRecord,
    automatic_success,
    check_difficulty,
    retry_difficulty,
    roll_pool,
)

register_messages(
    {
        "storyteller.simple.auto_only_first": {
            "ru": "Автоматический успех возможен только вместо первой попытки.",
            "en": "An automatic success can only replace the first attempt.",
        },
    }
)


class SimpleAction(SheetModel):
    """A simple action and its attempts so far."""

    difficulty: int = DEFAULT_DIFFICULTY
    escalate: bool = True
    max_attempts: int | None = None
    attempts: tuple[RollRecord, ...] = ()
    status: ActionStatus = ActionStatus.ACTIVE


@dataclass(frozen=True)
class SimpleStep:
    attempt: int
    roll: PoolRoll
    status: ActionStatus


def start_simple(
    difficulty: int = DEFAULT_DIFFICULTY,
    *,
    escalate: bool = True,
    max_attempts: int | None = None,
) -> SimpleAction:
    """Begin a simple action; ``max_attempts=None`` lets the player retry until they stop."""
    check_difficulty(difficulty)
    check_turn_limit(max_attempts)
    return SimpleAction(difficulty=difficulty, escalate=escalate, max_attempts=max_attempts)


def current_difficulty(state: SimpleAction) -> int:
    """Difficulty of the next attempt."""
    if not state.escalate:
        return state.difficulty
    return retry_difficulty(state.difficulty, len(state.attempts) + 1)


def _after(state: SimpleAction, roll: PoolRoll) -> tuple[SimpleAction, SimpleStep]:
    attempts = (*state.attempts, roll.record())
    status = ActionStatus.ACTIVE
    if roll.net > 0:
        status = ActionStatus.SUCCEEDED
    elif state.max_attempts is not None and len(attempts) >= state.max_attempts:
        status = ActionStatus.FAILED
    new = state.model_copy(update={"attempts": attempts, "status": status})
    return new, SimpleStep(len(attempts), roll, status)


def roll_simple(
    state: SimpleAction, dice: int, source: RandomSource, *, willpower: bool = False
) -> tuple[SimpleAction, SimpleStep]:
    """Make the next attempt."""
    require_active(state.status)
    return _after(state, roll_pool(source, dice, current_difficulty(state), willpower=willpower))


def succeed_automatically(state: SimpleAction, dice: int) -> tuple[SimpleAction, SimpleStep]:
    """The Storyteller grants an automatic success (pool > difficulty) instead of a roll."""
    require_active(state.status)
    if state.attempts:
        raise RuleViolation(msg("storyteller.simple.auto_only_first"))
    return _after(state, automatic_success(dice, state.difficulty))


def forbid_retry(state: SimpleAction) -> SimpleAction:
    """The Storyteller rules that further tries are pointless: the action has failed."""
    require_active(state.status)
    return state.model_copy(update={"status": ActionStatus.FAILED})
