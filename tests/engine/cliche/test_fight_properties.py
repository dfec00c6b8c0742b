"""Property tests over random fights: dice bookkeeping and team totals."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import SeededSource
from engine.systems.cliche import (
    FighterKind,
    FightState,
    RollOutcome,
    RoundWinner,
    Team,
    assign_damage,
    declare,
    effective_dice,
    fighter_from_character,
    form_team,
    open_round,
    roll_for,
    start_fight,
    vehicle_fighter,
    waiting_for,
)
from tests.engine.cliche.builders import make_character


def _start(with_team: bool) -> FightState:
    specs = [
        ("mal", "crew", (("Капитан", 4), ("Трус", 1)), None),
        ("zoe", "crew", (("Солдат", 3),), ("Бронежилет", 2)),
        ("jayne", "crew", (("Наёмник", 2), ("Громила", 3)), None),
        ("reaver", "reavers", (("Пожиратель", 5),), None),
        ("brute", "reavers", (("Дикарь", 3), ("Крикун", 2)), ("Шкура", 1)),
    ]
    fighters = [
        fighter_from_character(
            make_character(key, *cliches, armor=armor),
            key=key,
            side=side,
            appropriate=[n for n, _ in cliches],
        )
        for key, side, cliches, armor in specs
    ]
    if not with_team:
        return start_fight(fighters)
    mule = vehicle_fighter(
        key="mule", name="Мул", side="crew", armor_dice=2, weapons=[("Пулемёт", 1)]
    )
    state = start_fight([*fighters, mule])
    members = [("zoe", "Солдат"), ("mal", "Капитан"), ("mule", "Броня")]
    state, _ = form_team(state, "serenity", members)
    return state


def _units(state: FightState, side: str) -> list[str]:
    teams = [t.key for t in state.teams if t.side == side]
    alone = [
        f.key
        for f in state.fighters
        if f.side == side
        and not f.out
        and state.team_of(f.key) is None
        and f.kind is not FighterKind.VEHICLE
    ]
    return teams + alone


def _expected_total(team: Team | None, unit: str, rolls: list[RollOutcome]) -> int:
    if team is None:
        return sum(sum(r.faces) for r in rolls if r.fighter == unit)
    members = {m.fighter for m in team.members}
    leader = sum(sum(r.faces) for r in rolls if r.fighter == team.leader)
    sixes = sum(
        face
        for r in rolls
        if r.fighter in members - {team.leader}
        for face in r.faces
        if face == 6
    )
    return leader + sixes


def _check_bookkeeping(state: FightState, initial: dict[tuple[str, str], int]) -> None:
    logged = Counter[tuple[str, str]]()
    for record in state.losses:
        logged[(record.fighter, record.cliche)] += record.dice
    for fighter in state.fighters:
        for item in fighter.cliches:
            cliche = item.cliche
            assert 0 <= cliche.lost <= cliche.dice  # lost dice never exceed the cliché
            assert (
                cliche.lost - initial[(fighter.key, cliche.name)]
                == logged[(fighter.key, cliche.name)]
            )


def _play_round(state: FightState, data: st.DataObject, source: SeededSource) -> FightState:
    sides = sorted({f.side for f in state.fighters})
    attacker_side = data.draw(st.sampled_from(sides))
    defender_side = next(s for s in sides if s != attacker_side)
    attacker = data.draw(st.sampled_from(_units(state, attacker_side)))
    defender = data.draw(st.sampled_from(_units(state, defender_side)))
    teams = {unit: state.team(unit) for unit in (attacker, defender)}
    state = open_round(state, attacker, defender, graded=data.draw(st.booleans()))
    for key in waiting_for(state):
        fighter = state.fighter(key)
        team = state.team_of(key)
        usable = [
            c.cliche.name
            for c in fighter.cliches
            if not c.cliche.armor and effective_dice(c.cliche) > 0
        ]
        cliche = team.member(key).cliche if team else data.draw(st.sampled_from(usable))
        weapon = "Пулемёт" if team and data.draw(st.booleans()) else None
        state = declare(state, key, cliche, pump=data.draw(st.integers(0, 2)), weapon=weapon)
    for _ in range(20):  # ties roll again
        rolls: list[RollOutcome] = []
        for key in waiting_for(state):
            state, outcome = roll_for(state, key, source)
            rolls.append(outcome)
        resolution = rolls[-1].resolution
        assert resolution is not None
        # a team's total is the leader's sum plus the members' sixes
        assert resolution.attacker_total == _expected_total(teams[attacker], attacker, rolls)
        assert resolution.defender_total == _expected_total(teams[defender], defender, rolls)
        if resolution.damage.winner is not RoundWinner.TIE:
            return state
    return state


def _assign(state: FightState, data: st.DataObject) -> FightState:
    assert state.pending is not None
    team = state.team(state.pending.team)
    assert team is not None
    members = [
        m.fighter
        for m in team.members
        if not state.fighter(m.fighter).out and (m.fighter != "mule" or _current_hull(state) > 0)
    ]
    target = data.draw(st.sampled_from(members))
    others = [m for m in members if m not in (target, "mule")]
    shield = data.draw(st.sampled_from([None, *others]))
    state, _ = assign_damage(state, target, shield_by=shield)
    return state


def _current_hull(state: FightState) -> int:
    return state.fighter("mule").get("Броня").cliche.current


@settings(max_examples=40, deadline=None, database=None)
@given(data=st.data(), seed=st.integers(0, 10**9), with_team=st.booleans())
def test_property_random_fights_keep_the_books(
    data: st.DataObject, seed: int, with_team: bool
) -> None:
    source = SeededSource(seed)
    state = _start(with_team)
    initial = {(f.key, c.cliche.name): c.cliche.lost for f in state.fighters for c in f.cliches}
    for _ in range(15):
        if state.finished:
            break
        state = _play_round(state, data, source)
        _check_bookkeeping(state, initial)
        while state.pending is not None:
            state = _assign(state, data)
            _check_bookkeeping(state, initial)
        assert FightState.model_validate(state.model_dump(mode="json")) == state
    standing = {f.side for f in state.fighters if not f.out and f.key != "mule"}
    assert state.finished == (len(standing) < 2)
