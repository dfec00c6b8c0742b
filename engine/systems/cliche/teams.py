"""Teams (группировка): leader choice, the team total, shielding and disbanding costs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.dice.source import RandomSource
from engine.errors import RuleViolation
from engine.systems.cliche.rolls import ClicheRoll, roll_pool
from engine.text import msg

#: Dice every member loses when a team disbands or loses its leader («понижает их клише на
#: одну кость»).
DISBAND_LOSS = 1
#: A shielding member takes this multiple of the damage («в двойном объеме»).
SHIELD_FACTOR = 2


@dataclass(frozen=True)
class TeamCandidate:
    """A would-be member: its key, the dice of the cliché it fights with, whether that cliché
    is appropriate, and whether it may lead (a vehicle's hull never leads)."""

    key: str
    dice: int
    appropriate: bool
    can_lead: bool = True


def choose_leader(candidates: Sequence[TeamCandidate], *, preferred: str | None = None) -> str:
    """The key of the team's leader: the member with the highest cliché.

    All clichés must be equally appropriate or equally inappropriate. When several members
    share the highest cliché, ``preferred`` picks among them (the players' choice); otherwise
    the first of them leads (DECISION: the seed names no tie-break).
    """
    if len(candidates) < 2:
        raise RuleViolation(msg("cliche.team.too_small"))
    if len({c.appropriate for c in candidates if c.can_lead}) > 1:
        raise RuleViolation(msg("cliche.team.mixed_appropriateness"))
    eligible = [c for c in candidates if c.can_lead and c.dice > 0]
    if not eligible:
        raise RuleViolation(msg("cliche.team.no_leader"))
    top = max(c.dice for c in eligible)
    best = [c.key for c in eligible if c.dice == top]
    if preferred is None:
        return best[0]
    if preferred not in best:
        raise RuleViolation(msg("cliche.team.leader_not_highest", dice=top))
    return preferred


def member_contribution(faces: Iterable[int]) -> int:
    """A non-leader adds only the sixes it rolled («прибавляют лишь выпавшие у них шестерки»)."""
    return sum(face for face in faces if face == 6)


def team_total(leader_faces: Iterable[int], members_faces: Iterable[Iterable[int]]) -> int:
    """The leader's sum plus every member's sixes."""
    return sum(leader_faces) + sum(member_contribution(faces) for faces in members_faces)


def member_notation(dice: int) -> str:
    """Dice notation of a member's share: six times the count of sixes."""
    return f"6*({dice}d6>=6)"


@dataclass(frozen=True)
class TeamRoll:
    """A whole team's roll: the leader's, then each member's (in order), and the total."""

    leader: ClicheRoll
    members: tuple[ClicheRoll, ...]
    total: int
    notation: str
    faces: tuple[int, ...]


def roll_team(source: RandomSource, leader_dice: int, member_dice: Sequence[int]) -> TeamRoll:
    """Everyone rolls; the leader sums all dice, the others add only sixes."""
    leader = roll_pool(source, leader_dice)
    members = tuple(roll_pool(source, dice) for dice in member_dice)
    notation = "+".join([leader.notation, *(member_notation(d) for d in member_dice)])
    return TeamRoll(
        leader=leader,
        members=members,
        total=team_total(leader.faces, (m.faces for m in members)),
        notation=notation,
        faces=leader.faces + tuple(face for m in members for face in m.faces),
    )


def shielded_loss(dice: int) -> int:
    """What a member who shields a comrade loses: double («две или шесть костей»)."""
    return dice * SHIELD_FACTOR
