"""The GM's «🎲 Request a roll» on a character's /sheet: the trait and the difficulty by buttons
(the system's named levels), then the same request card as /request, for the sheet's player."""

from __future__ import annotations

from typing import Any

from engine.dice.odds import distribution, matter_pool, storyteller_pool
from engine.systems import fate, matter, storyteller
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from handlers.views.dice import percent
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, press_data, scalar


async def _sheet(h: Harness, name: str) -> Any:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, f"/sheet {name}")
    return await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)


def _by_text(message: Any, *words: str) -> str:
    data: str = next(
        b["callback_data"] for b in buttons(message) if all(w in b["text"] for w in words)
    )
    return data


async def _step(h: Harness, builder: Any, data: str) -> None:
    edits = builder.edits
    await press_data(h, GM, builder, data)
    await h.emu.wait_for(lambda: builder.edits > edits)


async def _open_builder(h: Harness, name: str) -> Any:
    sheet = await _sheet(h, name)
    request = next(b["callback_data"] for b in buttons(sheet) if b["callback_data"][:4] == "rqb:")
    assert (await press_data(h, BOB, sheet, request)).show_alert  # only the GM
    assert (await press_data(h, ALICE, sheet, request)).show_alert
    await press_data(h, GM, sheet, request)
    return await h.emu.wait_bot_message(GROUP, contains="🎲", after=sheet.message_id)


async def test_fate_request_from_the_sheet_with_ladder_words(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Хроники")
    hero = fate.new_character("Мира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}})
    await insert_character(running, "fate", hero)
    builder = await _open_builder(running, "Мира")
    assert "Мира" in builder.text
    await _step(running, builder, _by_text(builder, "Атлетика", "+3"))
    assert "Хорошо +3" in str(builder.reply_markup)  # the ladder's words
    good = _by_text(builder, "Хорошо")
    await _step(running, builder, good)
    assert await scalar(running, "SELECT expression FROM roll_requests") == "4dF+3"
    assert await scalar(running, "SELECT target_number FROM roll_requests") == 3
    assert await scalar(running, "SELECT target_user_id FROM roll_requests") == ALICE
    assert await scalar(running, "SELECT message_id FROM roll_requests") == builder.message_id
    # a success is one shift or more: a total of 4 against Хорошо (3), not a tie (seed 000)
    assert "успех " + percent(distribution("4dF+3").p_at_least(4), "ru") in builder.text
    edits = builder.edits
    await press_data(running, GM, builder, good)  # a stale press of the last step: no second card
    assert builder.edits == edits
    assert await scalar(running, "SELECT count(*) FROM roll_requests") == 1
    # the same card as /request: only Alice (or the GM) rolls it
    roll = _by_text(builder, "🎲")
    assert (await press_data(running, BOB, builder, roll)).show_alert
    edits = builder.edits
    await press_data(running, ALICE, builder, roll)
    await running.emu.wait_for(lambda: builder.edits > edits and "№1" in builder.text)
    assert await scalar(running, "SELECT expression FROM rolls") == "4dF+3"


async def test_storyteller_attribute_ability_and_difficulty(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "storyteller", "Грёзы")
    hero = storyteller.new_character("Эйлин").model_copy(
        update={
            "attributes": Attributes(dexterity=3),
            "abilities": (AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),),
        }
    )
    await insert_character(running, "storyteller", hero)
    builder = await _open_builder(running, "Эйлин")
    await _step(running, builder, _by_text(builder, "Ловкость"))
    await _step(running, builder, _by_text(builder, "Атлетизм"))
    assert "стандартная" in str(builder.reply_markup)
    await _step(running, builder, _by_text(builder, "7 ·"))
    assert await scalar(running, "SELECT expression FROM roll_requests") == "5d10>=7f1"
    assert percent(storyteller_pool(5, 7).success, "ru") in builder.text
    assert "wp:" in str(builder.reply_markup)  # the storyteller card keeps its Willpower


async def test_matter_needs_no_difficulty_and_the_card_takes_modifiers(
    running: Harness,
) -> None:
    seat_table(running)
    await create_game(running, "matter", "Пепел")
    hero = matter.new_character("Пепел").model_copy(
        update={"skills": {s.value: 0 for s in matter.Skill} | {"brutality": 3}}
    )
    await insert_character(running, "matter", hero)
    builder = await _open_builder(running, "Пепел")
    await _step(running, builder, _by_text(builder, "Жестокость"))
    assert await scalar(running, "SELECT expression FROM roll_requests") == "3d10>=7!"
    assert percent(matter_pool(3).at_least_1, "ru") in builder.text
    assert "rqm:" in str(builder.reply_markup)
    assert await scalar(running, "SELECT count(*) FROM roll_requests") == 1
