"""The state engine's special rules, each with exact dice."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import RuleViolation
from engine.systems.matter import (
    ActionKind,
    ActiveState,
    Character,
    EventKind,
    Modifier,
    Remedy,
    RollPurpose,
    Skill,
    StateId,
    Trait,
    apply_damage,
    apply_state,
    crippled_check,
    cure,
    effective_trait,
    gain_anger,
    heal,
    initiative_order,
    new_character,
    remove_state,
    report,
    roll_action,
    tick,
)


def hero(**update: object) -> Character:
    base = new_character("Герой").model_copy(
        update={
            "skills": {"tenacity": 2, "communication": 1, "cunning": 3, "brutality": 2,
                       "dexterity": 1, "intellect": 2},
            "health": 6,
            "health_max": 6,
            "defence": 2,
            "anger": 2,
            "anger_max": 3,
        }
    )  # fmt: skip
    return base.model_copy(update=update)


def given(ch: Character, state: StateId, **fields: object) -> Character:
    active = ActiveState(state=state, **fields)  # type: ignore[arg-type]
    return ch.model_copy(update={"states": (*ch.states, active)})


def ticks(
    ch: Character, n: int, faces: list[int] | None = None
) -> tuple[Character, list[EventKind]]:
    source = ScriptedSource(faces or [])
    kinds: list[EventKind] = []
    for _ in range(n):
        ch, events = tick(ch, source)
        kinds.extend(e.kind for e in events)
    assert source.remaining == 0
    return ch, kinds


# --- Постепенное окаменение -----------------------------------------------------------------
# Seed: «на 5й раунд раз в ход начинает падать Защита на -1; когда Защита = 0, безусловно
# наступает Состояние Окаменелость, если нет иммунитета.»


def test_petrification_countdown() -> None:
    ch, outcome = apply_state(hero(), StateId.PETRIFICATION, ScriptedSource([]))
    assert outcome.resistance is None  # no resistance
    ch, kinds = ticks(ch, 3)  # ages 2, 3, 4: nothing
    assert kinds == []
    assert effective_trait(ch, Trait.DEFENCE) == 2
    ch, events = tick(ch, ScriptedSource([]))  # age 5: Defence 2 → 1
    assert [(e.kind, e.changes[0].before, e.changes[0].after) for e in events] == [
        (EventKind.PETRIFICATION_STEP, 2, 1)
    ]
    assert effective_trait(ch, Trait.DEFENCE) == 1
    # age 6: Defence 1 → 0 and Окаменелость at once, no roll (the source is empty)
    ch, events = tick(ch, ScriptedSource([]))
    assert [(e.kind, e.state) for e in events] == [
        (EventKind.PETRIFICATION_STEP, StateId.PETRIFICATION),
        (EventKind.APPLIED, StateId.PETRIFIED),
        (EventKind.REMOVED, StateId.PETRIFICATION),
    ]
    assert [s.state for s in ch.states] == [StateId.PETRIFIED]
    assert effective_trait(ch, Trait.HEALTH) == 5
    assert effective_trait(ch, Trait.ARMOR) == 5


def test_petrification_with_defence_already_zero_petrifies_on_round_five() -> None:
    ch, _ = apply_state(hero(defence=0), StateId.PETRIFICATION, ScriptedSource([]))
    ch, kinds = ticks(ch, 3)
    assert kinds == []
    ch, kinds = ticks(ch, 1)
    assert kinds == [EventKind.APPLIED, EventKind.REMOVED]
    assert ch.has_state(StateId.PETRIFIED)


def test_petrification_immune_to_petrified() -> None:
    ch = hero(defence=1, immune_states=(StateId.PETRIFIED,))
    ch, _ = apply_state(ch, StateId.PETRIFICATION, ScriptedSource([]))
    ch, kinds = ticks(ch, 4)
    assert kinds == [EventKind.PETRIFICATION_STEP, EventKind.EXPIRED, EventKind.IMMUNE]
    assert ch.states == ()
    assert effective_trait(ch, Trait.DEFENCE) == 1  # the loss ends with the state


# --- Регенерация ----------------------------------------------------------------------------
# Seed: «каждый ход бросок макс. Здоровье минус текущее Здоровье, успех — +1 ● Здоровье; по
# умолчанию длительность N ходов, где N — макс. Здоровье персонажа.»


def test_regeneration_rolls_each_turn() -> None:
    ch = hero(health=3, health_max=4)
    ch, outcome = apply_state(ch, StateId.REGENERATION, ScriptedSource([9]))  # 1 die: 4 − 3
    regen = outcome.events[-1]
    assert regen.kind is EventKind.REGENERATED
    assert regen.roll is not None and regen.roll.notation == "1d10>=7!"
    assert ch.health == 4
    assert ch.find_state(StateId.REGENERATION) == ActiveState(
        state=StateId.REGENERATION, turns_left=4
    )
    # full Health: pool 0, nothing is rolled (SPEC DECISION), the turns still run out
    ch, kinds = ticks(ch, 3)
    assert kinds == []
    ch, kinds = ticks(ch, 1)
    assert kinds == [EventKind.EXPIRED]


def test_regeneration_pool_is_missing_health() -> None:
    ch = hero(health=2, health_max=6)
    ch, outcome = apply_state(ch, StateId.REGENERATION, ScriptedSource([1, 2, 3, 4]))
    assert outcome.events[-1].kind is EventKind.NO_EFFECT
    assert outcome.events[-1].roll is not None
    assert outcome.events[-1].roll.faces == (1, 2, 3, 4)
    ch, events = tick(ch, ScriptedSource([1, 2, 3, 8]))
    assert [(e.kind, e.purpose) for e in events] == [
        (EventKind.REGENERATED, RollPurpose.REGENERATION)
    ]
    assert ch.health == 3
    ch, events = tick(ch, ScriptedSource([10, 1, 2, 3]))  # 3 dice, the 10 explodes
    assert events[0].roll is not None and events[0].roll.faces == (10, 1, 2, 3)
    assert ch.health == 4  # still +1 only


def test_poison_blocks_regeneration() -> None:
    ch = given(hero(health=5), StateId.POISON)
    ch, outcome = apply_state(ch, StateId.REGENERATION, ScriptedSource([9]))
    assert outcome.events[-1].kind is EventKind.NO_EFFECT
    assert ch.health == 5
    with pytest.raises(RuleViolation):
        heal(ch, 1)


# --- Смертный приговор ----------------------------------------------------------------------
# Seed: «после 5 раунда персонаж получает Нокаут, если нет иммунитета к мгновенной смерти;
# Сопротивление — Упорство в момент получения статуса.»


def test_death_sentence_knocks_out_after_round_five() -> None:
    ch, outcome = apply_state(hero(), StateId.DEATH_SENTENCE, ScriptedSource([1, 2]))
    assert outcome.applied
    ch, kinds = ticks(ch, 4)  # rounds 2..5 of the sentence
    assert kinds == []
    assert not ch.has_state(StateId.KO)
    ch, events = tick(ch, ScriptedSource([]))
    assert [(e.kind, e.state) for e in events] == [
        (EventKind.EXPIRED, StateId.DEATH_SENTENCE),
        (EventKind.APPLIED, StateId.KO),
    ]
    assert ch.health == 0
    assert [s.state for s in ch.states] == [StateId.KO]
    assert [e.origin for e in events] == ["death_sentence", "death_sentence"]


def test_death_sentence_resisted() -> None:
    ch, outcome = apply_state(hero(), StateId.DEATH_SENTENCE, ScriptedSource([1, 7]))
    assert outcome.result is EventKind.RESISTED
    assert ch.states == ()


def test_death_sentence_immune_to_instant_death() -> None:
    ch = given(hero(immune_instant_death=True), StateId.DEATH_SENTENCE, age=5)
    ch, events = tick(ch, ScriptedSource([]))
    assert [(e.kind, e.state) for e in events] == [
        (EventKind.EXPIRED, StateId.DEATH_SENTENCE),
        (EventKind.IMMUNE, StateId.KO),
    ]
    assert ch.health == 6


# --- Нокаут vs Тяжело ранен -------------------------------------------------------------------


def test_ko_each_turn_roll_decides_one_action() -> None:
    ch, outcome = apply_state(hero(), StateId.KO, ScriptedSource([]))  # no roll on gaining
    assert outcome.applied
    assert outcome.events[0].changes[1].before == 6
    assert ch.health == 0
    assert effective_trait(ch, Trait.ATTACK) == 0  # 0 − 2, floored
    ch, events = tick(ch, ScriptedSource([7, 1]))
    assert [(e.kind, e.purpose) for e in events] == [(EventKind.ACTS, RollPurpose.KO_ACTION)]
    ch, events = tick(ch, ScriptedSource([3, 1]))
    assert [e.kind for e in events] == [EventKind.UNCONSCIOUS]


def test_ko_on_crippled_is_replaced_without_resistance() -> None:
    ch = given(hero(health=-1), StateId.CRIPPLED)
    ch, outcome = apply_state(ch, StateId.KO, ScriptedSource([]))
    assert outcome.result is EventKind.REPLACED
    assert [s.state for s in ch.states] == [StateId.CRIPPLED]
    assert ch.health == -1


def test_damage_to_ko_gives_crippled_which_replaces_ko() -> None:
    ch, _ = apply_state(hero(), StateId.KO, ScriptedSource([]))
    ch, events = apply_damage(ch, 2, ScriptedSource([]))
    assert [(e.kind, e.state) for e in events] == [
        (EventKind.HEALTH_CHANGED, None),
        (EventKind.APPLIED, StateId.CRIPPLED),
        (EventKind.REMOVED, StateId.KO),
    ]
    assert [s.state for s in ch.states] == [StateId.CRIPPLED]
    assert ch.health == -2


def test_death_sentence_on_crippled_character() -> None:
    ch = given(given(hero(health=0), StateId.CRIPPLED), StateId.DEATH_SENTENCE, age=5)
    ch, events = tick(ch, ScriptedSource([]))
    assert [e.kind for e in events] == [EventKind.EXPIRED, EventKind.REPLACED]
    assert [s.state for s in ch.states] == [StateId.CRIPPLED]


def test_damage_to_zero_cripples_and_heal_or_medicine_ends_it() -> None:
    ch, events = apply_damage(hero(health=2), 2, ScriptedSource([]))
    assert ch.has_state(StateId.CRIPPLED) and ch.health == 0
    healed, _ = heal(ch, 3)
    assert healed.health == 3 and not healed.has_state(StateId.CRIPPLED)
    treated, events = cure(ch, Remedy.MEDICAL_HELP)
    assert treated.health == 1 and not treated.has_state(StateId.CRIPPLED)
    assert [e.kind for e in events] == [EventKind.REMOVED, EventKind.HEALTH_CHANGED]


def test_crippled_check() -> None:
    ch = given(hero(health=0), StateId.CRIPPLED)
    held, events = crippled_check(ch, ScriptedSource([8, 1]))
    assert events[0].kind is EventKind.HOLDS and held.health == 0
    worse, events = crippled_check(ch, ScriptedSource([2, 1]))
    assert worse.health == -1 and events[0].roll is not None
    spent, events = crippled_check(ch, ScriptedSource([]), spend_willpower=True)
    assert spent.willpower == 2 and events[0].kind is EventKind.WILLPOWER_SPENT
    with pytest.raises(RuleViolation):
        crippled_check(ch.model_copy(update={"willpower": 0}), ScriptedSource([]),
                       spend_willpower=True)  # fmt: skip
    with pytest.raises(RuleViolation):
        crippled_check(hero(), ScriptedSource([]))


# --- Стоп / Ускорение -----------------------------------------------------------------------


def test_stop_removed_by_speedup() -> None:
    ch, outcome = apply_state(hero(), StateId.STOP, ScriptedSource([1, 1]))
    assert outcome.applied
    ch, kinds = ticks(ch, 10)  # lasts until removed
    assert kinds == [] and ch.has_state(StateId.STOP)
    ch, outcome = apply_state(ch, StateId.SPEEDUP, ScriptedSource([]))
    assert [(e.kind, e.state) for e in outcome.events] == [
        (EventKind.APPLIED, StateId.SPEEDUP),
        (EventKind.REMOVED, StateId.STOP),
    ]
    assert [s.state for s in ch.states] == [StateId.SPEEDUP]


def test_speedup_lasts_cunning_turns() -> None:
    ch, _ = apply_state(hero(), StateId.SPEEDUP, ScriptedSource([]))  # Хитрость 3
    ch, kinds = ticks(ch, 2)
    assert kinds == [] and ch.has_state(StateId.SPEEDUP)
    ch, kinds = ticks(ch, 1)
    assert kinds == [EventKind.EXPIRED]


# --- Окаменелость pauses the other states -------------------------------------------------------


def test_petrified_pauses_other_states() -> None:
    ch = given(hero(), StateId.DEATH_SENTENCE, age=3)
    ch = given(ch, StateId.SPEEDUP, turns_left=2)
    ch = given(ch, StateId.REGENERATION, turns_left=3)
    ch = ch.model_copy(update={"health": 4})
    ch, outcome = apply_state(ch, StateId.PETRIFIED, ScriptedSource([1]))  # Сноровка 1: fails
    assert outcome.applied
    assert effective_trait(ch, Trait.DEFENCE) == 0  # Speedup's +1 is suspended
    report_now = report(ch)
    assert [(line.state, line.paused) for line in report_now.states] == [
        (StateId.DEATH_SENTENCE, True),
        (StateId.SPEEDUP, True),
        (StateId.REGENERATION, True),
        (StateId.PETRIFIED, False),
    ]
    frozen, kinds = ticks(ch, 8)  # no sentence, no expiry, no regeneration roll
    assert kinds == []
    assert frozen.find_state(StateId.DEATH_SENTENCE) == ActiveState(
        state=StateId.DEATH_SENTENCE, age=3
    )
    thawed, _ = cure(frozen, Remedy.SOFT)
    assert effective_trait(thawed, Trait.DEFENCE) == 3
    # it resumes where it stopped: ages 4, 5, then KO on age 6
    thawed, events = tick(thawed, ScriptedSource([9, 9]))
    assert [e.kind for e in events] == [EventKind.REGENERATED]
    thawed, events = tick(thawed, ScriptedSource([1]))
    assert [e.kind for e in events] == [EventKind.EXPIRED, EventKind.NO_EFFECT]
    thawed, events = tick(thawed, ScriptedSource([]))
    assert [(e.kind, e.state) for e in events] == [
        (EventKind.EXPIRED, StateId.DEATH_SENTENCE),
        (EventKind.APPLIED, StateId.KO),
        (EventKind.EXPIRED, StateId.REGENERATION),
    ]


def test_petrified_stone_takes_damage() -> None:
    ch = given(hero(), StateId.PETRIFIED)
    ch, _ = apply_damage(ch, 3, ScriptedSource([]))
    assert effective_trait(ch, Trait.HEALTH) == 2
    assert ch.health == 6 and not ch.has_state(StateId.CRIPPLED)


# --- per-turn resistance --------------------------------------------------------------------


def test_berserk_turn_resistance_and_anger_cost() -> None:
    ch, outcome = apply_state(hero(), StateId.BERSERK, ScriptedSource([3]))  # Общение 1
    assert outcome.applied and effective_trait(ch, Trait.ATTACK) == 1
    ch, events = tick(ch, ScriptedSource([4]))
    assert [e.kind for e in events] == [EventKind.HOLDS]
    ch, events = tick(ch, ScriptedSource([8]))
    assert [e.kind for e in events] == [EventKind.SHAKEN_OFF]
    assert [(c.field, c.before, c.after) for c in events[0].changes] == [
        ("states.berserk", True, False),
        ("anger", 2, 1),
    ]


def test_berserk_by_choice_runs_for_max_anger_turns() -> None:
    ch = given(hero(), StateId.BERSERK, turns_left=3, stays=True)
    ch, kinds = ticks(ch, 2)
    assert kinds == []
    ch, kinds = ticks(ch, 1)
    assert kinds == [EventKind.EXPIRED] and ch.anger == 1


def test_confusion_ends_on_physical_attack_or_resistance() -> None:
    ch = given(hero(), StateId.CONFUSION)
    hit, events = cure(ch, Remedy.PHYSICAL_ATTACK)
    assert not hit.has_state(StateId.CONFUSION)
    ch, events = tick(ch, ScriptedSource([1, 2, 9]))  # Хитрость 3
    assert [(e.kind, e.purpose) for e in events] == [
        (EventKind.SHAKEN_OFF, RollPurpose.TURN_RESISTANCE)
    ]


def test_sleep_once_per_scene_rolls_no_more() -> None:
    ch = given(hero(), StateId.SLEEP, resist_per_scene=True)
    ch, kinds = ticks(ch, 3)
    assert kinds == [] and ch.has_state(StateId.SLEEP)
    ch = given(hero(), StateId.SLEEP)
    ch, kinds = ticks(ch, 1, [1, 2])
    assert kinds == [EventKind.HOLDS]


@pytest.mark.parametrize("state", [StateId.STUN, StateId.PARALYZED, StateId.PRONE])
def test_one_turn_states_pass_by_themselves(state: StateId) -> None:
    ch, _ = apply_state(hero(), state, ScriptedSource([]), resist=False)
    ch, kinds = ticks(ch, 1)
    assert kinds == [EventKind.EXPIRED] and ch.states == ()


def test_already_active_rolls_nothing() -> None:
    ch = given(hero(), StateId.POISON)
    same, outcome = apply_state(ch, StateId.POISON, ScriptedSource([]))
    assert outcome.result is EventKind.ALREADY_ACTIVE and same == ch


def test_remove_absent_state_is_a_no_op() -> None:
    assert remove_state(hero(), StateId.SLEEP) == (hero(), ())


# --- Мини / Жаба: one die -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "skill", "kind", "dice"),
    [
        (StateId.MINI, Skill.BRUTALITY, None, 1),
        (StateId.MINI, Skill.INTELLECT, None, 2),
        (StateId.MINI, Skill.INTELLECT, ActionKind.MATTER, 1),
        (StateId.FROG, Skill.INTELLECT, None, 1),
        (StateId.FROG, Skill.CUNNING, None, 1),
        (StateId.FROG, Skill.BRUTALITY, None, 2),
        (StateId.FROG, Skill.BRUTALITY, ActionKind.MATTER, 1),
    ],
)
def test_mini_and_frog_roll_one_die(
    state: StateId, skill: Skill, kind: ActionKind | None, dice: int
) -> None:
    ch = given(hero(), state)
    roll = roll_action(ch, skill, ScriptedSource([5] * 3), [Modifier.ADVANTAGE], kind=kind)
    expected = 1 if dice == 1 else effective_trait(ch, skill) + 1
    assert len(roll.faces) == expected


def test_mini_shrinks_health_while_it_lasts() -> None:
    ch = given(hero(), StateId.MINI)
    assert effective_trait(ch, Trait.HEALTH) == 2
    cured, _ = cure(ch, Remedy.CORNUCOPIA)
    assert effective_trait(cured, Trait.HEALTH) == 6


def test_anger_sadness_and_fury() -> None:
    sad = given(hero(), StateId.SADNESS)
    same, events = gain_anger(sad, 1)
    assert same.anger == 2 and events[0].kind is EventKind.NO_EFFECT
    furious = given(hero(anger=3), StateId.FURY)
    assert effective_trait(furious, Trait.ANGER_MAX) == 2
    assert furious.anger == 3  # current kept
    angry, _ = gain_anger(hero(), 5)
    assert angry.anger == 3


def test_invulnerable_ignores_damage() -> None:
    ch = given(hero(), StateId.INVULNERABILITY, turns_left=2)
    same, events = apply_damage(ch, 4, ScriptedSource([]))
    assert same.health == 6 and events[0].kind is EventKind.NO_EFFECT
    with pytest.raises(RuleViolation):
        apply_damage(ch, 0, ScriptedSource([]))


def test_initiative_order() -> None:
    characters = {
        "slow": given(hero(initiative=9), StateId.DECELERATION),
        "a": hero(initiative=2),
        "stopped": given(hero(initiative=9), StateId.STOP),
        "fast_new": given(hero(), StateId.SPEEDUP, turns_left=3),
        "b": hero(initiative=5),
        "fast_old": given(hero(), StateId.SPEEDUP, age=2, turns_left=2),
        "stunned": given(hero(initiative=3), StateId.STUN, turns_left=1),
    }
    assert initiative_order(characters) == ["fast_old", "fast_new", "b", "a", "slow", "stunned"]


def test_report_lists_effective_traits() -> None:
    ch = given(hero(), StateId.DECELERATION)
    rep = report(ch)
    assert rep.traits["defence"] == 1
    assert rep.traits["attack"] == 0
    assert rep.traits["cunning"] == 3
    assert rep.states[0].name_ru == "Медлительность"


def test_a_countdown_to_stone_does_nothing_to_a_stone() -> None:
    # Found by the state-soup property test: both states at once made no sense.
    stone = given(hero(), StateId.PETRIFIED)
    after, outcome = apply_state(stone, StateId.PETRIFICATION, ScriptedSource([]))
    assert after == stone
    assert outcome.result is EventKind.ALREADY_ACTIVE
