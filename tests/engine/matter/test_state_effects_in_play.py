"""What the bot asks the engine before a matter roll or a Health change (issue 22 item 5):
the pool a skill throws under the states, which state fixed it at one die, and damage counted
from the Health the states leave."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems.matter import (
    ActiveState,
    Character,
    StateId,
    action_dice,
    apply_damage,
    effective_trait,
    new_character,
    one_die_state,
    roll_action,
)
from engine.systems.matter.traits import ActionKind, Skill, Trait, skill_kind


def hero(*states: StateId, health: int = 5) -> Character:
    return new_character("Кай").model_copy(
        update={
            "skills": {Skill.BRUTALITY.value: 3, Skill.INTELLECT.value: 2},
            "health": health,
            "health_max": 5,
            "states": tuple(ActiveState(state=s) for s in states),
        }
    )


@pytest.mark.parametrize(
    ("states", "skill", "modifier", "kind", "dice", "by"),
    [
        ((), Skill.BRUTALITY, 0, None, 3, None),
        ((), Skill.BRUTALITY, 1, None, 4, None),
        ((), Skill.BRUTALITY, -4, None, -1, None),  # a chance roll
        ((StateId.MINI,), Skill.BRUTALITY, 0, None, 1, StateId.MINI),
        ((StateId.MINI,), Skill.BRUTALITY, 2, None, 1, StateId.MINI),  # modifiers ignored
        ((StateId.MINI,), Skill.INTELLECT, 0, None, 2, None),  # mental: Мини leaves it
        ((StateId.MINI,), Skill.INTELLECT, 0, ActionKind.MATTER, 1, StateId.MINI),
        ((StateId.FROG,), Skill.INTELLECT, 1, None, 1, StateId.FROG),
        ((StateId.FROG, StateId.MINI), Skill.INTELLECT, 0, ActionKind.MATTER, 1, StateId.FROG),
        # Окаменелость pauses the other states: Мини's single die is suspended with it.
        ((StateId.MINI, StateId.PETRIFIED), Skill.BRUTALITY, 0, None, 3, None),
    ],
)
def test_action_dice(
    states: tuple[StateId, ...], skill: Skill, modifier: int, kind: ActionKind | None,
    dice: int, by: StateId | None,
) -> None:  # fmt: skip
    ch = hero(*states)
    found = action_dice(ch, skill, modifier=modifier, kind=kind)
    assert (found.dice, found.one_die_by, found.chance) == (dice, by, dice <= 0)
    assert found.dots == effective_trait(ch, skill)
    assert one_die_state(ch, kind or skill_kind(skill)) is by
    if dice > 0:  # the same pool roll_action throws (ones: no 10-again)
        rolled = roll_action(ch, skill, ScriptedSource([1] * 9), bonus=modifier, kind=kind)
        assert rolled.base_dice == dice


def test_damage_counts_from_the_health_mini_leaves() -> None:
    ch = hero(StateId.MINI)
    assert effective_trait(ch, Trait.HEALTH) == 2
    hurt, events = apply_damage(ch, 1, ScriptedSource([]))
    assert hurt.health == 1 and effective_trait(hurt, Trait.HEALTH) == 1
    assert (events[0].changes[0].before, events[0].changes[0].after) == (2, 1)
    down, events = apply_damage(hurt, 1, ScriptedSource([]))
    assert down.health == 0 and down.has_state(StateId.CRIPPLED)


def test_damage_without_states_is_unchanged() -> None:
    hurt, _ = apply_damage(hero(), 2, ScriptedSource([]))
    assert hurt.health == 3
