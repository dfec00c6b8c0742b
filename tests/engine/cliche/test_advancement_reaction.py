"""Advancement, recovery, milestones and NPC reaction."""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.errors import EngineError, RuleViolation
from engine.systems.cliche import (
    AdvancementOutcome,
    Character,
    Cliche,
    ClicheOptions,
    MilestoneKind,
    Reaction,
    advancement_roll,
    apply_influence,
    apply_milestone,
    recover,
    roll_initial_reaction,
)
from tests.engine.cliche.builders import make_character


@pytest.mark.parametrize(
    ("dice", "faces", "after"),
    [
        # «Если на костях выпали только четные цифры, это клише повышается на единицу.»
        (3, (2, 4, 6), 4),
        (3, (2, 4, 5), 3),
        (1, (6,), 2),
        (5, (2, 2, 2, 2, 2), 6),
    ],
)
def test_advancement_roll(dice: int, faces: tuple[int, ...], after: int) -> None:
    hero = make_character("Мэл", ("Капитан", dice))
    updated, outcome = advancement_roll(hero, "Капитан", ScriptedSource(faces))
    assert (outcome.notation, outcome.faces, outcome.before, outcome.after) == (
        f"{dice}d6",
        faces,
        dice,
        after,
    )
    assert outcome.advanced is (after > dice)
    assert updated.cliche("Капитан").dice == after


def test_advancement_uses_full_rating_not_dice_left() -> None:
    hero = make_character("Мэл").model_copy(
        update={"cliches": (Cliche(name="Капитан", dice=4, lost=3),)}
    )
    _, outcome = advancement_roll(hero, "Капитан", ScriptedSource([2, 2, 2, 2]))
    assert outcome.notation == "4d6"
    assert outcome.after == 5


def test_no_advancement_past_six() -> None:
    # «ни одно клише не может быть повышено более чем до 6-ти»
    hero = make_character("Мэл", ("Капитан", 6))
    source = ScriptedSource([])
    updated, outcome = advancement_roll(hero, "Капитан", source)
    assert updated == hero
    assert (outcome.advanced, outcome.faces, outcome.after) == (False, (), 6)


def test_end_of_adventure_milestone_rolls_used_clichés() -> None:
    hero = make_character("Мэл", ("Капитан", 2), ("Контрабандист", 3), ("Бабник", 1))
    rolls: list[AdvancementOutcome] = []
    updated, changes = apply_milestone(
        hero,
        MilestoneKind.END_OF_ADVENTURE,
        source=ScriptedSource([2, 4, 1, 2, 2]),
        used=("Капитан", "Контрабандист"),
        rolls=rolls,
    )
    assert [c.cliche for c in rolls] == ["Капитан", "Контрабандист"]
    assert updated.cliche("Капитан").dice == 3
    assert updated.cliche("Контрабандист").dice == 3
    assert updated.cliche("Бабник").dice == 1
    assert [(c.field, c.before, c.after) for c in changes] == [("cliches.Капитан.dice", 2, 3)]
    assert changes[0].what.render("ru") == "Кости клише «Капитан»"


def test_wow_milestone_needs_a_source() -> None:
    with pytest.raises(ValueError):
        apply_milestone(
            make_character("Мэл", ("Капитан", 2)), MilestoneKind.WOW, used=("Капитан",)
        )


def _wounded() -> Character:
    return make_character("Зои").model_copy(
        update={
            "cliches": (
                Cliche(name="Солдат", dice=4, lost=3),
                Cliche(name="Пилот", dice=2, lost=1),
                Cliche(name="Жена", dice=2),
            )
        }
    )


@pytest.mark.parametrize(
    ("rate", "lost"),
    [(None, (0, 0, 0)), (1, (2, 0, 0)), (2, (1, 0, 0)), (5, (0, 0, 0))],
)
def test_recovery_at_the_gm_rate(rate: int | None, lost: tuple[int, int, int]) -> None:
    # «Кости, потерянные в бою, могут быть восстановлены по его окончании со скоростью,
    # заданной Мастером.»
    updated, changes = recover(_wounded(), ClicheOptions(recovery_dice=rate))
    assert tuple(c.lost for c in updated.cliches) == lost
    assert len(changes) == 2


def test_recovery_milestone() -> None:
    updated, changes = apply_milestone(
        _wounded(), MilestoneKind.RECOVERY, options=ClicheOptions(recovery_dice=1)
    )
    assert [(c.field, c.before, c.after) for c in changes] == [
        ("cliches.Солдат.lost", 3, 2),
        ("cliches.Пилот.lost", 1, 0),
    ]
    assert updated.cliche("Солдат").current == 2


@pytest.mark.parametrize(
    ("reaction", "ru", "target"),
    [
        # «1 - дружелюбие - 5 … 6 - ненависть - 30»
        (Reaction.FRIENDLY, "дружелюбие", 5),
        (Reaction.KINDLY, "доброжелательность", 10),
        (Reaction.INDIFFERENT, "безразличие", 15),
        (Reaction.UNFRIENDLY, "недоброжелательность", 20),
        (Reaction.HOSTILE, "враждебность", 25),
        (Reaction.HATRED, "ненависть", 30),
    ],
)
def test_reaction_scale(reaction: Reaction, ru: str, target: int) -> None:
    assert reaction.label.render("ru") == ru
    assert reaction.target == target


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5])
def test_initial_reaction_is_a_d5(face: int) -> None:
    # «она задается броском пятигранного кубика»
    outcome = roll_initial_reaction(ScriptedSource([face]))
    assert (outcome.reaction, outcome.notation, outcome.faces) == (Reaction(face), "1d5", (face,))


def test_initial_reaction_never_hatred() -> None:
    with pytest.raises(EngineError):  # the scripted 6 does not fit a d5
        roll_initial_reaction(ScriptedSource([6]))


@pytest.mark.parametrize(
    ("reaction", "total", "after", "success"),
    [
        # «В случае успеха проверки … его реакция улучшается на единицу … В случае провала -
        # ухудшается.»
        (3, 15, Reaction.KINDLY, True),
        (3, 14, Reaction.UNFRIENDLY, False),
        (1, 5, Reaction.FRIENDLY, True),
        (6, 29, Reaction.HATRED, False),
        (6, 30, Reaction.HOSTILE, True),
        (5, 20, Reaction.HATRED, False),
    ],
)
def test_influence(reaction: int, total: int, after: Reaction, success: bool) -> None:
    outcome = apply_influence(reaction, total)
    assert (outcome.after, outcome.success, outcome.target) == (after, success, 5 * reaction)


def test_influence_out_of_range() -> None:
    with pytest.raises(RuleViolation) as caught:
        apply_influence(7, 10)
    assert caught.value.msg.key == "cliche.reaction.range"


def test_armor_needs_repair_not_rest() -> None:
    # «Оборудование или техника могут требовать ремонта.»
    sheet = make_character("Зои", ("Солдат", 3), armor=("Бронежилет", 2))
    sheet = sheet.replace_cliche(sheet.cliche("Солдат").model_copy(update={"lost": 2}))
    sheet = sheet.replace_cliche(sheet.cliche("Бронежилет").model_copy(update={"lost": 2}))
    rested, changes = recover(sheet, ClicheOptions())
    assert [c.field for c in changes] == ["cliches.Солдат.lost"]
    assert rested.cliche("Бронежилет").current == 0
    repaired, changes = recover(rested, ClicheOptions(), repair_armor=True)
    assert [c.field for c in changes] == ["cliches.Бронежилет.lost"]
    assert repaired.cliche("Бронежилет").current == 2
