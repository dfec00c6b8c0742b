"""``render_sheet`` for ``matter``: escaping, order, optional sections, the 4,096 limit."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.matter import (
    ActiveState,
    Element,
    Item,
    MatterAbility,
    MatterKind,
    MatterOptions,
    StateId,
    new_character,
    validate_character,
)
from handlers.views.sheets import LIMIT
from handlers.views.sheets.matter import render_sheet, render_violation


def test_sheet_escapes_orders_and_names_in_both_languages() -> None:
    character = new_character("<Vera> & {name}").model_copy(
        update={
            "skills": {"intimidation": 1, "brutality": 3, "tenacity": 0},
            "matter": (MatterAbility(name="Fire <b>", kind=MatterKind.MAGICAL, notes="a & b"),),
            "protections": (Element.FIRE,),
            "items": (Item(name="Эхо", count=2),),
            "states": (ActiveState(state=StateId.POISON),),
            "immune_instant_death": True,
        }
    )
    ru = render_sheet(character, I18n("ru").translator("ru"), "ru")
    assert ru.startswith("<b>&lt;Vera&gt; &amp; {name}</b>")
    assert ru.index("Жестокость ●●●") < ru.index("Запугивание ●")  # the seed's order
    assert "Fire &lt;b&gt; <i>(магическая Материя)</i> — a &amp; b" in ru
    assert "Огонь" in ru and "Эхо ×2" in ru and "Отравлен" in ru and "мгновенная смерть" in ru
    en = render_sheet(character, I18n("en").translator("en"), "en")
    assert "Brutality ●●●" in en and "Health 5/5" in en and "Poison" in en


def test_biggest_sheet_fits_a_message() -> None:
    ability = MatterAbility(name="x" * 64, kind=MatterKind.SUMMONING, notes="y" * 200)
    character = new_character("z" * 64).model_copy(update={"matter": (ability,) * 6})
    assert len(render_sheet(character, I18n("ru").translator("ru"), "ru")) < LIMIT


def test_violation_names_the_skill_in_the_reader_language() -> None:
    over = new_character("Vera").model_copy(update={"skills": {"brutality": 4}})
    found = [v for v in validate_character(over, MatterOptions()) if v.field.startswith("skills.")]
    assert render_violation(found[0], "ru") == "В навыке «Жестокость» 4 ●, а можно не больше 3."
    assert render_violation(found[0], "en") == "Skill “Brutality” has 4 dots; the cap is 3."
