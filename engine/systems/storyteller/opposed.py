"""Opposed actions, plain and extended (seed 003).

Plain: both sides roll (in any order — play-by-post); «каждый успех, выброшенный проигравшим,
отнимает один из успехов выигравшего»: the winner's remainder is the degree. DECISION (SPEC):
equal successes — nobody prevails. A side that botched counts 0 successes against the other.

Extended: each turn both roll; the excess of the turn's winner is added to its tally; the first
to reach the target wins (seed: 4v3, 3v5, 3v4 → 1:3, Техлана wins at 3). DECISION (the seed is
silent, following its extended-action rule): a botch wipes the botching side's tally.
With a turn limit and neither side at the target when it runs out, nobody wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.text import msg

from .actions import (
    ActionStatus,
    check_index,
    check_target,
    check_turn_limit,
    harder,
    require_active,
)
from .rolls import (
    DEFAULT_DIFFICULTY,
    MAX_DIFFICULTY,
    MIN_DIFFICULTY,
    Degree,
    PoolRoll,
    RollRecord,
    check_difficulty,
    degree_of,
    roll_pool,
)

Pair = tuple[int, int]


@dataclass(frozen=True)
class OpposedResolution:
    """Who prevailed (0 or 1, ``None`` on a tie) and by how many successes."""

    winner: int | None
    margin: int
    degree: Degree | None
    nets: Pair


def resolve_nets(first: int, second: int) -> OpposedResolution:
    """Cancel the loser's successes against the winner's (botches count as 0)."""
    a, b = max(0, first), max(0, second)
    if a == b:
        return OpposedResolution(None, 0, None, (first, second))
    winner = 0 if a > b else 1
    margin = abs(a - b)
    return OpposedResolution(winner, margin, degree_of(margin), (first, second))


class OpposedAction(SheetModel):
    """A plain opposed action: each side's difficulty and roll (``None`` until made)."""

    labels: tuple[str, str]
    difficulties: Pair = (DEFAULT_DIFFICULTY, DEFAULT_DIFFICULTY)
    rolls: tuple[RollRecord | None, RollRecord | None] = (None, None)

    @property
    def done(self) -> bool:
        return all(roll is not None for roll in self.rolls)


@dataclass(frozen=True)
class OpposedStep:
    side: int
    roll: PoolRoll
    resolution: OpposedResolution | None
    """Set once both sides have rolled."""


def mirrored_difficulties(pools: Pair) -> Pair:
    """Each side's difficulty = the opponent's pool, clamped to 2..10 (the seed's wrestling
    example: «Се'хан бросает шесть кубиков по пятой сложности, а Лира – пять кубиков по
    шестой»). The Storyteller may set any difficulties instead."""
    return _clamp(pools[1]), _clamp(pools[0])


def _clamp(pool: int) -> int:
    return max(MIN_DIFFICULTY, min(MAX_DIFFICULTY, pool))


def _check_difficulties(difficulties: Pair) -> None:
    for difficulty in difficulties:
        check_difficulty(difficulty)


def start_opposed(
    labels: tuple[str, str], difficulties: Pair = (DEFAULT_DIFFICULTY, DEFAULT_DIFFICULTY)
) -> OpposedAction:
    """Begin a plain opposed action; the Storyteller sets each side's difficulty."""
    _check_difficulties(difficulties)
    return OpposedAction(labels=labels, difficulties=difficulties)


def _with(
    pair: tuple[RollRecord | None, RollRecord | None], side: int, roll: RollRecord
) -> tuple[RollRecord | None, RollRecord | None]:
    return (roll, pair[1]) if side == 0 else (pair[0], roll)


def _roll_side(
    labels: tuple[str, str],
    pending: tuple[RollRecord | None, RollRecord | None],
    difficulties: Pair,
    side: int,
    dice: int,
    source: RandomSource,
    willpower: bool,
) -> PoolRoll:
    check_index(side, 2)
    if pending[side] is not None:
        raise RuleViolation(msg("storyteller.action.already_rolled", label=labels[side]))
    return roll_pool(source, dice, difficulties[side], willpower=willpower)


def _nets(rolls: tuple[RollRecord | None, RollRecord | None]) -> Pair:
    first, second = rolls
    assert first is not None and second is not None
    return first.outcome().net, second.outcome().net


def roll_opposed(
    state: OpposedAction,
    side: int,
    dice: int,
    source: RandomSource,
    *,
    willpower: bool = False,
) -> tuple[OpposedAction, OpposedStep]:
    """Roll for side 0 or 1; the resolution comes with the second roll."""
    roll = _roll_side(state.labels, state.rolls, state.difficulties, side, dice, source, willpower)
    new = state.model_copy(update={"rolls": _with(state.rolls, side, roll.record())})
    resolution = resolve_opposed(new) if new.done else None
    return new, OpposedStep(side, roll, resolution)


def resolve_opposed(state: OpposedAction) -> OpposedResolution:
    """The outcome once both sides have rolled."""
    if not state.done:
        raise RuleViolation(msg("storyteller.action.not_finished"))
    return resolve_nets(*_nets(state.rolls))


def retry_opposed(state: OpposedAction, side: int) -> OpposedAction:
    """The loser tries again: a fresh contest with that side one step harder."""
    check_index(side, 2)
    resolution = resolve_opposed(state)
    if resolution.winner == side:
        raise RuleViolation(msg("storyteller.action.no_retry"))
    difficulties = _bump(state.difficulties, side)
    return OpposedAction(labels=state.labels, difficulties=difficulties)


def _bump(difficulties: Pair, side: int) -> Pair:
    bumped = harder(difficulties[side])
    return (bumped, difficulties[1]) if side == 0 else (difficulties[0], bumped)


class OpposedTurn(SheetModel):
    """One finished turn of an opposed extended action."""

    rolls: tuple[RollRecord, RollRecord]
    winner: int | None
    excess: int
    wiped: tuple[bool, bool] = (False, False)


class OpposedExtendedAction(SheetModel):
    """Both sides race to ``target`` successes; ``pending`` holds this turn's rolls so far."""

    labels: tuple[str, str]
    target: int
    difficulties: Pair = (DEFAULT_DIFFICULTY, DEFAULT_DIFFICULTY)
    turn_limit: int | None = None
    tallies: Pair = (0, 0)
    pending: tuple[RollRecord | None, RollRecord | None] = (None, None)
    turns: tuple[OpposedTurn, ...] = ()
    status: ActionStatus = ActionStatus.ACTIVE
    winner: int | None = None


@dataclass(frozen=True)
class OpposedExtendedStep:
    side: int
    roll: PoolRoll
    turn: OpposedTurn | None
    """Set when this roll completed the turn."""
    tallies: Pair
    status: ActionStatus
    winner: int | None


def start_opposed_extended(
    labels: tuple[str, str],
    target: int,
    *,
    difficulties: Pair = (DEFAULT_DIFFICULTY, DEFAULT_DIFFICULTY),
    turn_limit: int | None = None,
) -> OpposedExtendedAction:
    """Begin an opposed extended action: first to ``target`` successes wins."""
    check_target(target)
    _check_difficulties(difficulties)
    check_turn_limit(turn_limit)
    return OpposedExtendedAction(
        labels=labels, target=target, difficulties=difficulties, turn_limit=turn_limit
    )


def _close_turn(state: OpposedExtendedAction) -> tuple[OpposedExtendedAction, OpposedTurn]:
    first, second = state.pending
    assert first is not None and second is not None
    nets = _nets(state.pending)
    resolution = resolve_nets(*nets)
    wiped = (nets[0] < 0, nets[1] < 0)
    tallies = [0 if wiped[i] else state.tallies[i] for i in (0, 1)]
    if resolution.winner is not None:
        tallies[resolution.winner] += resolution.margin
    turn = OpposedTurn(
        rolls=(first, second), winner=resolution.winner, excess=resolution.margin, wiped=wiped
    )
    turns = (*state.turns, turn)
    status, winner = ActionStatus.ACTIVE, None
    reached = [i for i in (0, 1) if tallies[i] >= state.target]
    if reached:
        status, winner = ActionStatus.SUCCEEDED, reached[0]
    elif state.turn_limit is not None and len(turns) >= state.turn_limit:
        status = ActionStatus.FAILED
    new = state.model_copy(
        update={
            "tallies": (tallies[0], tallies[1]),
            "pending": (None, None),
            "turns": turns,
            "status": status,
            "winner": winner,
        }
    )
    return new, turn


def roll_opposed_extended(
    state: OpposedExtendedAction,
    side: int,
    dice: int,
    source: RandomSource,
    *,
    willpower: bool = False,
) -> tuple[OpposedExtendedAction, OpposedExtendedStep]:
    """Roll side 0 or 1 for the current turn; the turn is scored when both have rolled."""
    require_active(state.status)
    roll = _roll_side(
        state.labels, state.pending, state.difficulties, side, dice, source, willpower
    )
    new = state.model_copy(update={"pending": _with(state.pending, side, roll.record())})
    turn: OpposedTurn | None = None
    if all(r is not None for r in new.pending):
        new, turn = _close_turn(new)
    return new, OpposedExtendedStep(side, roll, turn, new.tallies, new.status, new.winner)


def abandon_opposed_extended(state: OpposedExtendedAction, side: int) -> OpposedExtendedAction:
    """One side gives up (looks away first): the other side wins."""
    require_active(state.status)
    check_index(side, 2)
    return state.model_copy(
        update={"status": ActionStatus.SUCCEEDED, "winner": 1 - side, "pending": (None, None)}
    )


def retry_opposed_extended(state: OpposedExtendedAction, side: int) -> OpposedExtendedAction:
    """The losing side starts a new series one step harder."""
    if state.status is ActionStatus.ACTIVE or state.winner == side:
        raise RuleViolation(msg("storyteller.action.no_retry"))
    return start_opposed_extended(
        state.labels,
        state.target,
        difficulties=_bump(state.difficulties, side),
        turn_limit=state.turn_limit,
    )
