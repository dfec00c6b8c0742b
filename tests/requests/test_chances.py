"""A card shows what the engine says (issue 22): the chances on a request card are the
engine's exact odds of the seed's success, for every system by its own ladder; the rolled card,
an invoked or rerolled Fate card and the Storyteller Willpower card read the dice as the engine
does; ``/odds`` uses the chat's game system."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from bot.systems import rules_for
from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.odds import (
    cliche_check,
    fate_check,
    lifegear_check,
    matter_pool,
    storyteller_pool,
)
from engine.dice.results import RollResult
from engine.dice.source import ScriptedSource
from engine.systems import fate, storyteller
from engine.systems.base import Ask
from engine.systems.fate.outcomes import RULES as FATE_RULES
from engine.systems.matter.rolls import grade_of
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from engine.systems.storyteller.outcomes import RULES as STORYTELLER_RULES
from handlers.views.dice import percent
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, scalar
from tests.requests.test_trait_requests import CASES


def _outcome(system: str, notation: str, target: int | None, result: RollResult) -> str:
    """The engine's own outcome for these faces, from each system's rule functions."""
    if system == "fate":
        assert target is not None
        return fate.outcome_of(result.total - target).value
    if system == "storyteller":
        difficulty = int(notation.split(">=")[1].split("f")[0])
        return storyteller.evaluate(result.faces, difficulty).result.value
    if system == "matter":
        successes = max(0, result.total)
        return grade_of(successes, critical_failure=result.critical_failure).value
    assert target is not None
    return "success" if result.total >= target else "failure"


SUCCESS: dict[str, Fraction] = {  # the seed's success, from the engine's exact odds
    "fate": fate_check(3, 2).at_least_success,  # Атлетика +3 vs 2: one shift or more
    "storyteller": storyteller_pool(5, 7).success,  # net ≥ 1
    "matter": matter_pool(3).at_least_1,  # one success or more
    "cliche": cliche_check(4, 10),  # sum ≥ target
    "lifegear": lifegear_check("1d8+1d6+3", 10),  # total ≥ defence
}


async def _request(h: Harness, spec: str) -> Any:
    said = h.emu.send_text(ALICE, GROUP, "готова")
    h.emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    return await h.emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)


async def _roll(h: Harness, card: Any) -> RollResult:
    pressed = h.emu.press_button(ALICE, GROUP, card.message_id, 0)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await h.emu.wait_for(lambda: "№" in card.text and card.edits >= 1)
    notation = await scalar(h, "SELECT expression FROM roll_requests")
    faces = await scalar(h, "SELECT faces FROM rolls ORDER BY seq DESC LIMIT 1")
    return roll(notation, ScriptedSource(faces), stored=True)


@pytest.mark.parametrize(("system", "hero", "spec", "notation"), CASES)
async def test_the_card_shows_the_engines_chance_and_reads_the_faces_as_the_engine(
    running: Harness, system: str, hero: SheetModel, spec: str, notation: str
) -> None:
    seat_table(running)
    await create_game(running, system, "Кампания")
    await insert_character(running, system, hero)
    card = await _request(running, spec)
    # the GM reads Russian: the pending card is in the group's language
    assert f"Шансы: успех {percent(SUCCESS[system], 'ru')}" in card.text
    result = await _roll(running, card)
    target = await scalar(running, "SELECT target_number FROM roll_requests")
    reading = rules_for(system).read(Ask(notation, target), result)
    assert reading is not None
    assert reading.outcome == _outcome(system, notation, target, result)
    # Alice (English) pressed: the card stays in the group's language, its GM's Russian
    assert reading.words.render("ru") in card.text


async def test_fate_card_chance_is_a_success_not_a_tie(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Хроники")
    hero = fate.new_character("Мира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 2}})
    await insert_character(running, "fate", hero)
    card = await _request(running, "Атлетика vs 3")
    odds = fate_check(2, 3)
    assert f"успех {percent(odds.at_least_success, 'ru')}" in card.text  # 18,5 %: the seed's
    assert f"ничья {percent(odds.tie, 'ru')}" in card.text
    assert "успех 18,5\u00a0%" in card.text  # issue 36 item 9d: a decimal comma in Russian
    assert percent(odds.at_least_success + odds.tie, "ru") not in card.text  # not P(tie or better)


async def _fate_hero(h: Harness) -> None:
    hero = fate.new_character("Мира").model_copy(
        update={
            "fate_points": 3,
            "skills": {fate.Skill.ATHLETICS: 2},
            "aspects": (
                fate.CharacterAspect(text="Дочь контрабандиста", role=fate.AspectRole.CONCEPT),
                fate.CharacterAspect(text="Долг перед гильдией", role=fate.AspectRole.TROUBLE),
            ),
        }
    )
    await insert_character(h, "fate", hero, owner=ALICE, seated=False)


def _fate_words(total: int, target: int) -> str:
    # four blank fate dice: the total is exactly ``total``
    result = roll(fate.fate_notation(total), ScriptedSource([3, 3, 3, 3]), stored=True)
    reading = FATE_RULES.read(Ask(result.expression, target), result)
    assert reading is not None and reading.outcome == fate.outcome_of(total - target).value
    return reading.words.render("ru")  # the group's language, whoever pressed


async def _invoke(h: Harness, card: Any, aspect: int, mode: str) -> None:
    menu = next(b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("ivm:"))
    data = menu.replace("ivm:", "iv:") + f":{aspect}:{mode}"
    edits = card.edits
    pressed = h.emu.press(ALICE, GROUP, card.message_id, data)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await h.emu.wait_for(lambda: card.edits > edits)


async def test_fate_reroll_and_invoke_keep_the_ladder_shifts_and_style(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Хроники")
    await _fate_hero(running)
    card = await _request(running, "Атлетика vs 3")
    first = await _roll(running, card)
    assert _fate_words(first.total, 3) in card.text

    await _invoke(running, card, 1, "reroll")
    rerolled = await _roll_after(running)
    assert _fate_words(rerolled.total, 3) in card.text
    assert "✅" not in card.text and "❌" not in card.text

    await _invoke(running, card, 0, "bonus")
    assert _fate_words(rerolled.total + 2, 3) in card.text


async def _roll_after(h: Harness) -> RollResult:
    notation = await scalar(h, "SELECT expression FROM roll_requests")
    faces = await scalar(h, "SELECT faces FROM rolls ORDER BY seq DESC LIMIT 1")
    return roll(notation, ScriptedSource(faces), stored=True)


async def test_raw_fate_request_reads_the_ladder(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Хроники")
    card = await _request(running, "4dF+2 vs 3")
    result = await _roll(running, card)
    assert _fate_words(result.total, 3) in card.text


async def test_odds_use_the_chats_system(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "cliche", "Светлячок")
    said = emu.send_text(ALICE, GROUP, "/odds 3d6 vs 10")
    reply = await emu.wait_bot_message(GROUP, after=said.message_id)
    # sum ≥ target: 62.5%, in the group's language (its GM's Russian), whoever asks
    assert f"успех: {percent(cliche_check(3, 10), 'ru')}" in reply.text
    assert "ничья" not in reply.text and "крит" not in reply.text
    said = emu.send_text(ALICE, GROUP, "/odds 3d6")
    reply = await emu.wait_bot_message(GROUP, after=said.message_id)
    assert "в среднем: 10.5" in reply.text and "1050" not in reply.text


async def test_odds_in_lifegear_count_a_total_equal_to_the_defence(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "lifegear", "Жизни")
    said = emu.send_text(ALICE, GROUP, "/odds 1d8+1d6+3 vs 10")
    reply = await emu.wait_bot_message(GROUP, after=said.message_id)
    assert f"успех: {percent(lifegear_check('1d8+1d6+3', 10), 'ru')}" in reply.text
    assert "ничья" not in reply.text


async def test_odds_take_a_trait_name_as_r_does(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    hero = fate.new_character("Мира").model_copy(update={"skills": {fate.Skill.FIGHT: 3}})
    await insert_character(running, "fate", hero)
    said = emu.send_text(ALICE, GROUP, "/odds Бой vs 5")
    reply = await emu.wait_bot_message(GROUP, after=said.message_id)
    odds = fate_check(3, 5)
    assert "4dF+3" in reply.text
    assert f"успех: {percent(odds.at_least_success, 'ru')}" in reply.text
    assert f"ничья: {percent(odds.tie, 'ru')}" in reply.text


async def test_willpower_gives_one_reading_and_changes_the_chance(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "storyteller", "Грёзы")
    hero = storyteller.new_character("Эйлин").model_copy(
        update={
            "attributes": Attributes(dexterity=3),
            "abilities": (AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),),
            "willpower": storyteller.PoolTrait(rating=3, pool=1),
        }
    )
    await insert_character(running, "storyteller", hero, owner=ALICE, seated=False)
    card = await _request(running, "Ловкость+Атлетизм")
    assert f"успех {percent(storyteller_pool(5, 6).success, 'ru')}" in card.text
    wp = next(b["callback_data"] for b in buttons(card) if b["callback_data"].startswith("wp:"))
    pressed = emu.press(ALICE, GROUP, card.message_id, wp)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "💪" in card.text)
    spent = STORYTELLER_RULES.chances(Ask("5d10>=6f1", willpower=True))
    assert spent is not None and spent.success == 1  # the Willpower success cannot be cancelled
    # redrawn in the group's language (its GM's Russian), though Alice reads English
    assert f"успех {percent(spent.success, 'ru')}" in card.text
    assert f"успех {percent(storyteller_pool(5, 6).success, 'ru')}" not in card.text

    result = await _roll(running, card)
    pool = storyteller.evaluate(result.faces, 6, willpower=True)
    degree = pool.degree
    assert degree is not None
    words = f"{degree.name_msg.render('ru')} (успехов: {pool.net}, из них один — за Волю)"
    assert words in card.text
    assert card.text.count("(успехов:") == 1  # one reading, no contradicting second one
