"""Shared pieces of the action state machines (simple, multiple, extended, opposed, teamwork).

Every action is a ``SheetModel`` state that the bot stores between posts, plus pure step
functions ``(state, …, source) -> (new_state, step_outcome)``: play-by-post is asynchronous, so
each participant's roll is one step and nothing assumes the rolls happen together.
Dice counts are passed per roll (wounds may change between turns); difficulties and targets
are fixed when the Storyteller starts the action.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from engine.errors import RuleViolation
from engine.text import msg, register_messages

from .rolls import MAX_DIFFICULTY, check_difficulty

MIN_EXTENDED_TARGET: Final = 3
MAX_EXTENDED_TARGET: Final = 20

register_messages(
    {
        "storyteller.action.finished": {
            "ru": "Это действие уже завершено.",
            "en": "This action is already over.",
        },
        "storyteller.action.not_finished": {
            "ru": "Это действие ещё не завершено.",
            "en": "This action is not over yet.",
        },
        "storyteller.action.bad_target": {
            "ru": "Нужное число успехов должно быть от {low} до {high}, а не {target}.",
            "en": "The target must be between {low} and {high} successes, not {target}.",
        },
        "storyteller.action.bad_turn_limit": {
            "ru": "Лимит времени должен быть не меньше 1 раунда, а не {limit}.",
            "en": "The time limit must be at least 1 turn, not {limit}.",
        },
        "storyteller.action.no_retry": {
            "ru": "Повторить можно только проваленное действие.",
            "en": "Only a failed action can be tried again.",
        },
        "storyteller.action.bad_index": {
            "ru": "Нет участника или действия с номером {index}.",
            "en": "There is no participant or action number {index}.",
        },
        "storyteller.action.already_rolled": {
            "ru": "{label}: бросок в этом раунде уже сделан.",
            "en": "{label} has already rolled this turn.",
        },
    }
)


class ActionStatus(StrEnum):
    """Where an action stands: still going, or how it ended."""

    ACTIVE = "active"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    """Out of time or out of tries without a success (or a tie nobody won)."""
    BOTCHED = "botched"
    """A botch ended it (the Storyteller ruled the task can no longer succeed)."""
    ABANDONED = "abandoned"


def require_active(status: ActionStatus) -> None:
    if status is not ActionStatus.ACTIVE:
        raise RuleViolation(msg("storyteller.action.finished"))


def check_target(target: int) -> None:
    """Extended targets run 3..20 successes (seed 003)."""
    if not MIN_EXTENDED_TARGET <= target <= MAX_EXTENDED_TARGET:
        raise RuleViolation(
            msg(
                "storyteller.action.bad_target",
                target=target,
                low=MIN_EXTENDED_TARGET,
                high=MAX_EXTENDED_TARGET,
            )
        )


def check_turn_limit(limit: int | None) -> None:
    if limit is not None and limit < 1:
        raise RuleViolation(msg("storyteller.action.bad_turn_limit", limit=limit))


def check_index(index: int, size: int) -> None:
    if not 0 <= index < size:
        raise RuleViolation(msg("storyteller.action.bad_index", index=index))


def harder(difficulty: int) -> int:
    """A repeated extended or opposed series is one step harder (capped at 10)."""
    check_difficulty(difficulty)
    return min(MAX_DIFFICULTY, difficulty + 1)
