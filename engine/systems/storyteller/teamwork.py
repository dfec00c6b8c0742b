"""Teamwork: several characters roll separately and their successes are summed (seed 003).

«Игроки бросают доступные им кубики и прибавляют выброшенные ими успехи (игроки не могут при
этом делиться друг с другом своими кубиками)». The Storyteller sets how many may join.

* simple task (``target=None``, as in the seed's example: Томас 1 + Марс'хия 2 = 3): one turn,
  the sum is the team's net successes and its degree;
* extended task (a target of 3..20): turn after turn the sums accumulate, as an extended action.

DECISIONS (the seed is silent): a member's botch never subtracts from the others' successes;
in a simple task the team botches only when the sum is 0 and someone botched; in an extended
task any botch wipes the team's tally, as the extended-action rule says for any roll.
A turn is scored when every member has rolled, or when the Storyteller closes it early
(``close_teamwork_turn``: members who did not roll add nothing) — players post at their pace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.common import SheetModel
from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.text import msg, register_messages

from .actions import (
    ActionStatus,
    check_index,
    check_target,
    check_turn_limit,
    require_active,
)
from .rolls import (
    DEFAULT_DIFFICULTY,
    Degree,
    PoolRoll,
    RollRecord,
    check_difficulty,
    degree_of,
    roll_pool,
)

register_messages(
    {
        "storyteller.team.empty": {
            "ru": "В команде должен быть хотя бы один участник.",
            "en": "A team needs at least one member.",
        },
        "storyteller.team.full": {
            "ru": "Участников больше, чем разрешил Рассказчик (не больше {limit}).",
            "en": "The Storyteller allows at most {limit} members.",
        },
        "storyteller.team.duplicate": {
            "ru": "{label} уже в команде.",
            "en": "{label} is already on the team.",
        },
        "storyteller.team.mid_turn": {
            "ru": "Присоединиться можно только между раундами.",
            "en": "Members can only join between turns.",
        },
        "storyteller.team.nobody_rolled": {
            "ru": "В этом раунде ещё никто не бросал.",
            "en": "Nobody has rolled this turn yet.",
        },
    }
)


class TeamTurn(SheetModel):
    """One scored turn: each member's roll (``None`` = did not roll) and what it added."""

    rolls: tuple[RollRecord | None, ...]
    gained: int
    wiped: bool = False


class TeamworkAction(SheetModel):
    """A team effort in progress."""

    members: tuple[str, ...]
    difficulty: int = DEFAULT_DIFFICULTY
    target: int | None = None
    turn_limit: int | None = None
    max_members: int | None = None
    total: int = 0
    pending: tuple[RollRecord | None, ...] = ()
    turns: tuple[TeamTurn, ...] = ()
    status: ActionStatus = ActionStatus.ACTIVE

    @property
    def degree(self) -> Degree | None:
        return degree_of(self.total)


@dataclass(frozen=True)
class TeamworkStep:
    member: int
    roll: PoolRoll
    turn: TeamTurn | None
    """Set when this roll completed the turn."""
    total: int
    status: ActionStatus


def _check_members(members: Sequence[str], max_members: int | None) -> None:
    if not members:
        raise RuleViolation(msg("storyteller.team.empty"))
    if max_members is not None and len(members) > max_members:
        raise RuleViolation(msg("storyteller.team.full", limit=max_members))
    seen: set[str] = set()
    for label in members:
        if label in seen:
            raise RuleViolation(msg("storyteller.team.duplicate", label=label))
        seen.add(label)


def start_teamwork(
    members: Sequence[str],
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    target: int | None = None,
    turn_limit: int | None = None,
    max_members: int | None = None,
) -> TeamworkAction:
    """Begin a team effort; ``target=None`` is a simple task settled in one turn."""
    _check_members(members, max_members)
    check_difficulty(difficulty)
    if target is not None:
        check_target(target)
    check_turn_limit(turn_limit)
    return TeamworkAction(
        members=tuple(members),
        difficulty=difficulty,
        target=target,
        turn_limit=turn_limit,
        max_members=max_members,
        pending=(None,) * len(members),
    )


def join_teamwork(state: TeamworkAction, label: str) -> TeamworkAction:
    """Add a member between turns (within the Storyteller's limit)."""
    require_active(state.status)
    if any(r is not None for r in state.pending):
        raise RuleViolation(msg("storyteller.team.mid_turn"))
    members = (*state.members, label)
    _check_members(members, state.max_members)
    return state.model_copy(update={"members": members, "pending": (None,) * len(members)})


def _status(state: TeamworkAction, total: int, turns: int, botched: bool) -> ActionStatus:
    if state.target is None:
        if total > 0:
            return ActionStatus.SUCCEEDED
        return ActionStatus.BOTCHED if botched else ActionStatus.FAILED
    if total >= state.target:
        return ActionStatus.SUCCEEDED
    if state.turn_limit is not None and turns >= state.turn_limit:
        return ActionStatus.FAILED
    return ActionStatus.ACTIVE


def _score(state: TeamworkAction) -> tuple[TeamworkAction, TeamTurn]:
    outcomes = [r.outcome() for r in state.pending if r is not None]
    botched = any(o.botch for o in outcomes)
    gained = sum(o.achieved for o in outcomes)
    wiped = botched and state.target is not None
    total = 0 if wiped else state.total + gained
    turn = TeamTurn(rolls=state.pending, gained=0 if wiped else gained, wiped=wiped)
    turns = (*state.turns, turn)
    new = state.model_copy(
        update={
            "total": total,
            "turns": turns,
            "pending": (None,) * len(state.members),
            "status": _status(state, total, len(turns), botched),
        }
    )
    return new, turn


def roll_teamwork(
    state: TeamworkAction,
    member: int,
    dice: int,
    source: RandomSource,
    *,
    willpower: bool = False,
) -> tuple[TeamworkAction, TeamworkStep]:
    """Roll for one member this turn; the turn is scored once everybody has rolled."""
    require_active(state.status)
    check_index(member, len(state.members))
    if state.pending[member] is not None:
        raise RuleViolation(msg("storyteller.action.already_rolled", label=state.members[member]))
    roll = roll_pool(source, dice, state.difficulty, willpower=willpower)
    pending = list(state.pending)
    pending[member] = roll.record()
    new = state.model_copy(update={"pending": tuple(pending)})
    turn: TeamTurn | None = None
    if all(r is not None for r in new.pending):
        new, turn = _score(new)
    return new, TeamworkStep(member, roll, turn, new.total, new.status)


def close_teamwork_turn(state: TeamworkAction) -> tuple[TeamworkAction, TeamTurn]:
    """The Storyteller scores the turn now; members who have not rolled add nothing."""
    require_active(state.status)
    if all(r is None for r in state.pending):
        raise RuleViolation(msg("storyteller.team.nobody_rolled"))
    return _score(state)


def abandon_teamwork(state: TeamworkAction) -> TeamworkAction:
    """The team gives up."""
    require_active(state.status)
    return state.model_copy(update={"status": ActionStatus.ABANDONED})
