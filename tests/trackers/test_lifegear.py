"""lifegear fights end to end over the emulator and Postgres: fast combat against a monster
(rolls, armor, items chosen for damage, victory, the end of the fight) and a duel (1 life per
round, stop). Stats without dice or with a wide margin keep the outcomes certain whatever the
logged dice are; the sheets are read back from the database."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from engine.systems import lifegear
from engine.systems.lifegear import ItemKind, Protection, UseTiming
from handlers.views.trackers.lifegear import LgStartCD
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers.table import current, ledger_kinds, press_data, press_refused, send_and_answer
from tests.trackers.lifegear_helpers import (
    armor,
    data_of,
    end,
    hero,
    insert,
    labels,
    lifegear_table,
    press,
    sheet,
    shown,
    states,
    thing,
    weapon,
)


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.start()
    await lifegear_table(harness)
    return harness


def _lina() -> lifegear.Character:
    # «3» without dice: every roll totals 3, so against defence 6 the damage is always 3.
    return hero(
        "Лина",
        "3",
        weapon("sword", "Меч"),
        armor("mail", "Кольчуга", Protection.REDUCE, reduce_by=1),
        thing("potion", "Зелье"),
        thing("sense", "Предчувствие", ItemKind.ABILITY),
    )


def _bob() -> lifegear.Character:
    # At least 7: always reaches defence 6.
    return hero("Боб", "1d4+6", weapon("axe", "Топор", in_hand=True))


async def _tracker_rows(h: Harness) -> list[tuple[str, str]]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(text("SELECT kind, status FROM trackers ORDER BY id"))
        return [(r[0], r[1]) for r in rows]


async def test_fast_combat_from_opening_to_the_end(table: Harness) -> None:
    lina = await insert(table, _lina())
    bob = await insert(table, _bob(), owner=BOB)

    usage = await send_and_answer(table, GM, "/fight")
    assert "/fight Тролль 12" in usage.text
    tracker = await send_and_answer(table, GM, "/fight Тролль 6")
    mid = tracker.message_id
    assert "Тролль" in tracker.text and "6" in tracker.text
    assert "Лина" in tracker.text and "Боб" in tracker.text  # both preselected

    # Set-up: only the GM toggles and starts.
    start_data = data_of(table, mid, "Начать")
    await press_refused(table, ALICE, mid, start_data)
    await press(table, GM, mid, "Боб")  # off
    assert "▫️ Боб" in labels(table, mid) and "✅ Лина" in labels(table, mid)
    await press(table, GM, mid, "Боб")  # on again
    await press(table, GM, mid, "Начать")
    text_now = shown(table, mid)
    assert "Раунд 1" in text_now and "Бросают: Лина, Боб" in text_now
    # The old «Start» button is stale now.
    stale = await press_data(table, GM, mid, start_data)
    assert stale.show_alert
    assert "Раунд 1" in shown(table, mid)

    # Лина has two attacks (sword + Сила, or Сила alone): her 🎲 opens the choice.
    await press_refused(table, BOB, mid, data_of(table, mid, "🎲 Лина"))
    await press(table, ALICE, mid, "🎲 Лина")
    assert any("Меч · Сила" in label for label in labels(table, mid))
    await press(table, ALICE, mid, "Лина: Меч · Сила")
    text_now = shown(table, mid)
    assert "→ 3" in text_now and "не хватило 3" in text_now
    assert "Лина получает урон 3" in text_now

    # The restart keeps everything: the choice is in Postgres.
    await table.restart()

    # Another player cannot choose for Лина.
    await press_refused(table, BOB, mid, data_of(table, mid, "Кольчуга: урон"))
    await press(table, ALICE, mid, "Кольчуга: урон −1")
    assert "После брони остаётся 2" in shown(table, mid)
    await press(table, ALICE, mid, "Зелье")
    await press(table, ALICE, mid, "Предчувствие")
    # Two are enough: a third is refused.
    await press_refused(table, ALICE, mid, data_of(table, mid, "Меч"))
    await press(table, ALICE, mid, "принять урон 3")
    after = await sheet(table, lina)
    assert states(after) == {
        "Меч": "ready",
        "Кольчуга": "spent",
        "Зелье": "broken",
        "Предчувствие": "spent",
    }
    assert lifegear.lives(after) == 1
    assert "жизни 4 → 1" in shown(table, mid)

    # The GM's undo takes the damage back, sheet and tracker both; then Лина takes it again.
    await press(table, GM, mid, "↩️")
    assert states(await sheet(table, lina))["Зелье"] == "ready"
    assert "Лина получает урон 3" in shown(table, mid)
    await press(table, ALICE, mid, "принять урон 3")
    assert lifegear.lives(await sheet(table, lina)) == 1

    # Боб: axe + Сила or Сила alone; the axe hits (≥ 7 against 6): the troll is down.
    await press(table, BOB, mid, "🎲 Боб")
    await press(table, BOB, mid, "Боб: Топор · Сила")
    text_now = shown(table, mid)
    assert "попадание" in text_now and "«Тролль» повержен" in text_now
    assert not any("🎲" in label for label in labels(table, mid))

    # Only the GM ends it: the mail (once per fight) is ready again, the rest stays. The end
    # has no undo, so «Завершить» asks first, in place; «Отмена» brings the buttons back.
    await press_refused(table, ALICE, mid, data_of(table, mid, "Завершить"))
    before = await _tracker_rows(table)
    await press(table, GM, mid, "Завершить")
    assert labels(table, mid) == ["🏁 Да, завершить", "Отмена"]
    await press_refused(table, ALICE, mid, data_of(table, mid, "Да, завершить"))
    assert await _tracker_rows(table) == before == [("lifegear_combat", "open")]
    await press(table, GM, mid, "Отмена")
    assert "Доп. урон" in " ".join(labels(table, mid)) and "«Тролль» повержен" in shown(table, mid)
    await end(table, GM, mid)
    final = current(table, mid)
    assert "Бой окончен" in final.text and "Боб" in final.text
    assert not final.reply_markup or not final.reply_markup.get("inline_keyboard")
    assert states(await sheet(table, lina)) == {
        "Меч": "ready",
        "Кольчуга": "ready",
        "Зелье": "broken",
        "Предчувствие": "spent",
    }
    assert lifegear.lives(await sheet(table, bob)) == 1
    assert await _tracker_rows(table) == [("lifegear_combat", "ended")]
    assert await ledger_kinds(table) == [
        "lifegear.damage",
        "undo",
        "lifegear.damage",
        "lifegear.fight_end",
    ]


async def test_surprise_round_allows_only_weapons_in_hand_and_help(table: Harness) -> None:
    friend = thing("friend", "Друг", ItemKind.HELP).model_copy(update={"dice": "2"})
    rage = thing("rage", "Ярость", ItemKind.ABILITY).model_copy(update={"dice": "1d4"})
    hero_sheet = hero(
        "Лина",
        "1d6",
        weapon("bow", "Лук"),
        weapon("knife", "Нож", in_hand=True),
        armor("shield", "Щит", Protection.ABSORB_ALL),
        friend,
        rage,
    )
    lina = await insert(table, hero_sheet)
    tracker = await send_and_answer(table, GM, "/fight Волк 20")
    mid = tracker.message_id
    await press(table, GM, mid, "Внезапно: нет")
    assert "Внезапный раунд: да" in shown(table, mid)
    await press(table, GM, mid, "Начать")
    assert "внезапно" in shown(table, mid)
    await press(table, ALICE, mid, "🎲 Лина")
    offered = [label for label in labels(table, mid) if label.startswith("🎲 Лина:")]
    assert offered == ["🎲 Лина: Нож · Сила", "🎲 Лина: Сила"]  # no bow in round 1
    boosts = [label for label in labels(table, mid) if "Лина: 🤝" in label or "✨" in label]
    assert boosts == ["➕ Лина: 🤝Друг (2)"]  # Help, but no ability when surprised
    await press(table, ALICE, mid, "Друг (2)")
    assert "☑️ Лина: 🤝Друг (2)" in labels(table, mid)
    await press(table, ALICE, mid, "Лина: Нож · Сила")
    assert "Нож · Сила + Друг): 1d6+2" in shown(table, mid)
    assert states(await sheet(table, lina))["Друг"] == "spent"
    # At most 8 against 20: damage ≥ 12; the shield takes it all and breaks.
    await press(table, ALICE, mid, "Щит: весь урон, ломается")
    # Nothing left to choose, but the bot never takes damage by itself: Лина confirms.
    assert states(await sheet(table, lina))["Щит"] == "ready"
    await press(table, ALICE, mid, "принять урон")
    after = await sheet(table, lina)
    assert states(after) == {
        "Лук": "ready",
        "Нож": "ready",
        "Щит": "broken",
        "Друг": "spent",
        "Ярость": "ready",
    }
    text_now = shown(table, mid)
    assert "Раунд 2" in text_now and "внезапно" not in text_now.split("Раунд 2")[1][:40]

    # Round 2: the bow and the ability are back among the choices.
    await press(table, ALICE, mid, "🎲 Лина")
    assert "➕ Лина: ✨Ярость (1d4)" in labels(table, mid)
    await press(table, ALICE, mid, "Лина: Лук · Сила")
    # No armor left and three usable items for damage ≥ 14: all go, the rest is below zero —
    # chosen already, taken when Лина confirms.
    assert sum(label.startswith("☑️") for label in labels(table, mid)) == 3
    await press(table, ALICE, mid, "принять урон")
    after = await sheet(table, lina)
    assert set(states(after).values()) == {"broken", "spent"}
    assert lifegear.lives(after) < 0
    assert "Ниже нуля" in shown(table, mid)
    await end(table, GM, mid)
    assert "«Волк» не повержен" in shown(table, mid)
    assert await ledger_kinds(table) == [
        "lifegear.boost",
        "lifegear.damage",
        "lifegear.damage",
    ]  # the end changes nothing: the shield is broken, not spent, and Help waits for rest


async def test_duel_one_life_per_round_and_stop(table: Harness) -> None:
    lina = await insert(table, hero("Лина", "1d6+10", thing("amulet", "Амулет", ItemKind.HELP)))
    bob_sheet = hero(
        "Боб",
        "1d6",
        armor("mail", "Кольчуга", Protection.REDUCE, reduce_by=1),
        thing("boots", "Сапоги"),
        thing("rope", "Верёвка"),
    )
    bob = await insert(table, bob_sheet, owner=BOB)
    await insert(table, hero("Кай", "2"), owner=GM, npc=True)

    refusal = await send_and_answer(table, ALICE, "/duel")
    assert refusal.text == "Это может только мастер."  # the group's, not Alice's English
    tracker = await send_and_answer(table, GM, "/duel")
    mid = tracker.message_id
    assert "Дуэль" in tracker.text and "Пока никто не выбран" in tracker.text
    await press(table, GM, mid, "Лина")
    await press(table, GM, mid, "Боб")
    await press_refused(table, GM, mid, data_of(table, mid, "Кай"))  # two at most
    await press(table, GM, mid, "Начать")
    assert "Дуэль: Лина — Боб" in shown(table, mid)

    # Each has one attack (a stat alone): 🎲 rolls at once.
    await press(table, ALICE, mid, "🎲 Лина")
    assert "Бросают: Боб" in shown(table, mid)
    await press(table, BOB, mid, "🎲 Боб")
    text_now = shown(table, mid)
    assert "Раунд выигрывает Лина: Боб теряет жизнь" in text_now and "Раунд 2" in text_now
    assert "Боб получает урон 1" in text_now
    assert not any(label.startswith("🎲") for label in labels(table, mid))  # damage first
    await press(table, BOB, mid, "Сапоги")
    await press(table, BOB, mid, "принять урон 1")
    assert states(await sheet(table, bob))["Сапоги"] == "broken"

    # Round 2: Боб loses again; Лина, the winner, stops before he takes it.
    await press(table, BOB, mid, "🎲 Боб")
    await press(table, ALICE, mid, "🎲 Лина")
    assert "Боб получает урон 1" in shown(table, mid)
    await end(table, ALICE, mid, "Остановить")
    final = current(table, mid)
    assert "Дуэль окончена" in final.text and "Урон не получен: Боб" in final.text
    assert states(await sheet(table, bob)) == {
        "Кольчуга": "ready",
        "Сапоги": "broken",
        "Верёвка": "ready",
    }
    assert lifegear.lives(await sheet(table, bob)) == 2
    assert lifegear.lives(await sheet(table, lina)) == 1
    assert await _tracker_rows(table) == [("lifegear_duel", "ended")]


async def test_an_ambush_with_a_fast_first_round(table: Harness) -> None:
    await insert(table, hero("Лина", "1d6+10"))
    bob_sheet = hero(
        "Боб",
        "1d6",
        weapon("bow", "Лук"),
        armor("shield", "Щит", Protection.ABSORB_ALL),
        thing("boots", "Сапоги"),
    )
    bob = await insert(table, bob_sheet, owner=BOB)
    mid = (await send_and_answer(table, GM, "/duel")).message_id
    await press(table, GM, mid, "Лина")  # chosen first: the attacker
    await press(table, GM, mid, "Боб")
    await press(table, GM, mid, "Внезапно: нет")
    await press(table, GM, mid, "Засада: дуэльный раунд")
    assert "⚡ Засада: быстрый раунд" in labels(table, mid)
    assert "Нападает из засады: Лина" in shown(table, mid)
    await press(table, GM, mid, "Начать")
    assert "быстрый: разница бросков — урон" in shown(table, mid)
    await press(table, ALICE, mid, "🎲 Лина")
    # Боб is surprised: his bow is not in hand, so only his bare stat rolls, at once.
    await press(table, BOB, mid, "🎲 Боб")
    text_now = shown(table, mid)
    assert "Раунд выигрывает Лина: Боб получает урон" in text_now  # 11+ against 6-: at least 5
    await press(table, BOB, mid, "Щит: весь урон, ломается")
    await press(table, BOB, mid, "принять урон")
    assert states(await sheet(table, bob)) == {"Лук": "ready", "Щит": "broken", "Сапоги": "ready"}
    # Round 2 is a duel round: the bow is back, one life at stake.
    assert "Раунд 2" in shown(table, mid) and "быстрый" not in shown(table, mid).split("\n")[1]
    await press(table, BOB, mid, "🎲 Боб")
    assert any("Лук · Сила" in label for label in labels(table, mid))
    await end(table, GM, mid, "Остановить")
    assert "Дуэль окончена" in shown(table, mid)


async def test_one_fight_at_a_time_and_players_cannot_open(table: Harness) -> None:
    await insert(table, _lina())
    refusal = await send_and_answer(table, ALICE, "/fight Тролль 6")
    assert refusal.text == "Это может только мастер."  # the group's, not Alice's English
    first = await send_and_answer(table, GM, "/fight Тролль 6")
    second = await send_and_answer(table, GM, "/duel")
    assert "/tracker" in second.text
    assert "Тролль" in first.text
    forged = LgStartCD(tid=first.message_id + 999, v=1).pack()
    await press_refused(table, GM, first.message_id, forged)
    await end(table, GM, first.message_id)
    assert "Отменено" in shown(table, first.message_id)
    assert await ledger_kinds(table) == []


async def test_an_item_used_after_the_result_can_turn_a_miss_into_a_hit(table: Harness) -> None:
    insight = thing("insight", "Озарение", ItemKind.ABILITY).model_copy(
        update={"dice": "1d4+10", "timing": UseTiming.AFTER}
    )
    lina = await insert(table, hero("Лина", "3", insight, thing("cloak", "Плащ")))
    mid = (await send_and_answer(table, GM, "/fight Огр 12")).message_id
    await press(table, GM, mid, "Начать")
    await press(table, ALICE, mid, "🎲 Лина")  # one attack, nothing before: rolls at once
    assert "не хватило 9" in shown(table, mid)
    # Both items would have to go, but the one used after the result is offered first.
    assert states(await sheet(table, lina)) == {"Озарение": "ready", "Плащ": "ready"}
    await press_refused(table, BOB, mid, data_of(table, mid, "➕"))
    await press(table, ALICE, mid, "➕ ✨Озарение (1d4+10)")
    text_now = shown(table, mid)
    assert "Лина добавляет Озарение" in text_now and "«Огр» повержен" in text_now
    assert states(await sheet(table, lina)) == {"Озарение": "spent", "Плащ": "ready"}
    await end(table, GM, mid)
    assert "Бой окончен: чудовище «Огр» повержено (Лина)" in shown(table, mid)
    assert await ledger_kinds(table) == ["lifegear.boost"]


async def test_no_game_and_other_systems(harness: Harness) -> None:
    await harness.start()
    seat_table(harness)
    answer = await send_and_answer(harness, GM, "/duel")
    assert "/newgame" in answer.text
    answer = await send_and_answer(harness, GM, "/fight Тролль 6")
    assert "/newgame" in answer.text
    await create_game(harness, "lifegear", "Кампания")
    answer = await send_and_answer(harness, GM, "/fight Тролль 999")
    assert "0" in answer.text and "100" in answer.text


async def test_concurrent_presses_roll_once(table: Harness) -> None:
    await insert(table, hero("Лина", "1d6"))  # one attack: 🎲 rolls at once
    mid = (await send_and_answer(table, GM, "/fight Тролль 3")).message_id
    await press(table, GM, mid, "Начать")
    data = data_of(table, mid, "🎲 Лина")
    presses = [table.emu.press(user, GROUP, mid, data) for user in (ALICE, GM, ALICE, GM)]
    answers = [await table.emu.wait_callback_answer(p.callback_query_id) for p in presses]
    assert sum(not a.show_alert for a in answers) == 1
    async with table.engine.connect() as conn:
        rows = await conn.execute(text("SELECT roll_id FROM rolls ORDER BY id"))
        roll_ids = [r[0] for r in rows]
    assert len(roll_ids) == 1 and re.fullmatch(r"trk:\d+:2:\d+", roll_ids[0]), roll_ids
    await table.emu.wait_for(lambda: "🎲 Лина (Сила)" in shown(table, mid))


async def test_the_gm_adds_a_monsters_extra_damage(table: Harness) -> None:
    lina = await insert(table, hero("Лина", "3", thing("cloak", "Плащ"), thing("boots", "Сапоги")))
    mid = (await send_and_answer(table, GM, "/fight Василиск 2")).message_id
    await press(table, GM, mid, "Начать")
    await press(table, ALICE, mid, "🎲 Лина")
    assert "«Василиск» повержен" in shown(table, mid)
    # Its gaze hurts after the fight: the GM's ruling, absorbed like any damage.
    await press_refused(table, ALICE, mid, data_of(table, mid, "Доп. урон"))
    await press(table, GM, mid, "Доп. урон")
    await press(table, GM, mid, "💥 +1 Лина")
    assert "Лина: ещё 1 урон" in shown(table, mid)
    await press(table, ALICE, mid, "Плащ")
    await press(table, ALICE, mid, "принять урон 1")
    assert states(await sheet(table, lina)) == {"Плащ": "broken", "Сапоги": "ready"}
    await end(table, GM, mid)
    assert "Бой окончен" in shown(table, mid)
