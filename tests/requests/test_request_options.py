"""Per-system options on a pending request card: a cliché pump (paid after the roll, through
the ledger), the GM's matter modifiers, a lifegear weapon and stat. Each changes the card's
expression and exact odds, only the right person presses, and the roll uses it."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import text

from bot.services.sheet_rolls import SheetRoll, outcome_words
from engine.dice.evaluator import roll
from engine.dice.odds import distribution, matter_pool
from engine.dice.source import ScriptedSource
from engine.systems import cliche, lifegear, matter
from handlers.views.dice import percent
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, press_data, scalar


async def _request(h: Harness, spec: str) -> Any:
    emu = h.emu
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    return await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)


def _data(card: Any, prefix: str) -> list[str]:
    return [b["callback_data"] for b in buttons(card) if b["callback_data"].startswith(prefix)]


async def _roll(h: Harness, card: Any) -> None:
    edits = card.edits
    await press_data(h, ALICE, card, _data(card, "rq:")[0])
    await h.emu.wait_for(lambda: card.edits > edits and "№1" in card.text)


async def test_cliche_pump_adds_dice_and_costs_them_after_the_roll(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "cliche", "Серенити")
    hero = cliche.Character(name="Мэл", cliches=(cliche.Cliche(name="Солдат", dice=3),))
    await insert_character(running, "cliche", hero)
    card = await _request(running, "Солдат vs 10")
    assert percent(distribution("3d6").p_at_least(10), "ru") in card.text
    pumps = _data(card, "rqp:")
    assert len(pumps) == 3  # 1..the cliché's dice

    assert (await press_data(running, BOB, card, pumps[1])).show_alert  # not Bob's roll
    assert await scalar(running, "SELECT expression FROM roll_requests") == "3d6"

    edits = card.edits
    presses = [running.emu.press(ALICE, GROUP, card.message_id, pumps[1]) for _ in range(8)]
    answers = await asyncio.gather(
        *(running.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in presses)
    )
    assert sum(1 for a in answers if not a.show_alert) == 1  # +2, applied once
    await running.emu.wait_for(lambda: card.edits > edits)
    # Alice (English) pressed: the card stays in the group's language, its GM's Russian
    assert "Накачка +2" in card.text and "«Солдат»" in card.text
    assert percent(distribution("5d6").p_at_least(10), "ru") in card.text
    assert _data(card, "rqp:") == []
    assert (await press_data(running, ALICE, card, pumps[0])).show_alert  # once only
    assert await scalar(running, "SELECT expression FROM roll_requests") == "5d6"
    assert await scalar(running, "SELECT count(*) FROM ledger") == 0  # paid after the roll

    await _roll(running, card)
    assert await scalar(running, "SELECT expression FROM rolls") == "5d6"
    faces = await scalar(running, "SELECT faces FROM rolls")
    assert len(faces) == 5
    result = roll("5d6", ScriptedSource(faces), stored=True)
    words = outcome_words(SheetRoll("5d6", "Солдат (3)", 10, "cliche"), result, "ru")
    assert words in card.text and "потеряло столько же костей" in card.text
    assert await scalar(running, "SELECT kind FROM ledger") == "cliche.pump"
    lost = "SELECT (sheet->'cliches'->0->>'lost')::int FROM characters"
    assert await scalar(running, lost) == 2


async def test_matter_modifiers_only_by_the_gm(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "matter", "Пепел")
    hero = matter.new_character("Пепел").model_copy(
        update={"skills": {s.value: 0 for s in matter.Skill} | {"brutality": 2}}
    )
    await insert_character(running, "matter", hero)
    card = await _request(running, "Жестокость")
    assert percent(matter_pool(2).at_least_1, "ru") in card.text
    mods = {int(d.rsplit(":", 1)[1]): d for d in _data(card, "rqm:")}
    assert sorted(mods) == [-3, -1, 1, 3]

    assert (await press_data(running, ALICE, card, mods[3])).show_alert  # the GM's call only
    assert await scalar(running, "SELECT expression FROM roll_requests") == "2d10>=7!"

    edits = card.edits
    await press_data(running, GM, card, mods[3])
    await running.emu.wait_for(lambda: card.edits > edits)
    assert percent(matter_pool(5).at_least_1, "ru") in card.text
    edits = card.edits
    await press_data(running, GM, card, mods[-1])
    await running.emu.wait_for(lambda: card.edits > edits)
    # one step per side: +3 and −1 → 4 dice
    assert await scalar(running, "SELECT expression FROM roll_requests") == "4d10>=7!"
    assert percent(matter_pool(4).at_least_1, "ru") in card.text and "→" in card.text
    edits = card.edits
    await press_data(running, GM, card, mods[-3])  # replaces −1 → 2 + 3 − 3 = 2
    await running.emu.wait_for(lambda: card.edits > edits)
    edits = card.edits
    await press_data(running, GM, card, mods[3])  # pressed again: cleared → 2 − 3 ≤ 0: chance roll
    await running.emu.wait_for(lambda: card.edits > edits)
    assert await scalar(running, "SELECT expression FROM roll_requests") == "chance"
    assert percent(matter_pool(0).at_least_1, "ru") in card.text

    await running.restart()  # the modifiers are in Postgres, not in the process
    await _roll(running, card)
    assert await scalar(running, "SELECT expression FROM rolls") == "chance"
    assert (await press_data(running, GM, card, mods[1])).show_alert  # rolled: nothing changes


async def test_lifegear_weapon_and_stat(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Лес")
    bow = lifegear.Item(
        id="bow", name="Лук", kind=lifegear.ItemKind.WEAPON, dice="1d6",
        stats=("Стрельба", "Ловкость"),
    )  # fmt: skip
    broken = lifegear.Item(
        id="axe", name="Топор", kind=lifegear.ItemKind.WEAPON, dice="1d8",
        state=lifegear.ItemState.BROKEN,
    )  # fmt: skip
    aim = lifegear.Item(id="aim", name="Меткость", kind=lifegear.ItemKind.ABILITY, dice="1d4")
    spent = lifegear.Item(
        id="friend", name="Друг", kind=lifegear.ItemKind.HELP, dice="1d6",
        state=lifegear.ItemState.SPENT,
    )  # fmt: skip
    hero = lifegear.Character(
        name="Ли",
        max_lives=5,
        stats=(
            lifegear.Stat(name="Стрельба", dice="1d8+3"),
            lifegear.Stat(name="Ловкость", dice="1d10"),
        ),
        gear=(broken, bow, aim, spent),
    )
    await insert_character(running, "lifegear", hero)
    card = await _request(running, "Стрельба vs 10")
    assert percent(distribution("1d8+3").p_at_least(10), "ru") in card.text
    rid = await scalar(running, "SELECT id FROM roll_requests")
    weapons = _data(card, f"rqw:{rid}:1:")
    assert _data(card, "rqw:") == [f"rqw:{rid}:1:-1:-1", f"rqw:{rid}:-2:-1:2"]
    assert "Топор" not in str(card.reply_markup)  # broken: not offered
    assert "Друг" not in str(card.reply_markup)  # spent until rest: not offered

    assert (await press_data(running, BOB, card, weapons[0])).show_alert
    edits = card.edits
    await press_data(running, ALICE, card, weapons[0])
    await running.emu.wait_for(lambda: card.edits > edits)
    assert await scalar(running, "SELECT expression FROM roll_requests") == "1d8+1d6+3"
    assert "Лук" in card.text  # the group's Russian, though Alice (English) pressed
    assert percent(distribution("1d8+1d6+3").p_at_least(10), "ru") in card.text
    # the title names the dice rolled now, once (it read «Стрельба (1d8+3) (1d8+1d6+3)»)
    assert "Стрельба (1d8+1d6+3)" in card.text and "(1d8+3)" not in card.text
    stats = [d for d in _data(card, "rqw:") if d.endswith(":-2:1:-1")]
    assert len(stats) == 1  # the bow also takes Ловкость
    edits = card.edits
    await press_data(running, ALICE, card, stats[0])
    await running.emu.wait_for(lambda: card.edits > edits)
    assert await scalar(running, "SELECT expression FROM roll_requests") == "1d10+1d6"
    assert percent(distribution("1d10+1d6").p_at_least(10), "ru") in card.text
    assert "Ловкость (1d10+1d6)" in card.text and "Стрельба (" not in card.text

    aim_toggle = f"rqw:{rid}:-2:-1:2"
    assert aim_toggle in _data(card, "rqw:") and "Меткость" in str(card.reply_markup)
    assert (await press_data(running, BOB, card, aim_toggle)).show_alert
    edits = card.edits
    await press_data(running, ALICE, card, aim_toggle)
    await running.emu.wait_for(lambda: card.edits > edits)
    notation = await scalar(running, "SELECT expression FROM roll_requests")
    assert notation == "1d10+1d6+1d4"
    assert percent(distribution(notation).p_at_least(10), "ru") in card.text
    assert "Меткость" in card.text

    await _roll(running, card)
    assert await scalar(running, "SELECT expression FROM rolls") == notation
    faces = await scalar(running, "SELECT faces FROM rolls")
    result = roll(notation, ScriptedSource(faces), stored=True)
    words = outcome_words(SheetRoll(notation, "", 10, "lifegear"), result, "ru")
    assert words in card.text
    assert await scalar(running, "SELECT kind FROM ledger") == "lifegear.use"
    state = "SELECT sheet->'gear'->2->>'state' FROM characters"
    assert await scalar(running, state) == "spent"


async def test_lifegear_weapon_broken_before_the_roll_is_refused(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Лес")
    bow = lifegear.Item(id="bow", name="Лук", kind=lifegear.ItemKind.WEAPON, dice="1d6")
    hero = lifegear.Character(
        name="Ли", max_lives=3, stats=(lifegear.Stat(name="Стрельба", dice="1d8+3"),), gear=(bow,)
    )
    await insert_character(running, "lifegear", hero)
    card = await _request(running, "Стрельба vs 10")
    rid = await scalar(running, "SELECT id FROM roll_requests")
    edits = card.edits
    await press_data(running, ALICE, card, f"rqw:{rid}:0:-1:-1")
    await running.emu.wait_for(lambda: card.edits > edits)
    async with running.engine.begin() as conn:  # the bow breaks before Alice rolls
        await conn.execute(
            text("UPDATE characters SET sheet = jsonb_set(sheet, '{gear,0,state}', '\"broken\"')")
        )
    assert (await press_data(running, ALICE, card, _data(card, "rq:")[0])).show_alert
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    edits = card.edits
    await press_data(running, ALICE, card, f"rqw:{rid}:-1:-1:-1")  # no weapon
    await running.emu.wait_for(lambda: card.edits > edits)
    assert await scalar(running, "SELECT expression FROM roll_requests") == "1d8+3"
    await _roll(running, card)
    assert await scalar(running, "SELECT expression FROM rolls") == "1d8+3"
