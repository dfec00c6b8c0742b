"""Extended action: accumulate a target of 3..20 successes over several rolls (seed 003).

* each roll adds its net successes (a failure adds nothing);
* «Если хотя бы один бросок во время продолжительного броска провален, то все накопленные
  успехи теряются» — a botch wipes the tally; with ``botch_ends`` the Storyteller has ruled
  that a botch also makes the task impossible (status ``BOTCHED``);
* an optional limit in turns: reaching it short of the target fails the action;
* trying again after failing is a whole new series at +1 difficulty (``retry_extended``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.text import msg

from .actions import (
    ActionStatus,
    check_target,
    check_turn_limit,
    harder,
    require_active,
)
from .rolls import DEFAULT_DIFFICULTY, PoolRoll, RollRecord, check_difficulty, roll_pool


class ExtendedAction(SheetModel):
    """An extended action in progress."""

    target: int
    difficulty: int = DEFAULT_DIFFICULTY
    turn_limit: int | None = None
    botch_ends: bool = False
    accumulated: int = 0
    rolls: tuple[RollRecord, ...] = ()
    status: ActionStatus = ActionStatus.ACTIVE

    @property
    def turn(self) -> int:
        """Rolls made so far (one per turn or other unit of time)."""
        return len(self.rolls)


@dataclass(frozen=True)
class ExtendedStep:
    turn: int
    roll: PoolRoll
    gained: int
    lost: int
    """Successes wiped by a botch on this roll."""
    accumulated: int
    status: ActionStatus


def start_extended(
    target: int,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    turn_limit: int | None = None,
    botch_ends: bool = False,
) -> ExtendedAction:
    """Begin an extended action needing ``target`` successes."""
    check_target(target)
    check_difficulty(difficulty)
    check_turn_limit(turn_limit)
    return ExtendedAction(
        target=target, difficulty=difficulty, turn_limit=turn_limit, botch_ends=botch_ends
    )


def _status_after(state: ExtendedAction, accumulated: int, turn: int, botch: bool) -> ActionStatus:
    if botch and state.botch_ends:
        return ActionStatus.BOTCHED
    if accumulated >= state.target:
        return ActionStatus.SUCCEEDED
    if state.turn_limit is not None and turn >= state.turn_limit:
        return ActionStatus.FAILED
    return ActionStatus.ACTIVE


def roll_extended(
    state: ExtendedAction, dice: int, source: RandomSource, *, willpower: bool = False
) -> tuple[ExtendedAction, ExtendedStep]:
    """Make the next roll of the series."""
    require_active(state.status)
    roll = roll_pool(source, dice, state.difficulty, willpower=willpower)
    if roll.botch:
        gained, lost, accumulated = 0, state.accumulated, 0
    else:
        gained, lost, accumulated = roll.achieved, 0, state.accumulated + roll.achieved
    turn = state.turn + 1
    status = _status_after(state, accumulated, turn, roll.botch)
    new = state.model_copy(
        update={
            "accumulated": accumulated,
            "rolls": (*state.rolls, roll.record()),
            "status": status,
        }
    )
    return new, ExtendedStep(turn, roll, gained, lost, accumulated, status)


def abandon_extended(state: ExtendedAction) -> ExtendedAction:
    """The character gives up, or the Storyteller ends the task."""
    require_active(state.status)
    return state.model_copy(update={"status": ActionStatus.ABANDONED})


def retry_extended(state: ExtendedAction) -> ExtendedAction:
    """A new series after a failed one, one step harder (seed: «сложность ... выше на один»)."""
    if state.status in (ActionStatus.ACTIVE, ActionStatus.SUCCEEDED):
        raise RuleViolation(msg("storyteller.action.no_retry"))
    return start_extended(
        state.target,
        difficulty=harder(state.difficulty),
        turn_limit=state.turn_limit,
        botch_ends=state.botch_ends,
    )
