"""Absorbing hits (every legal way), being taken out, conceding, healing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice.source import ScriptedSource
from engine.errors import EngineError, RuleViolation
from engine.systems.fate import (
    TAKEN_OUT,
    AbsorbOption,
    Action,
    Character,
    Consequence,
    Nature,
    Outcome,
    Skill,
    SlotId,
    StressMarks,
    TrackKind,
    absorb,
    absorb_options,
    attack_harm,
    concede,
    heal,
    opposed,
    roll,
    stress_track,
    use_consequence_invoke,
)
from tests.engine.fate.factories import sample, with_skills

PHYS = TrackKind.PHYSICAL


def _three_boxes() -> Character:
    return with_skills(physique=2)  # 2 + 1 physical boxes


def _take(char: Character, hit: int, box: int) -> Character:
    option = next(o for o in absorb_options(char, hit, PHYS) if o.box == box and not o.slots)
    new, _ = absorb(char, hit, PHYS, option)
    return new


def test_seed_stress_example() -> None:
    # seed: «У персонажа три пункта стресса (000), ему наносят урон в размере двух единиц, игрок
    # расходует второй пункт стресса (0х0). Затем ... еще две единицы урона, игроку приходится
    # зачеркивать третий пункт, так как разменять первый на двух очковый урон нельзя. (0хх).
    # Теперь, если следующая атака нанесет больше единицы урона, тогда игроку придется взять для
    # персонажа последствие.»
    char = _three_boxes()
    assert stress_track(char, PHYS).render() == "000"
    char = _take(char, 2, 2)
    assert stress_track(char, PHYS).render() == "0x0"
    boxes_for_two = {o.box for o in absorb_options(char, 2, PHYS) if not (o.slots or o.taken_out)}
    assert boxes_for_two == {3}  # box 1 cannot take 2
    char = _take(char, 2, 3)
    assert stress_track(char, PHYS).render() == "0xx"
    options = absorb_options(char, 2, PHYS)
    assert all(o.slots or o.taken_out for o in options)
    # ... while a hit of 1 still fits box 1
    assert any(o.box == 1 and not o.slots for o in absorb_options(char, 1, PHYS))


def test_every_legal_way_is_listed() -> None:
    char = with_skills()  # boxes 1, 2; slots mild 2, moderate 4, severe 6; extreme 8
    opts = absorb_options(char, 3, PHYS)
    listed = {(o.box, o.slots) for o in opts if not o.taken_out}
    # minimal options first, then fewer consequences, then the least capacity
    assert [(o.box, o.slots) for o in opts[:4]] == [
        (1, (SlotId.MILD,)),
        (None, (SlotId.MODERATE,)),
        (2, (SlotId.MILD,)),
        (None, (SlotId.SEVERE,)),
    ]
    assert (None, (SlotId.MILD,)) not in listed  # 2 < 3
    assert (2, ()) not in listed
    assert (None, (SlotId.MILD, SlotId.MODERATE)) in listed  # legal, though not minimal
    # brute-force count: one box or none × any subset of 4 slots, capacity ≥ 3
    values = {SlotId.MILD: 2, SlotId.MODERATE: 4, SlotId.SEVERE: 6, SlotId.EXTREME: 8}
    expected = 0
    for mask in range(16):
        soak = sum(v for i, v in enumerate(values.values()) if mask >> i & 1)
        expected += sum(1 for box in (0, 1, 2) if box + soak >= 3)
    assert len(listed) == expected
    assert opts[-1] == TAKEN_OUT


def test_zero_harm_needs_nothing() -> None:
    assert absorb_options(with_skills(), 0, PHYS) == (AbsorbOption(None, None, (), 0, True),)


def test_unabsorbable_hit_only_allows_taken_out() -> None:
    char = with_skills().model_copy(
        update={
            "stress": StressMarks(physical=(1, 2)),
            "consequences": (
                Consequence(slot=SlotId.MILD, text="a"),
                Consequence(slot=SlotId.MODERATE, text="b"),
                Consequence(slot=SlotId.SEVERE, text="c"),
                Consequence(slot=SlotId.EXTREME, text="d", replaces_aspect=0),
            ),
        }
    )
    assert absorb_options(char, 1, PHYS) == (TAKEN_OUT,)
    new, res = absorb(char, 1, PHYS, TAKEN_OUT)
    assert res.taken_out and new == char


def test_typed_extra_mild_slots() -> None:
    char = with_skills(physique=5)
    phys = {s for o in absorb_options(char, 2, PHYS) for s in o.slots}
    mental = {s for o in absorb_options(char, 2, TrackKind.MENTAL) for s in o.slots}
    assert SlotId.MILD_PHYSICAL in phys
    assert SlotId.MILD_PHYSICAL not in mental


def test_magical_hit_may_use_the_accumulator() -> None:
    from engine.systems.fate import Artifact, ArtifactKind

    char = with_skills().model_copy(
        update={"artifacts": (Artifact(kind=ArtifactKind.ACCUMULATOR, boxes=3),)}
    )
    opts = absorb_options(char, 3, TrackKind.MAGICAL)
    assert any(o.box_track is TrackKind.ACCUMULATOR and o.box == 3 for o in opts)
    with pytest.raises(EngineError):
        absorb_options(char, 1, TrackKind.ACCUMULATOR)


def test_consequence_taken_is_recorded() -> None:
    char = with_skills()
    option = next(o for o in absorb_options(char, 4, PHYS) if o.slots == (SlotId.MODERATE,))
    new, res = absorb(
        char,
        4,
        PHYS,
        option,
        texts={SlotId.MODERATE: "Сломанная рука"},
        conflict_id="c1",
        inflicted_by="orc",
    )
    (cons,) = new.consequences
    assert (cons.slot, cons.text, cons.nature, cons.conflict_id, cons.inflicted_by) == (
        SlotId.MODERATE,
        "Сломанная рука",
        Nature.PHYSICAL,
        "c1",
        "orc",
    )
    assert res.consequences == (cons,)


def test_consequence_needs_a_name_and_extreme_an_aspect() -> None:
    char = with_skills()
    option = next(o for o in absorb_options(char, 8, PHYS) if o.slots == (SlotId.EXTREME,))
    with pytest.raises(EngineError):
        absorb(char, 8, PHYS, option, texts={})
    with pytest.raises(EngineError):
        absorb(char, 8, PHYS, option, texts={SlotId.EXTREME: "Без глаза"})
    new, _ = absorb(char, 8, PHYS, option, texts={SlotId.EXTREME: "Без глаза"}, replaces_aspect=1)
    assert new.consequences[0].replaces_aspect == 1
    # one extreme at a time
    assert all(SlotId.EXTREME not in o.slots for o in absorb_options(new, 8, PHYS))


def test_illegal_option_refused() -> None:
    char = _take(_three_boxes(), 2, 2)
    with pytest.raises(RuleViolation):
        absorb(char, 2, PHYS, AbsorbOption(PHYS, 2, (), 2, True))  # already marked
    with pytest.raises(RuleViolation):
        absorb(char, 2, PHYS, AbsorbOption(PHYS, 1, (), 1, True))  # too small


@settings(max_examples=60, deadline=None)
@given(hits=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 50)), max_size=12))
def test_absorbing_never_double_checks_a_box(hits: list[tuple[int, int]]) -> None:
    char = with_skills(physique=4)
    for hit, pick in hits:
        options = absorb_options(char, hit, PHYS)
        option = options[pick % len(options)]
        texts = {s: f"c{s.value}" for s in option.slots}
        char, _ = absorb(char, hit, PHYS, option, texts=texts, replaces_aspect=0)
        marks = char.stress.of(PHYS)
        assert len(marks) == len(set(marks))
        assert all(1 <= v <= 4 for v in marks)
        slots = [c.slot for c in char.consequences]
        assert len(slots) == len(set(slots))


@pytest.mark.parametrize(
    ("successful", "in_conflict", "gained"), [(True, 2, 3), (True, 0, 1), (False, 2, 0)]
)
def test_concede(successful: bool, in_conflict: int, gained: int) -> None:
    # seed: «За успешную сдачу вы получите ОС, плюс по одному ОС за каждое последствие, принятое
    # в процессе разрешения этого конфликта.»
    cons = (
        *tuple(
            Consequence(slot=s, text="x", conflict_id="c1")
            for s in (SlotId.MILD, SlotId.MODERATE)[:in_conflict]
        ),
        Consequence(slot=SlotId.SEVERE, text="old", conflict_id="c0"),
    )
    char = sample(fate_points=1, consequences=cons)
    new, out = concede(char, successful=successful, conflict_id="c1")
    assert (new.fate_points - 1, out.fate_points_gained) == (gained, gained)


def test_concede_with_explicit_count() -> None:
    new, out = concede(sample(fate_points=0), successful=True, consequences_taken=2)
    assert (new.fate_points, out.consequences_counted) == (3, 2)


def test_healing_marks_treated_on_success() -> None:
    char = sample(consequences=(Consequence(slot=SlotId.MODERATE, text="Рана"),))
    # Образование +1, dice +3 → 4 vs moderate 4: tie is not enough
    same, res = heal(
        ScriptedSource((5, 5, 5, 3)),
        char,
        SlotId.MODERATE,
        healer_skill=Skill.EDUCATION,
        healer_level=1,
    )
    assert res.outcome is Outcome.TIE and same == char
    healed, res = heal(
        ScriptedSource((5, 5, 5, 5)),
        char,
        SlotId.MODERATE,
        healer_skill=Skill.EDUCATION,
        healer_level=1,
    )
    assert res.outcome is Outcome.SUCCESS and healed.consequences[0].treated
    assert res.notation == "4dF+1"
    with pytest.raises(RuleViolation):
        heal(
            ScriptedSource((5,) * 4),
            healed,
            SlotId.MODERATE,
            healer_skill=Skill.EDUCATION,
            healer_level=1,
        )


def test_healing_needs_the_right_skill_and_a_consequence() -> None:
    char = sample(
        consequences=(Consequence(slot=SlotId.MILD, text="Страх", nature=Nature.MENTAL),)
    )
    with pytest.raises(RuleViolation):
        heal(
            ScriptedSource((5,) * 4),
            char,
            SlotId.MILD,
            healer_skill=Skill.EDUCATION,
            healer_level=3,
        )
    with pytest.raises(RuleViolation):
        heal(
            ScriptedSource((5,) * 4),
            char,
            SlotId.SEVERE,
            healer_skill=Skill.EMPATHY,
            healer_level=3,
        )


def test_inflicter_gets_one_free_invoke_on_the_consequence() -> None:
    # seed: «для нанесшего вам урон ... оно считается преимуществом с одним бесплатным вызовом»
    char = with_skills()
    option = next(o for o in absorb_options(char, 2, PHYS) if o.slots == (SlotId.MILD,))
    char, _ = absorb(char, 2, PHYS, option, texts={SlotId.MILD: "Порез"}, inflicted_by="orc")
    assert char.consequences[0].free_invokes == {"orc": 1}
    char = use_consequence_invoke(char, SlotId.MILD, "orc")
    assert char.consequences[0].free_invokes == {}
    with pytest.raises(RuleViolation):
        use_consequence_invoke(char, SlotId.MILD, "orc")


def test_attack_to_absorb_flow() -> None:
    # Бой +3 with a level-2 sword against Атлетика +1 and level-1 armor
    attack = roll(ScriptedSource((5, 3, 3, 3)), skill=3)  # 4
    defence = roll(ScriptedSource((3, 3, 3, 3)), skill=1)  # 1
    res = opposed(Action.ATTACK, attack, defence)
    hit = attack_harm(res, weapon=2, armor=1)
    assert (res.shifts, res.outcome, hit) == (3, Outcome.STYLE, 4)
    char = _three_boxes()
    options = absorb_options(char, hit, PHYS)
    assert options[0] == AbsorbOption(None, None, (SlotId.MODERATE,), 4, True)
    assert AbsorbOption(PHYS, 2, (SlotId.MILD,), 4, True) in options
