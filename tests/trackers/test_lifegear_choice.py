"""lifegear fast fight: the player chooses what the character loses (issue 22 item 6, seed 001:
«Вам предстоит выбрать, чего именно в снаряжении ваш персонаж лишится»), with a deadline after
which the GM may choose; abilities and Help are offered before the roll («обычно — до»).
Stats without dice keep the damage certain whatever the logged dice are."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from engine.systems import lifegear
from engine.systems.lifegear import ItemKind
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM
from tests.helpers.table import ledger_kinds, press_refused, send_and_answer
from tests.trackers.lifegear_helpers import (
    data_of,
    hero,
    insert,
    labels,
    lifegear_table,
    press,
    sheet,
    shown,
    states,
    thing,
)


@pytest.fixture
async def table(harness: Harness) -> Harness:
    await harness.start()
    await lifegear_table(harness)
    return harness


NAMES = ("Верёвка", "Фонарь", "Фляга", "Карта", "Лопата", "Котелок")


def _hero(items: int) -> lifegear.Character:
    # «7» without dice: against defence 12 the damage is always 5.
    gear = [thing(f"i{n}", NAMES[n]) for n in range(items)]
    return hero("Лина", "7", *gear, max_lives=items)


async def _pending(h: Harness) -> dict:  # type: ignore[type-arg]
    async with h.engine.connect() as conn:
        state = (await conn.execute(text("SELECT state FROM trackers"))).scalar_one()
    return dict(state["pending"][0])


async def _expire(h: Harness) -> None:
    """The pending damage's deadline is over (the clock moved on a day)."""
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    async with h.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE trackers SET state = "
                "jsonb_set(state, '{pending,0,due}', to_jsonb(CAST(:d AS text)))"
            ),
            {"d": past},
        )


async def _fight(h: Harness) -> int:
    mid = (await send_and_answer(h, GM, "/fight Тролль 12")).message_id
    await press(h, GM, mid, "Начать")
    assert "Бой начался" in shown(h, mid) and "Поединок" not in shown(h, mid)  # issue 36 9d
    await press(h, ALICE, mid, "🎲 Лина")  # one attack, nothing to add: rolls at once
    assert "не хватило 5" in shown(h, mid)
    return mid


async def test_the_bot_never_takes_the_items_by_itself(table: Harness) -> None:
    """The issue's case: five usable items, damage 5 — all must go, yet the player confirms."""
    h = table
    lina = await insert(h, _hero(5))
    mid = await _fight(h)
    assert set(states(await sheet(h, lina)).values()) == {"ready"}
    assert await ledger_kinds(h) == []
    text_now = shown(h, mid)
    assert "Лина получает урон 5" in text_now and "после" in text_now  # the deadline shown
    assert sum(label.startswith("☑️") for label in labels(h, mid)) == 5  # made ready
    # The GM may not take it for her before the deadline.
    refusal = await press_refused(h, GM, mid, data_of(h, mid, "принять урон 5"))
    assert "выбирает игрок" in (refusal.text or ""), refusal.text  # the GM reads Russian
    await press(h, ALICE, mid, "принять урон 5")
    assert set(states(await sheet(h, lina)).values()) == {"broken"}
    assert await ledger_kinds(h) == ["lifegear.damage"]


async def test_the_player_chooses_and_the_gm_may_after_the_deadline(table: Harness) -> None:
    h = table
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET timezone = 'Europe/Moscow'"))
    lina = await insert(h, _hero(6))
    mid = await _fight(h)
    pending = await _pending(h)
    due = datetime.fromisoformat(pending["due"])
    assert timedelta(hours=23) < due - datetime.now(UTC) <= timedelta(hours=24)
    # issue 36 item 9d: the deadline on the game's clock, not Greenwich's
    local = due.astimezone(ZoneInfo("Europe/Moscow")).strftime("%d.%m %H:%M")
    assert f"после {local} может" in shown(h, mid) and "Гринвич" not in shown(h, mid)
    assert not any(label.startswith("☑️") for label in labels(h, mid))  # a real choice
    await press_refused(h, GM, mid, data_of(h, mid, "Котелок"))
    await press(h, ALICE, mid, "Котелок")  # the player begins choosing…
    await _expire(h)
    for name in NAMES[:4]:  # …and after the deadline the GM finishes for her
        await press(h, GM, mid, name)
    await press(h, GM, mid, "принять урон 5")
    assert states(await sheet(h, lina)) == {
        "Верёвка": "broken", "Фонарь": "broken", "Фляга": "broken", "Карта": "broken",
        "Лопата": "ready", "Котелок": "broken",
    }  # fmt: skip


async def test_the_games_option_sets_the_deadline(table: Harness) -> None:
    h = table
    async with h.engine.begin() as conn:
        await conn.execute(text("""UPDATE games SET options = '{"damage_choice_hours": 2}'"""))
    await insert(h, _hero(6))
    await _fight(h)
    due = datetime.fromisoformat((await _pending(h))["due"])
    assert timedelta(hours=1) < due - datetime.now(UTC) <= timedelta(hours=2)


async def test_abilities_and_help_are_offered_before_the_roll(table: Harness) -> None:
    h = table
    rage = thing("rage", "Ярость", ItemKind.ABILITY).model_copy(update={"dice": "2"})
    friend = thing("friend", "Друг", ItemKind.HELP).model_copy(update={"dice": "3"})
    lina = await insert(h, hero("Лина", "7", rage, friend, thing("rope", "Верёвка")))
    mid = (await send_and_answer(h, GM, "/fight Тролль 12")).message_id
    await press(h, GM, mid, "Начать")
    assert "Бой начался" in shown(h, mid) and "Поединок" not in shown(h, mid)  # issue 36 9d
    await press(h, ALICE, mid, "🎲 Лина")  # a single attack, but there is something to add
    assert "➕ Лина: ✨Ярость (2)" in labels(h, mid) and "➕ Лина: 🤝Друг (3)" in labels(h, mid)
    assert "Бросают: Лина" in shown(h, mid)  # nothing rolled yet
    await press(h, ALICE, mid, "Ярость (2)")
    await press(h, ALICE, mid, "Друг (3)")
    await press(h, ALICE, mid, "🎲 Лина: Сила")
    assert "«Тролль» повержен" in shown(h, mid)  # 7 + 2 + 3 = 12
    assert states(await sheet(h, lina)) == {"Ярость": "spent", "Друг": "spent", "Верёвка": "ready"}
