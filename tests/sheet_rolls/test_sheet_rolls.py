"""Unit tests of ``bot.services.sheet_rolls``: text + sheet → notation, and outcome words."""

from __future__ import annotations

import pytest

from bot.i18n import I18n
from bot.services.sheet_rolls import (
    SheetRoll,
    SheetRollError,
    normalize,
    outcome_words,
    plan_sheet_roll,
)
from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.parser import parse
from engine.dice.source import ScriptedSource, SeededSource
from engine.errors import EngineError
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.storyteller.health import DamageKind, HealthTrack
from engine.systems.storyteller.sheet import AbilityDots, Attributes
from engine.systems.storyteller.traits import AbilityGroup
from handlers.views.sheets.storyteller import render_sheet


def fate_hero() -> fate.Character:
    return fate.new_character("Ира").model_copy(
        update={"skills": {fate.Skill.ATHLETICS: 3, fate.Skill.SHOOT: 2, fate.Skill.FIGHT: -1}}
    )


def changeling(boxes: tuple[DamageKind, ...] = ()) -> storyteller.Character:
    return storyteller.new_character("Эйлин").model_copy(
        update={
            "attributes": Attributes(dexterity=3, strength=2),
            "abilities": (
                AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),
                AbilityDots(key="performance", group=AbilityGroup.SKILLS, dots=1),
                AbilityDots(key="kung_fu", group=AbilityGroup.TALENTS, dots=3),
            ),
            "health": HealthTrack(boxes=boxes),
        }
    )


def matter_hero() -> matter.Character:
    skills = {s.value: 0 for s in matter.Skill} | {"brutality": 3, "tenacity": 1, "alchemy": 2}
    return matter.new_character("Пепел").model_copy(update={"skills": skills})


def cliche_hero() -> cliche.Character:
    return cliche.Character(
        name="Мэл",
        cliches=(
            cliche.Cliche(name="Солдат", dice=4),
            cliche.Cliche(name="Пилот", dice=3, lost=1),
            cliche.Cliche(
                name="Хакер",
                dice=4,
                tools=(cliche.Tool(name="Лаптоп", present=False),),
            ),
            cliche.Cliche(name="Ёжик в тумане", dice=2),
            cliche.Cliche(name="Агент 007", dice=3),
            cliche.Cliche(name="Бронежилет", dice=2, armor=True),
            cliche.Cliche(name="Повар", dice=2, lost=2),
            cliche.Cliche(name="<b>Злодей</b>", dice=1),
        ),
    )


def lifegear_hero() -> lifegear.Character:
    return lifegear.Character(
        name="Ли",
        stats=(
            lifegear.Stat(name="Стрельба", dice="1d8+1d6+3"),
            lifegear.Stat(name="Ближний бой", dice="1к6 + 2"),
            lifegear.Stat(name="Магия", dice="2d4-1"),
        ),
    )


# --- every plan rolls in the dice core ------------------------------------------------------

PLANS: list[tuple[str, SheetModel, str, str]] = [
    ("fate", fate_hero(), "Атлетика", "4dF+3"),
    ("fate", fate_hero(), "athletics vs 2", "4dF+3"),
    ("fate", fate_hero(), "Стрельба +1", "4dF+3"),
    ("fate", fate_hero(), "Бой", "4dF-1"),
    ("fate", fate_hero(), "Бой +1", "4dF"),
    ("fate", fate_hero(), "Обман -2 vs -1", "4dF-2"),
    ("storyteller", changeling(), "Ловкость+Атлетизм 7", "5d10>=7f1"),
    ("storyteller", changeling(), "Dexterity + Athletics", "5d10>=6f1"),
    ("storyteller", changeling(), "Сила", "2d10>=6f1"),
    ("storyteller", changeling(), "Атлетизм+Ловкость+1 vs 8", "6d10>=8f1"),
    ("storyteller", changeling(), "Сила+kung_fu-1", "4d10>=6f1"),
    ("storyteller", changeling((DamageKind.BASHING, DamageKind.BASHING)), "Ловкость", "2d10>=6f1"),
    ("matter", matter_hero(), "5", "5d10>=7!"),
    ("matter", matter_hero(), "шанс", "chance"),
    ("matter", matter_hero(), "Chance", "chance"),
    ("matter", matter_hero(), "Жестокость", "3d10>=7!"),
    ("matter", matter_hero(), "brutality +3", "6d10>=7!"),
    ("matter", matter_hero(), "Упорство -1", "chance"),
    ("matter", matter_hero(), "0", "chance"),
    ("matter", matter_hero(), "alchemy", "2d10>=7!"),
    ("cliche", cliche_hero(), "Солдат vs 10", "4d6"),
    ("cliche", cliche_hero(), "пилот", "2d6"),
    ("cliche", cliche_hero(), "Хакер 15", "3d6"),
    ("cliche", cliche_hero(), "Агент 007", "3d6"),
    ("cliche", cliche_hero(), "Агент 007 10", "3d6"),
    ("lifegear", lifegear_hero(), "Стрельба vs 10", "1d8+1d6+3"),
    ("lifegear", lifegear_hero(), "ближний бой", "1d6+2"),
    ("lifegear", lifegear_hero(), "Магия 4", "2d4-1"),
]


@pytest.mark.parametrize(("system", "character", "text", "notation"), PLANS)
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_plan_parses_and_rolls(
    system: str, character: SheetModel, text: str, notation: str, locale: str
) -> None:
    plan = plan_sheet_roll(system, character, text, locale)
    assert plan.notation == notation and plan.system == system and plan.title
    assert parse(plan.notation).canonical
    for seed in range(20):
        result = roll(plan.notation, SeededSource(seed))
        assert result.faces
        words = outcome_words(plan, result, locale)
        # A plain sum with no target says nothing more than the dice's own «Итог».
        plain = plan.target is None and system in ("cliche", "lifegear")
        assert (words or plain) and "{" not in words and "sheetroll." not in words


# --- fate -----------------------------------------------------------------------------------


def test_fate_names_in_both_languages_with_modifiers_and_difficulty() -> None:
    plan = plan_sheet_roll("fate", fate_hero(), "Атлетика", "ru")
    assert plan == SheetRoll("4dF+3", "Атлетика (+3)", None, "fate")
    plan = plan_sheet_roll("fate", fate_hero(), "ATHLETICS  +1  vs  2", "en")
    assert plan == SheetRoll("4dF+4", "Athletics (+3) +1", 2, "fate")
    assert plan_sheet_roll("fate", fate_hero(), "Атлетика 4", "ru").target == 4
    assert plan_sheet_roll("fate", fate_hero(), "Атлетика против 4", "ru").target == 4
    assert plan_sheet_roll("fate", fate_hero(), "Атлетика vs −1", "ru").target == -1
    assert plan_sheet_roll("fate", fate_hero(), "Атлетика vs Хорошо", "ru").target == 3
    assert plan_sheet_roll("fate", fate_hero(), "Athletics vs Superb", "en").target == 5
    plan = plan_sheet_roll("fate", fate_hero(), "Атлетика + 1 - 2", "ru")
    assert plan.notation == "4dF+2" and plan.target is None
    # a skill not raised is at +0
    assert plan_sheet_roll("fate", fate_hero(), "Харизма", "ru").notation == "4dF"


def test_fate_outcome_words_ladder_and_shifts() -> None:
    plan = plan_sheet_roll("fate", fate_hero(), "Атлетика vs 2", "ru")
    # faces 5,6,5,6 → ++++ = +4; +3 skill → 7 Эпично; vs 2 → 5 shifts, success with style
    result = roll(plan.notation, ScriptedSource([5, 6, 5, 6]))
    assert result.total == 7
    words = outcome_words(plan, result, "ru")
    assert "Эпично (+7)" in words and "Неплохо (+2)" in words
    assert "Крит" in words and "+5" in words
    # faces 1,1,3,3 → −2; 3 − 2 = +1 Нормально; vs 2 → fail by 1
    result = roll(plan.notation, ScriptedSource([1, 1, 3, 3]))
    words = outcome_words(plan, result, "en")
    assert "Average (+1)" in words and "Fail" in words and "−1" in words
    # tie and plain success
    assert "Tie" in outcome_words(plan, roll(plan.notation, ScriptedSource([1, 3, 3, 3])), "en")
    success = outcome_words(plan, roll(plan.notation, ScriptedSource([3, 3, 3, 3])), "en")
    assert "Success" in success and "style" not in success
    # no difficulty: the ladder name of the total only
    plain = plan_sheet_roll("fate", fate_hero(), "Атлетика", "ru")
    assert outcome_words(plain, roll("4dF+3", ScriptedSource([3, 3, 3, 3])), "ru") == (
        "Хорошо (+3)"
    )
    # off the ladder
    high = plan_sheet_roll("fate", fate_hero(), "Атлетика +6", "en")
    assert "+13" in outcome_words(high, roll(high.notation, ScriptedSource([6] * 4)), "en")


def test_fate_unknown_skill_lists_the_closest_in_both_languages() -> None:
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("fate", fate_hero(), "Атлетка", "ru")
    assert "Атлетика" in caught.value.render("ru") and "Атлетка" in caught.value.render("ru")
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("fate", fate_hero(), "Athletcs vs 2", "en")
    assert "Athletics" in caught.value.render("en")
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("fate", fate_hero(), "qwxyz", "en")
    text = caught.value.render("en")
    assert "Athletics" in text and "Empathy" in text  # nothing close: the known names


def test_suggestions_are_names_begun_or_misspelt_not_other_words() -> None:
    def said(text: str) -> str:
        with pytest.raises(SheetRollError) as caught:
            plan_sheet_roll("fate", fate_hero(), text, "ru")
        return caught.value.render("ru")

    assert "Может быть: Алхимия" in said("алх")  # the name begun
    assert "Может быть: Атлетика" in said("Атлетка")  # a letter missed
    # a different word with a like ending is no suggestion: the known names are listed
    stole = said("Воровство")
    assert "Может быть" not in stole and "Руководство" in stole and "Атлетика" in stole
    assert "Может быть" not in said("магия")  # not «Эмпатия»


def test_empty_text_after_the_numbers_is_an_error() -> None:
    for text in ("", "  ", "+1", "vs 3"):
        with pytest.raises(EngineError):
            plan_sheet_roll("fate", fate_hero(), text, "ru")


def test_a_vs_without_its_number_says_what_to_write() -> None:
    """``/r Стрельба vs`` answered «На листе нет «Стрельба vs»»: the number was left out."""

    def said(system: str, character: SheetModel, text: str) -> str:
        with pytest.raises(SheetRollError) as caught:
            plan_sheet_roll(system, character, text, "ru")
        return caught.value.render("ru")

    assert said("lifegear", lifegear_hero(), "Стрельба vs") == (
        "После «vs» нужно число: /r Стрельба vs 10"
    )
    assert said("fate", fate_hero(), "Атлетика против ") == (
        "После «против» нужно число: /r Атлетика против 2"
    )
    assert said("storyteller", changeling(), "Ловкость+Атлетизм VS").endswith("VS 6")
    assert said("cliche", cliche_hero(), "Солдат пр.").endswith("/r Солдат пр. 10")
    assert "нет сложности" in said("matter", matter_hero(), "Жестокость vs")


def test_huge_numbers_are_refused_before_any_notation() -> None:
    with pytest.raises(SheetRollError):
        plan_sheet_roll("fate", fate_hero(), "Атлетика +100000", "ru")
    with pytest.raises(SheetRollError):
        plan_sheet_roll("matter", matter_hero(), "999", "ru")


# --- storyteller ----------------------------------------------------------------------------


def test_storyteller_pool_and_difficulty() -> None:
    plan = plan_sheet_roll("storyteller", changeling(), "Ловкость+Атлетизм 7", "ru")
    assert plan == SheetRoll("5d10>=7f1", "Ловкость+Атлетизм", 7, "storyteller")
    plan = plan_sheet_roll("storyteller", changeling(), "dexterity+athletics", "en")
    assert plan == SheetRoll("5d10>=6f1", "Dexterity+Athletics", None, "storyteller")
    # ё = е: the catalogue spells Актёрство with ё, a player may type е
    plan = plan_sheet_roll("storyteller", changeling(), "Сила+Актерство", "ru")
    assert plan.notation == "3d10>=6f1"
    # a house ability by its key
    assert plan_sheet_roll("storyteller", changeling(), "Сила+kung fu", "ru").notation == (
        "5d10>=6f1"
    )


def test_storyteller_wound_penalty_is_applied() -> None:
    hurt = changeling((DamageKind.LETHAL, DamageKind.LETHAL, DamageKind.LETHAL, DamageKind.LETHAL))
    plan = plan_sheet_roll("storyteller", hurt, "Ловкость+Атлетизм", "ru")
    assert plan.notation == "3d10>=6f1" and "раны −2" in plan.title
    with pytest.raises(EngineError):  # incapacitated
        plan_sheet_roll("storyteller", changeling((DamageKind.LETHAL,) * 7), "Ловкость", "ru")
    with pytest.raises(SheetRollError):  # crippled: 3 − 5 < 1 die
        plan_sheet_roll("storyteller", changeling((DamageKind.LETHAL,) * 6), "Ловкость", "ru")


def test_storyteller_character_traits_roll_their_permanent_rating() -> None:
    """``/r Воля`` answered «На листе нет «Воля»»; a Willpower roll is its permanent rating's
    pool, wounds aside (classic WoD)."""
    hurt = changeling((DamageKind.LETHAL,) * 4).model_copy(
        update={"willpower": storyteller.PoolTrait(rating=4, pool=1)}
    )
    assert plan_sheet_roll("storyteller", hurt, "Воля", "ru") == SheetRoll(
        "4d10>=6f1", "Воля (4)", None, "storyteller"
    )
    plan = plan_sheet_roll("storyteller", hurt, "willpower +1 vs 8", "en")
    assert plan == SheetRoll("5d10>=8f1", "Willpower (4) +1", 8, "storyteller")
    assert plan_sheet_roll("storyteller", hurt, "Гламур 7", "ru").notation == "1d10>=7f1"
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("storyteller", hurt, "Ловкость+Воля", "ru")
    assert caught.value.render("ru") == (
        "Черту «Воля» бросают отдельно, без атрибута и способности: /r Воля 7"
    )
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("storyteller", hurt, "Магия", "ru")
    # a house ability by the name the sheet shows, not its raw key («kung_fu»)
    assert caught.value.render("ru").endswith("kung fu, Воля, Гламур, Банальность.")
    assert "kung fu 3" in render_sheet(hurt, I18n("ru").translator("ru"), "ru")


@pytest.mark.parametrize(
    "text",
    ["Атлетизм", "Ловкость+Сила", "Ловкость+Атлетизм+Актерство", "Ловкость 11", "Ловкость 1"],
)
def test_storyteller_refuses_what_the_rules_refuse(text: str) -> None:
    with pytest.raises(EngineError) as caught:
        plan_sheet_roll("storyteller", changeling(), text, "ru")
    assert caught.value.render("ru") and caught.value.render("en")


def test_storyteller_unknown_trait_lists_matches() -> None:
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("storyteller", changeling(), "Ловксть+Атлетизм 7", "ru")
    assert "Ловкость" in caught.value.render("ru")
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("storyteller", changeling(), "Dexterity+Athletcs", "en")
    assert "Athletics" in caught.value.render("en")


def test_storyteller_outcome_words() -> None:
    plan = plan_sheet_roll("storyteller", changeling(), "Ловкость+Атлетизм 7", "ru")
    botch = roll(plan.notation, ScriptedSource([1, 1, 3, 4, 8]))
    assert botch.botch
    words = outcome_words(plan, botch, "ru")
    assert "Провал" in words and "(проблематичная)" in words and "Сложность 7" in words
    failure = roll(plan.notation, ScriptedSource([1, 8, 3, 4, 5]))
    assert "Неудача" in outcome_words(plan, failure, "ru")
    two = roll(plan.notation, ScriptedSource([7, 8, 3, 4, 5]))
    words = outcome_words(plan, two, "en")
    assert "Moderate success" in words and "2" in words
    default = plan_sheet_roll("storyteller", changeling(), "Ловкость", "en")
    assert "Standard" in outcome_words(default, roll(default.notation, SeededSource(3)), "en")


# --- matter ---------------------------------------------------------------------------------


def test_matter_pools_chance_and_skills() -> None:
    assert plan_sheet_roll("matter", matter_hero(), "5", "ru") == SheetRoll(
        "5d10>=7!", "Пул 5", None, "matter"
    )
    assert plan_sheet_roll("matter", matter_hero(), "ШАНС", "ru").notation == "chance"
    plan = plan_sheet_roll("matter", matter_hero(), "Жестокость +1", "ru")
    assert plan == SheetRoll("4d10>=7!", "Жестокость (3) +1", None, "matter")
    assert plan_sheet_roll("matter", matter_hero(), "Жестокость -3", "ru").notation == "chance"
    assert plan_sheet_roll("matter", matter_hero(), "-2", "ru").notation == "chance"
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("matter", matter_hero(), "Жестокст", "ru")
    assert "Жестокость" in caught.value.render("ru")
    with pytest.raises(SheetRollError):
        plan_sheet_roll("matter", matter_hero(), "Жестокость vs 3", "ru")
    # Сила воли is on the sheet, just not rolled: it read «На листе нет «Сила воли»»
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("matter", matter_hero(), "Сила воли", "ru")
    said = caught.value.render("ru")
    assert said.startswith("«Сила воли» не бросают. Бросьте навык (Жестокость, ")
    assert said.endswith(", пул (/r 5) или /r шанс.")


def test_matter_outcome_words_grades_and_critical_failure() -> None:
    pool = plan_sheet_roll("matter", matter_hero(), "3", "ru")
    words = outcome_words(pool, roll(pool.notation, ScriptedSource([7, 9, 2])), "ru")
    assert words.endswith("Хорошо") and "Успехов" not in words  # the roll counts them
    # 10-again: 10, 8, 3 → the 10 adds a die (7) → 3 successes
    extra = roll(pool.notation, ScriptedSource([10, 8, 3, 7]))
    assert "Экстра-успех" in outcome_words(pool, extra, "ru")
    assert "Провал" in outcome_words(pool, roll(pool.notation, ScriptedSource([1, 2, 3])), "ru")
    one = plan_sheet_roll("matter", matter_hero(), "1", "en")
    crit = roll(one.notation, ScriptedSource([1]))
    assert crit.critical_failure and "Critical failure" in outcome_words(one, crit, "en")
    chance = plan_sheet_roll("matter", matter_hero(), "шанс", "ru")
    assert "Критический провал" in outcome_words(chance, roll("chance", ScriptedSource([1])), "ru")
    assert "Провал" in outcome_words(chance, roll("chance", ScriptedSource([9])), "ru")
    assert "Кое-как" in outcome_words(chance, roll("chance", ScriptedSource([10, 3])), "ru")


# --- cliche ---------------------------------------------------------------------------------


def test_cliche_own_names_current_dice_and_tools() -> None:
    plan = plan_sheet_roll("cliche", cliche_hero(), "Солдат vs 10", "ru")
    assert plan == SheetRoll("4d6", "Солдат (4)", 10, "cliche")
    assert plan_sheet_roll("cliche", cliche_hero(), "Пилот", "ru").notation == "2d6"  # 1 lost
    assert plan_sheet_roll("cliche", cliche_hero(), "Хакер", "ru").notation == "3d6"  # no laptop
    assert plan_sheet_roll("cliche", cliche_hero(), "ежик в тумане", "ru").notation == "2d6"
    # a name that ends in digits stays whole; a target after it still reads
    assert plan_sheet_roll("cliche", cliche_hero(), "агент 007", "ru").target is None
    assert plan_sheet_roll("cliche", cliche_hero(), "Агент 007 vs 15", "ru").target == 15
    with pytest.raises(EngineError):
        plan_sheet_roll("cliche", cliche_hero(), "Бронежилет", "ru")  # armor is never rolled
    with pytest.raises(EngineError):
        plan_sheet_roll("cliche", cliche_hero(), "Повар", "ru")  # every die lost


def test_cliche_unknown_name_and_html_safe_errors() -> None:
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("cliche", cliche_hero(), "Солдт vs 10", "ru")
    assert "Солдат" in caught.value.render("ru")
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("cliche", cliche_hero(), "<i>Злодй</i>", "ru")
    text = caught.value.render("ru")
    assert "<i>" not in text and "<b>" not in text and "&lt;" in text
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("cliche", cliche.Character(name="Пусто"), "Солдат", "en")
    assert "Солдат" in caught.value.render("en")


def test_cliche_outcome_words() -> None:
    plan = plan_sheet_roll("cliche", cliche_hero(), "Солдат vs 10", "ru")
    hit = roll(plan.notation, ScriptedSource([3, 3, 2, 2]))
    assert outcome_words(plan, hit, "ru") == "10 против 10 (Вызов для профессионала): успех"
    miss = roll(plan.notation, ScriptedSource([1, 1, 1, 1]))
    assert "неудача" in outcome_words(plan, miss, "ru")
    odd = plan_sheet_roll("cliche", cliche_hero(), "Солдат 12", "en")
    assert outcome_words(odd, hit, "en") == "10 vs 12: failure"
    free = plan_sheet_roll("cliche", cliche_hero(), "Солдат", "en")
    assert outcome_words(free, hit, "en") == ""  # the dice's own «Total» says it once


# --- lifegear -------------------------------------------------------------------------------


def test_lifegear_stats_and_defence() -> None:
    plan = plan_sheet_roll("lifegear", lifegear_hero(), "Стрельба vs 10", "ru")
    assert plan == SheetRoll("1d8+1d6+3", "Стрельба (1d8+1d6+3)", 10, "lifegear")
    result = roll(plan.notation, ScriptedSource([4, 3]))
    assert result.total == 10
    assert outcome_words(plan, result, "ru") == "10 против защиты 10: успех"
    low = roll(plan.notation, ScriptedSource([1, 2]))
    assert outcome_words(plan, low, "en") == "6 vs defence 10: failure, 4 short"
    assert plan_sheet_roll("lifegear", lifegear_hero(), "БЛИЖНИЙ БОЙ", "ru").notation == "1d6+2"
    with pytest.raises(SheetRollError) as caught:
        plan_sheet_roll("lifegear", lifegear_hero(), "Стрельбв vs 10", "ru")
    assert "Стрельба" in caught.value.render("ru")


def test_lifegear_usage_example_is_in_the_readers_language() -> None:
    """/request's usage in an English lifegear game read «/request Стрельба vs 10»."""
    from engine.systems.sheet_rolls import shorthand_example

    blank = SYSTEMS["lifegear"].new_character("?")
    rolls = SYSTEMS["lifegear"].sheet_rolls
    assert shorthand_example(rolls, blank, "en") == "Shooting vs 10"
    assert shorthand_example(rolls, blank, "ru") == "Стрельба vs 10"


def test_normalize() -> None:
    assert normalize("  Ёжик   В  Тумане ") == "ежик в тумане"


def test_system_and_sheet_must_agree() -> None:
    with pytest.raises(ValueError):
        plan_sheet_roll("fate", matter_hero(), "Атлетика", "ru")


def test_matter_numbers_and_chance_are_claimed_before_notation() -> None:
    from bot.services.sheet_rolls import prefers_sheet_roll

    for text in ("5", " 12 ", "шанс", "Chance", "-1"):
        assert prefers_sheet_roll("matter", text)
    for text in ("5d10>=7!", "Жестокость", "2+3"):
        assert not prefers_sheet_roll("matter", text)
    assert not prefers_sheet_roll("fate", "5")
