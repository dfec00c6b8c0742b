"""A quick fate NPC's sheet shows what it has: it read «Снаряжение (очков: 0 из 0): ближний
бой 0, дальний бой 0, броня 0» and «Трюки (обновление 0, очки судьбы 0)»."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems import fate
from handlers.views.sheets.fate import render_sheet


def _sheet(character: fate.Character) -> str:
    return render_sheet(character, I18n("ru").translator("ru"), "ru")


def _npc() -> fate.Character:
    return fate.new_character("Громила").model_copy(
        update={"skills": {fate.Skill.FIGHT: 3}, "refresh": 0, "fate_points": 0}
    )


def test_a_quick_npc_has_no_empty_gear_or_stunt_lines() -> None:
    text = _sheet(_npc())
    assert "Снаряжение" not in text and "Трюки" not in text, text
    assert "0 из 0" not in text


def test_gear_and_stunts_stay_when_there_is_something() -> None:
    armed = _npc().model_copy(
        update={"equipment": fate.Equipment(melee=1), "refresh": 2, "fate_points": 2}
    )
    text = _sheet(armed)
    assert "ближний бой 1" in text and "(обновление 2, очки судьбы 2)" in text, text
