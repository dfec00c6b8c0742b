"""The FATE sheet's point counts read in plain English: an approved sheet said «Artifacts
(1 points)» and «Gear (1 of 1 points)»; Russian keeps «очков: 1»."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems import fate
from engine.systems.fate import Skill
from handlers.views.sheets import render_sheet


def _sheet(locale: str, skills: dict[Skill, int]) -> str:
    character = fate.new_character("Mira").model_copy(update={"skills": skills})
    return render_sheet("fate", character, I18n("ru").translator(locale), locale)


def test_one_point_is_one_point() -> None:
    # Артефакторика +1: 1 artifact point; Алхимия +2: 2 alchemy points and, with it, 1 gear point
    en = _sheet("en", {Skill.ARTIFICE: 1, Skill.ALCHEMY: 2})
    assert "Artifacts (1 point): —" in en and "Alchemy (2 points): —" in en
    assert "(0 of 1 point): melee 0" in en and "1 points" not in en
    ru = _sheet("ru", {Skill.ARTIFICE: 1, Skill.ALCHEMY: 2})
    assert "Артефакты (очков: 1): —" in ru and "Алхимия (очков: 2): —" in ru
    assert "(очков: 0 из 1): ближний бой 0" in ru


def test_more_points_read_as_before() -> None:
    en = _sheet("en", {Skill.ARTIFICE: 3, Skill.WEALTH: 2})
    assert "Artifacts (3 points): —" in en and "(0 of 3 points): melee 0" in en
