"""Milestones that roll dice are the engine's: which rolls, their words and their effect.

The bot lists ``planned_rolls`` in the preview, rolls them through the log at confirm and feeds
the faces back to ``apply_rolled``; it knows nothing of clichés (issue 22).
"""

from __future__ import annotations

import pytest

from engine.dice.source import ScriptedSource
from engine.systems.cliche.profile import MILESTONES
from tests.engine.cliche.builders import make_character


def test_every_cliche_that_can_rise_is_planned_armour_and_six_are_not() -> None:
    # «ни одно клише не может быть повышено более чем до 6-ти»; armour is gear, not a skill.
    hero = make_character("Мэл", ("Капитан", 3), ("Пилот", 6), armor=("Броня", 2))
    planned = MILESTONES.planned_rolls(hero)
    assert [(r.key, r.notation) for r in planned] == [("Капитан", "3d6")]
    assert planned[0].plan.render("ru") == (
        "бросок развития «Капитан»: 3d6, все чётные → +1 кость"
    )
    assert planned[0].plan.render("en") == (
        "advancement roll for “Капитан”: 3d6, all even → +1 die"
    )


@pytest.mark.parametrize(
    ("faces", "after", "ru"),
    [
        # «Если на костях выпали только четные цифры, это клише повышается на единицу.»
        ((2, 4, 6, 1, 3), 4, "все чётные, +1 кость"),
        ((2, 4, 5, 1, 3), 3, "не все чётные"),
    ],
)
def test_the_logged_faces_decide_and_the_words_say_it(
    faces: tuple[int, ...], after: int, ru: str
) -> None:
    hero = make_character("Мэл", ("Капитан", 3), ("Вор", 2))
    planned = MILESTONES.planned_rolls(hero)
    sheet, changes, rolled = MILESTONES.apply_rolled(hero, planned, ScriptedSource(faces))
    assert sheet.cliche("Капитан").dice == after
    assert sheet.cliche("Вор").dice == 2  # 1, 3: odd
    assert [(r.key, r.faces) for r in rolled] == [("Капитан", faces[:3]), ("Вор", faces[3:])]
    assert rolled[0].words.render("ru") == ru
    assert rolled[1].words.render("ru") == "не все чётные"
    assert [(c.before, c.after) for c in changes] == ([(3, 4)] if after == 4 else [])
