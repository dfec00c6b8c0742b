"""Who stands in a fight between rounds: the units (solo fighters and teams) of each side.

A table's tracker asks this to offer the next attacker and its targets; the rules stay in
``engine.systems.cliche.fight``.
"""

from __future__ import annotations

from engine.systems.cliche.fight import FighterKind, FightState, Team


def sides(state: FightState) -> tuple[str, ...]:
    """The sides of the fight, in the order their first fighter appears."""
    found: list[str] = []
    for fighter in state.fighters:
        if fighter.side not in found:
            found.append(fighter.side)
    return tuple(found)


def units(state: FightState, side: str) -> tuple[str, ...]:
    """The units of ``side`` that can still attack or be attacked: its teams, then its standing
    fighters who are in no team (vehicles never act alone)."""
    teams = tuple(t.key for t in state.teams if t.side == side)
    solo = tuple(
        f.key
        for f in state.fighters
        if f.side == side
        and not f.out
        and f.kind is not FighterKind.VEHICLE
        and state.team_of(f.key) is None
    )
    return teams + solo


def free_fighters(state: FightState, side: str) -> tuple[str, ...]:
    """Standing fighters of ``side`` in no team: who could form one now."""
    return tuple(k for k in units(state, side) if state.team(k) is None)


def members(state: FightState, unit: str) -> tuple[str, ...]:
    """The fighters of a unit: a team's members (leader first), or the fighter itself."""
    team: Team | None = state.team(unit)
    if team is None:
        return (unit,)
    rest = tuple(m.fighter for m in team.members if m.fighter != team.leader)
    return (team.leader, *rest)


def other_side(state: FightState, side: str) -> str | None:
    """The opposing side in a two-sided fight (``None`` if there is none)."""
    return next((s for s in sides(state) if s != side), None)
