"""Teams: leader choice and the team total."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import RuleViolation
from engine.systems.cliche import (
    TeamCandidate,
    choose_leader,
    member_contribution,
    roll_team,
    shielded_loss,
    team_total,
)


def test_leader_is_the_highest_cliche() -> None:
    # «определяется командный лидер с самым высокоранговым уместным клише в команде»
    candidates = [
        TeamCandidate("zoe", 3, True),
        TeamCandidate("mal", 4, True),
        TeamCandidate("jayne", 2, True),
    ]
    assert choose_leader(candidates) == "mal"


def test_leader_tie_break() -> None:
    candidates = [TeamCandidate("zoe", 4, True), TeamCandidate("mal", 4, True)]
    assert choose_leader(candidates) == "zoe"
    assert choose_leader(candidates, preferred="mal") == "mal"
    with pytest.raises(RuleViolation) as caught:
        choose_leader([*candidates, TeamCandidate("jayne", 2, True)], preferred="jayne")
    assert caught.value.msg.key == "cliche.team.leader_not_highest"


def test_vehicle_never_leads() -> None:
    candidates = [
        TeamCandidate("serenity", 6, True, can_lead=False),
        TeamCandidate("wash", 3, True),
    ]
    assert choose_leader(candidates) == "wash"


@pytest.mark.parametrize(
    ("candidates", "key"),
    [
        ([TeamCandidate("mal", 4, True)], "cliche.team.too_small"),
        # «они должны быть равно применимыми или неприменимыми»
        (
            [TeamCandidate("mal", 4, True), TeamCandidate("barber", 3, False)],
            "cliche.team.mixed_appropriateness",
        ),
    ],
)
def test_bad_teams(candidates: list[TeamCandidate], key: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        choose_leader(candidates)
    assert caught.value.msg.key == key


def test_inappropriate_team_is_allowed() -> None:
    # «парикмахер, дрессировщик попугаев и советник по карьере, если они по-настоящему хорошо
    # объяснят, как они это делают»
    candidates = [
        TeamCandidate("barber", 3, False),
        TeamCandidate("parrots", 2, False),
        TeamCandidate("adviser", 1, False),
    ]
    assert choose_leader(candidates) == "barber"


def test_team_roll_leader_sums_members_add_sixes() -> None:
    # «командный лидер суммирует все кости, в то время как прочие члены команды прибавляют
    # лишь выпавшие у них шестерки. Члены команды не выбросившие шестерки, не вкладывают в
    # общий итог ничего.»
    outcome = roll_team(ScriptedSource([5, 1, 3, 2, 6, 6, 1, 5, 5]), 4, [3, 2])
    assert outcome.leader.total == 11
    assert [member_contribution(m.faces) for m in outcome.members] == [12, 0]
    assert outcome.total == 23
    assert outcome.notation == "4d6+6*(3d6>=6)+6*(2d6>=6)"
    assert outcome.faces == (5, 1, 3, 2, 6, 6, 1, 5, 5)


def test_shielding_doubles_the_loss() -> None:
    # «доблестный доброволец поражается двойным объемом (две или шесть костей вычитаются …)»
    assert (shielded_loss(1), shielded_loss(3)) == (2, 6)


@settings(max_examples=80, deadline=None, database=None)
@given(
    leader=st.integers(1, 8),
    members=st.lists(st.integers(1, 6), min_size=1, max_size=5),
    seed=st.integers(0, 10**6),
)
def test_property_team_total_is_leader_sum_plus_member_sixes(
    leader: int, members: list[int], seed: int
) -> None:
    outcome = roll_team(SeededSource(seed), leader, members)
    sixes = sum(6 for m in outcome.members for face in m.faces if face == 6)
    assert outcome.total == sum(outcome.leader.faces) + sixes
    assert outcome.total == team_total(outcome.leader.faces, [m.faces for m in outcome.members])
    assert len(outcome.faces) == leader + sum(members)
    assert [len(m.faces) for m in outcome.members] == members
