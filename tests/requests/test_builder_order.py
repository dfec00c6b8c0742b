"""The GM's «what does the player roll?» lists a fate character's skills by level, then by
the name shown: «+2: Воздух, Внимательность, Вода, Воля» was the English keys' order."""

from __future__ import annotations

from engine.systems import fate
from handlers.views.request_builder import traits

SKILLS = {
    fate.Skill.ALCHEMY: 4, fate.Skill.WEALTH: 3, fate.Skill.FIGHT: 3, fate.Skill.NOTICE: 2,
    fate.Skill.WATER: 2, fate.Skill.AIR: 2, fate.Skill.WILL: 2,
}  # fmt: skip


def test_skills_of_a_level_are_in_the_shown_names_order() -> None:
    vera = fate.new_character("Вера").model_copy(update={"skills": SKILLS})
    names = [trait.name for trait in traits("fate", vera, "ru")]
    assert names == [
        "Алхимия", "Богатство", "Бой", "Внимательность", "Вода", "Воздух", "Воля",
    ]  # fmt: skip
    english = [trait.name for trait in traits("fate", vera, "en")]
    assert english[3:] == sorted(english[3:])
