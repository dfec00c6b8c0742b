"""Scene conditions row by row, the check schedule, and a scripted 8-turn Storm."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems.matter import (
    CONDITIONS,
    Character,
    CheckKind,
    ConditionId,
    Distance,
    Effect,
    EffectOp,
    Element,
    EventKind,
    Hazard,
    RangeRule,
    RollPurpose,
    Scene,
    Skill,
    StateId,
    Trait,
    TurnReport,
    active_conditions,
    advance_turn,
    apply_state,
    condition_effects,
    effective_trait,
    end_scene,
    new_character,
    range_rule,
    scene_apply_state,
    set_in_water,
    standard_check_dice,
    start_scene,
)

C = ConditionId
K = CheckKind


def person(name: str, **skills: int) -> Character:
    return new_character(name).model_copy(update={"skills": skills, "defence": 2, "attack": 2,
                                                  "dodge": 2})  # fmt: skip


def run(
    scene: Scene, chars: dict[str, Character], faces: list[int], turns: int = 1
) -> tuple[Scene, dict[str, Character], list[TurnReport]]:
    source = ScriptedSource(faces)
    reports: list[TurnReport] = []
    for _ in range(turns):
        scene, chars, rep = advance_turn(scene, chars, source)
        reports.append(rep)
    assert source.remaining == 0, "every scripted die must be used"
    return scene, chars, reports


def at_round(scene: Scene, round_no: int) -> Scene:
    return scene.model_copy(update={"round": round_no - 1})


# Seed: «на 2й раунд - 1d10, на 4й - 2d10, на 6й и далее - три» «через каждые 2 хода».
@pytest.mark.parametrize(
    ("round_no", "dice"),
    [(1, 0), (2, 1), (3, 0), (4, 2), (5, 0), (6, 3), (7, 0), (8, 3), (9, 0), (10, 3), (12, 3)],
)
def test_standard_check_schedule(round_no: int, dice: int) -> None:
    assert standard_check_dice(round_no) == dice


ROWS = [
    (C.HELLFIRE, "Пекло", "Hellfire", K.STANDARD, Element.FIRE, None, Hazard.BURN),
    (C.FROST, "Мороз", "Frost", K.STANDARD, Element.ICE, None, Hazard.FROSTBITE),
    (C.HIGH_VOLTAGE, "Высокое напряжение", "High Voltage", K.STANDARD, Element.LIGHTNING,
     StateId.STUN, None),
    (C.UNSTEADY, "Нетвёрдая почва", "Unsteady Ground", K.CHANCE_EACH_TURN, Element.EARTH,
     StateId.PARALYZED, None),
    (C.SLIPPERY, "Скольжение", "Slippery Ground", K.CHANCE_EACH_TURN, None, StateId.PRONE, None),
    (C.WHIRLWIND, "Сильный ветер", "Whirlwind", K.STANDARD, None, StateId.PRONE, None),
    (C.DELUGE, "Наводнение", "Deluge", K.ROUND_START_RESISTANCE, None, StateId.DECELERATION,
     None),
    (C.STORM, "Шторм", "Storm", K.COMBINATION, None, None, None),
    (C.POISON_CLOUD, "Ядовитое облако", "Poison Cloud", K.STANDARD, None, StateId.POISON, None),
    (C.MIST, "Туман", "Mist", K.RANGE, None, None, None),
    (C.HEAVY_RAIN, "Сильный ливень", "Heavy Rain", K.RANGE, None, None, None),
]  # fmt: skip


def test_table_has_all_eleven_conditions() -> None:
    assert [r[0] for r in ROWS] == list(CONDITIONS) == list(ConditionId)


@pytest.mark.parametrize(
    ("cond", "ru", "en", "check", "element", "inflicts", "hazard"), ROWS, ids=[r[0] for r in ROWS]
)
def test_condition_row_data(
    cond: ConditionId,
    ru: str,
    en: str,
    check: CheckKind,
    element: Element | None,
    inflicts: StateId | None,
    hazard: Hazard | None,
) -> None:
    row = CONDITIONS[cond]
    assert (row.name_ru, row.name_en, row.check, row.element) == (ru, en, check, element)
    assert (row.inflicts, row.hazard) == (inflicts, hazard)
    assert row.cancels_speedup is (cond in (C.UNSTEADY, C.SLIPPERY))
    assert row.resistible is (cond is not C.HIGH_VOLTAGE)
    assert row.blocks_long_range is (cond in (C.MIST, C.HEAVY_RAIN))
    assert row.components == ((C.HEAVY_RAIN, C.WHIRLWIND, C.DELUGE) if cond is C.STORM else ())


# --- standard conditions ---------------------------------------------------------------------

# condition, what spares a character, faces for a hit on the other (check die + resistance),
# the event kinds the hit gives
STANDARD = [
    (C.HELLFIRE, {"protections": (Element.FIRE,)}, [8], [EventKind.HAZARD_HIT]),
    (C.FROST, {"protections": (Element.ICE,)}, [7], [EventKind.HAZARD_HIT]),
    # Seed: «Оглушён (без сопротивления)» — no resistance die is drawn
    (C.HIGH_VOLTAGE, {"protections": (Element.LIGHTNING,)}, [9], [EventKind.APPLIED]),
    (C.WHIRLWIND, {"immune_states": (StateId.PRONE,)}, [7, 3, 4], [EventKind.APPLIED]),
    (C.POISON_CLOUD, {"immune_states": (StateId.POISON,)}, [10, 2, 7], [EventKind.RESISTED]),
]


@pytest.mark.parametrize(
    ("cond", "spare", "faces", "kinds"), STANDARD, ids=[s[0] for s in STANDARD]
)
def test_standard_condition_row(
    cond: ConditionId, spare: dict[str, object], faces: list[int], kinds: list[EventKind]
) -> None:
    hit = person("hit", brutality=2, tenacity=1)
    spared = person("spared").model_copy(update=spare)
    scene = start_scene([cond])
    # round 1: no check at all
    scene, chars, reports = run(scene, {"hit": hit, "spared": spared}, [])
    assert reports[0].events == ()
    # round 2: 1d10 for the exposed one, nothing rolled for the protected one
    scene, chars, reports = run(scene, chars, faces)
    events = reports[0].events
    assert [(e.character_id, e.kind) for e in events] == [
        ("hit", EventKind.CHECK),
        *[("hit", k) for k in kinds],
        ("spared", EventKind.PROTECTED),
    ]
    check = events[0]
    assert check.purpose is RollPurpose.STANDARD_CHECK and check.origin == cond
    assert check.roll is not None and check.roll.notation == "1d10>=7!"
    hazard = CONDITIONS[cond].hazard
    if hazard is not None:
        assert events[1].hazard is hazard
    if CONDITIONS[cond].inflicts and kinds == [EventKind.APPLIED]:
        assert chars["hit"].has_state(CONDITIONS[cond].inflicts)  # type: ignore[arg-type]


def test_standard_check_miss_does_nothing() -> None:
    scene = at_round(start_scene([C.POISON_CLOUD]), 4)
    _, chars, reports = run(scene, {"x": person("x", tenacity=1)}, [6, 1])
    assert [e.kind for e in reports[0].events] == [EventKind.CHECK]
    assert chars["x"].states == ()


# --- ground conditions ------------------------------------------------------------------------


def test_unsteady_ground() -> None:
    walker = person("w", tenacity=1, cunning=3)
    sped, _ = apply_state(walker, StateId.SPEEDUP, ScriptedSource([]))
    earthy = person("e").model_copy(update={"protections": (Element.EARTH,)})
    scene = start_scene([C.UNSTEADY])
    assert condition_effects(scene, "w", walker) == (
        Effect(Trait.ATTACK, EffectOp.ADD, -1),
        Effect(Trait.DODGE, EffectOp.ADD, -1),
    )
    assert condition_effects(scene, "e", earthy) == ()
    # turn 1: Speedup cancelled; chance roll 7 fails → Paralyzed, Упорство 1 die [2] fails
    scene, chars, reports = run(scene, {"w": sped, "e": earthy}, [7, 2])
    assert [(e.character_id, e.kind, e.state) for e in reports[0].events] == [
        ("w", EventKind.REMOVED, StateId.SPEEDUP),
        ("w", EventKind.CHECK, None),
        ("w", EventKind.APPLIED, StateId.PARALYZED),
    ]
    assert reports[0].events[1].roll is not None
    assert reports[0].events[1].roll.notation == "chance"
    # turn 2: Paralyzed passes; chance roll 10 (+0-again die 3) succeeds → footing
    scene, chars, reports = run(scene, chars, [10, 3])
    assert [e.kind for e in reports[0].events] == [
        EventKind.EXPIRED,
        EventKind.CHECK,
        EventKind.FOOTING,
    ]
    assert condition_effects(scene, "w", chars["w"]) == ()
    # turn 3: no more rolls for anyone
    _, _, reports = run(scene, chars, [])
    assert reports[0].events == ()


def test_slippery_ground() -> None:
    slider = person("s", brutality=2)
    scene = start_scene([C.SLIPPERY])
    assert effective_trait(slider, Skill.BRUTALITY, condition_effects(scene, "s", slider)) == 1
    # chance roll 4 fails → Prone, resisted with Жестокость 2 − 1 = one die [3] → knocked down
    scene, chars, reports = run(scene, {"s": slider}, [4, 3])
    applied = reports[0].events[-1]
    assert applied.kind is EventKind.APPLIED and applied.state is StateId.PRONE
    assert applied.roll is not None and applied.roll.faces == (3,)
    # next turn: success → penalty lifted and Defence +1
    scene, chars, reports = run(scene, chars, [10, 9])
    assert [e.kind for e in reports[0].events] == [
        EventKind.EXPIRED,
        EventKind.CHECK,
        EventKind.FOOTING,
    ]
    extra = condition_effects(scene, "s", chars["s"])
    assert effective_trait(chars["s"], Skill.BRUTALITY, extra) == 2
    assert effective_trait(chars["s"], Trait.DEFENCE, extra) == 3


def test_deluge_spares_who_left_the_water() -> None:
    scene = set_in_water(start_scene([C.DELUGE]), "dry", in_water=False)
    chars = {"wet": person("wet", cunning=1), "dry": person("dry", cunning=1)}
    _, chars, reports = run(scene, chars, [5])
    assert [(e.character_id, e.kind) for e in reports[0].events] == [("wet", EventKind.APPLIED)]
    assert set_in_water(scene, "dry", in_water=True).out_of_water == ()


def test_deluge_does_not_lift_a_slowness_from_elsewhere() -> None:
    ch, _ = apply_state(person("x", cunning=1), StateId.DECELERATION, ScriptedSource([1]))
    _, chars, reports = run(start_scene([C.DELUGE]), {"x": ch}, [9])
    assert [e.kind for e in reports[0].events] == [EventKind.NO_EFFECT]
    assert chars["x"].has_state(StateId.DECELERATION)


@pytest.mark.parametrize("cond", [C.MIST, C.HEAVY_RAIN, C.STORM])
@pytest.mark.parametrize(
    ("distance", "rule"),
    [
        (Distance.CLOSE, RangeRule(Distance.CLOSE, chance_only=False)),
        (Distance.MEDIUM, RangeRule(Distance.LONG, chance_only=True)),
        (Distance.LONG, RangeRule(Distance.LONG, chance_only=True)),
    ],
)
def test_mist_and_heavy_rain_range(cond: ConditionId, distance: Distance, rule: RangeRule) -> None:
    assert range_rule(start_scene([cond]), distance) == rule
    assert range_rule(start_scene(), distance) == RangeRule(distance, chance_only=False)


def test_mist_rolls_nothing() -> None:
    _, _, reports = run(start_scene([C.MIST]), {"x": person("x")}, [], turns=4)
    assert all(r.events == () for r in reports)


# --- the scripted Storm -----------------------------------------------------------------------

# Storm = Сильный ливень + Сильный ветер + Наводнение. Each round: Наводнение's Хитрость roll
# for both (in the water), then on even rounds Сильный ветер's standard check (1, 2, 3, 3 dice)
# and, on a hit, Сбит с ног resisted with Жестокость. A: Жестокость 2, Хитрость 1;
# B: Жестокость 1, Хитрость 2.
STORM_FACES = [
    3, 7, 2,                      # r1: A slowed; B resists
    8, 1, 4, 9, 2, 3, 10, 2, 7,   # r2: A shakes it off; B slowed; wind: A down, B (10→2) stands
    5, 10, 7, 1,                  # r3: A slowed; B shakes it off (10 → 7, 1)
    4, 2, 2, 6, 5, 1, 1,          # r4: A holds; B slowed; wind 2d10 misses both
    6, 3, 9,                      # r5: A holds; B shakes it off
    7, 1, 2, 7, 8, 2, 1, 1, 3, 3, 3,  # r6: A off; B slowed; wind 3d10: A down; B missed
    2, 9, 9,                      # r7: A slowed; B off
    10, 1, 4, 4, 2, 2, 7, 8, 1, 9, 1, 1, 1,  # r8: A off; B slowed; wind: A resists; B crit → down
]  # fmt: skip

A, B = "a", "b"
DL, WW, PR = "deluge", "whirlwind", "prone"
EXPECTED = [
    # round, who, origin, kind, state, faces, notation
    (1, A, DL, EventKind.APPLIED, StateId.DECELERATION, (3,), "1d10>=7!"),
    (1, B, DL, EventKind.RESISTED, StateId.DECELERATION, (7, 2), "2d10>=7!"),
    (2, A, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (8,), "1d10>=7!"),
    (2, B, DL, EventKind.APPLIED, StateId.DECELERATION, (1, 4), "2d10>=7!"),
    (2, A, WW, EventKind.CHECK, StateId.PRONE, (9,), "1d10>=7!"),
    (2, A, WW, EventKind.APPLIED, StateId.PRONE, (2, 3), "2d10>=7!"),
    (2, B, WW, EventKind.CHECK, StateId.PRONE, (10, 2), "1d10>=7!"),
    (2, B, WW, EventKind.RESISTED, StateId.PRONE, (7,), "1d10>=7!"),
    (3, A, PR, EventKind.EXPIRED, StateId.PRONE, None, None),
    (3, A, DL, EventKind.APPLIED, StateId.DECELERATION, (5,), "1d10>=7!"),
    (3, B, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (10, 7, 1), "2d10>=7!"),
    (4, A, DL, EventKind.HOLDS, StateId.DECELERATION, (4,), "1d10>=7!"),
    (4, B, DL, EventKind.APPLIED, StateId.DECELERATION, (2, 2), "2d10>=7!"),
    (4, A, WW, EventKind.CHECK, StateId.PRONE, (6, 5), "2d10>=7!"),
    (4, B, WW, EventKind.CHECK, StateId.PRONE, (1, 1), "2d10>=7!"),
    (5, A, DL, EventKind.HOLDS, StateId.DECELERATION, (6,), "1d10>=7!"),
    (5, B, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (3, 9), "2d10>=7!"),
    (6, A, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (7,), "1d10>=7!"),
    (6, B, DL, EventKind.APPLIED, StateId.DECELERATION, (1, 2), "2d10>=7!"),
    (6, A, WW, EventKind.CHECK, StateId.PRONE, (7, 8, 2), "3d10>=7!"),
    (6, A, WW, EventKind.APPLIED, StateId.PRONE, (1, 1), "2d10>=7!"),
    (6, B, WW, EventKind.CHECK, StateId.PRONE, (3, 3, 3), "3d10>=7!"),
    (7, A, PR, EventKind.EXPIRED, StateId.PRONE, None, None),
    (7, A, DL, EventKind.APPLIED, StateId.DECELERATION, (2,), "1d10>=7!"),
    (7, B, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (9, 9), "2d10>=7!"),
    (8, A, DL, EventKind.SHAKEN_OFF, StateId.DECELERATION, (10, 1), "1d10>=7!"),
    (8, B, DL, EventKind.APPLIED, StateId.DECELERATION, (4, 4), "2d10>=7!"),
    (8, A, WW, EventKind.CHECK, StateId.PRONE, (2, 2, 7), "3d10>=7!"),
    (8, A, WW, EventKind.RESISTED, StateId.PRONE, (8, 1), "2d10>=7!"),
    (8, B, WW, EventKind.CHECK, StateId.PRONE, (9, 1, 1), "3d10>=7!"),
    (8, B, WW, EventKind.APPLIED, StateId.PRONE, (1,), "1d10>=7!"),
]


def test_scripted_storm_scene_of_eight_turns() -> None:
    chars = {A: person("A", brutality=2, cunning=1), B: person("B", brutality=1, cunning=2)}
    scene = start_scene([C.STORM])
    assert active_conditions(scene) == (C.WHIRLWIND, C.DELUGE, C.HEAVY_RAIN)
    scene, chars, reports = run(scene, chars, STORM_FACES, turns=8)
    got = [
        (
            rep.round,
            e.character_id,
            e.origin,
            e.kind,
            e.state,
            e.roll.faces if e.roll else None,
            e.roll.notation if e.roll else None,
        )
        for rep in reports
        for e in rep.events
    ]
    assert got == EXPECTED
    assert scene.round == 8
    # every die of the script is in exactly one reported roll, in order
    drawn = [f for rep in reports for e in rep.rolls for f in e.roll.faces]  # type: ignore[union-attr]
    assert drawn == STORM_FACES
    applied = [(r.round, e.character_id, e.state) for r in reports for e in r.applied]
    assert applied == [
        (1, A, StateId.DECELERATION),
        (2, B, StateId.DECELERATION),
        (2, A, StateId.PRONE),
        (3, A, StateId.DECELERATION),
        (4, B, StateId.DECELERATION),
        (6, B, StateId.DECELERATION),
        (6, A, StateId.PRONE),
        (7, A, StateId.DECELERATION),
        (8, B, StateId.DECELERATION),
        (8, B, StateId.PRONE),
    ]
    # the critical failure on B's one-die resistance is kept in the roll
    last = reports[-1].events[-1].roll
    assert last is not None and last.critical_failure
    assert chars[A].states == ()
    assert [s.state for s in chars[B].states] == [StateId.DECELERATION, StateId.PRONE]
    assert range_rule(scene, Distance.LONG).chance_only
    # end of the scene: both of B's states expire, a fresh scene starts
    fresh, chars, changes = end_scene(scene, chars)
    assert fresh == Scene()
    assert chars[B].states == ()
    assert [c.field for c in changes[B]] == ["states.deceleration", "states.prone"]
    assert changes[A] == []


def test_scene_round_trips_through_json_mid_storm() -> None:
    chars = {A: person("A", brutality=2, cunning=1), B: person("B", brutality=1, cunning=2)}
    scene, chars, _ = run(start_scene([C.STORM]), chars, STORM_FACES[:12], turns=2)
    assert Scene.model_validate(scene.model_dump(mode="json")) == scene
    for ch in chars.values():
        assert Character.model_validate(ch.model_dump(mode="json")) == ch


def test_scene_apply_state_uses_ground_conditions() -> None:
    scene = start_scene([C.SLIPPERY])
    slider = person("s", brutality=2)
    # Скольжение: Жестокость 2 − 1 → the Prone resistance is one die
    ch, outcome = scene_apply_state(scene, "s", slider, StateId.PRONE, ScriptedSource([2]))
    assert outcome.applied and outcome.resistance is not None
    assert outcome.resistance.faces == (2,)
    assert outcome.events[0].character_id == "s"
    same, outcome = scene_apply_state(scene, "s", ch, StateId.SPEEDUP, ScriptedSource([]))
    assert outcome.result is EventKind.NO_EFFECT and outcome.events[0].origin == C.SLIPPERY
    assert not same.has_state(StateId.SPEEDUP)
    sped, outcome = scene_apply_state(start_scene(), "s", ch, StateId.SPEEDUP, ScriptedSource([]))
    assert outcome.applied and sped.has_state(StateId.SPEEDUP)
