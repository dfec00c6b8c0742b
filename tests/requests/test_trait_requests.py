"""GM requests by a trait of the player's character, per system: the card rolls the right dice
and ends with the system's outcome words (recomputed here from the logged faces)."""

from __future__ import annotations

import pytest

from bot.services.sheet_rolls import SheetRoll, outcome_words
from bot.systems import SYSTEMS
from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.source import ScriptedSource
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers.table import insert_character, scalar

CASES: list[tuple[str, SheetModel, str, str]] = [
    (
        "fate",
        fate.new_character("Ира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}}),
        "Атлетика vs 2",
        "4dF+3",
    ),
    (
        "storyteller",
        storyteller.new_character("Эйлин").model_copy(
            update={
                "attributes": Attributes(dexterity=3),
                "abilities": (AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),),
            }
        ),
        "Ловкость+Атлетизм 7",
        "5d10>=7f1",
    ),
    (
        "matter",
        matter.new_character("Пепел").model_copy(
            update={"skills": {s.value: 0 for s in matter.Skill} | {"brutality": 3}}
        ),
        "Жестокость",
        "3d10>=7!",
    ),
    (
        "cliche",
        cliche.Character(name="Мэл", cliches=(cliche.Cliche(name="Солдат", dice=4),)),
        "Солдат vs 10",
        "4d6",
    ),
    (
        "lifegear",
        lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+1d6+3"),)),
        "Стрельба vs 10",
        "1d8+1d6+3",
    ),
]


# What the card names (issue: «Жестокость (3) (3d10>=7!)» said the level in brackets before the
# dice in brackets; lifegear's card said «против 10» where its /r says «против защиты 10»).
NAMED = {
    "fate": "Атлетика +3 (4dF+3) против 2",
    "storyteller": "Ловкость+Атлетизм (5d10) против 7",
    "matter": "Жестокость 3 (3d10>=7!)",
    "cliche": "Солдат 4 (4d6) против 10",
    "lifegear": "Стрельба (1d8+1d6+3) против защиты 10",
}


@pytest.mark.parametrize(("system", "hero", "spec", "notation"), CASES)
async def test_trait_request_rolls_and_speaks_the_systems_words(
    running: Harness, system: str, hero: SheetModel, spec: str, notation: str
) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, system, "Кампания")
    await insert_character(running, system, hero)
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    assert await scalar(running, "SELECT expression FROM roll_requests") == notation
    assert NAMED[system] in card.text, card.text
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "№" in card.text and card.edits >= 1)
    faces = await scalar(running, "SELECT faces FROM rolls")
    trait = await scalar(running, "SELECT trait FROM roll_requests")
    target = await scalar(running, "SELECT target_number FROM roll_requests")
    result = roll(notation, ScriptedSource(faces), stored=True)
    # Alice pressed, and she reads English: the card still speaks the group's language (its
    # GM's Russian), so it reads the same whoever presses it.
    words = outcome_words(SheetRoll(notation, trait, target, system), result, "ru")
    assert words in card.text
    assert NAMED[system] in card.text, card.text  # the rolled card names it alike
    assert SYSTEMS[system].id == system


@pytest.mark.parametrize(
    ("system", "hero", "asks", "none"),
    [
        (
            "lifegear",
            lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+3"),)),
            "какая защита?",
            "— без защиты",
        ),
        (
            "cliche",
            cliche.Character(name="Мэл", cliches=(cliche.Cliche(name="Солдат", dice=4),)),
            "какое целевое число?",
            "— без целевого числа",
        ),
    ],
)
async def test_the_builder_asks_for_the_level_in_the_systems_word(
    running: Harness, system: str, hero: SheetModel, asks: str, none: str
) -> None:
    """A first session: a lifegear GM's builder asked «какое целевое число?» with «— без
    сложности» under it, and the rolled card then said «9 против защиты 8». The builder asks
    for the defence, and its «none» button uses the same word."""
    seat_table(running)
    emu = running.emu
    await create_game(running, system, "Кампания")
    await insert_character(running, system, hero)
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, "/request", reply_to=said.message_id)  # the GM reads Russian
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    pressed = emu.press_button(GM, GROUP, card.message_id, 0)  # the trait
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: card.edits >= 1)
    assert card.text.rstrip().endswith(asks), card.text
    keyboard = (card.reply_markup or {}).get("inline_keyboard", [])
    labels = [button["text"] for row in keyboard for button in row]
    assert none in labels and "— без сложности" not in labels, labels
