"""lifegear roles: the GM writes, checks, edits and deletes them with /roles (private chat)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import lifegear_roles as roles
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems.lifegear import Role
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, open_wizard, seat_table
from tests.wizards.lifegear.helpers import count, press, say, widgets, write_role

COGM = 1005


async def _roles(h: Harness) -> list[dict]:  # type: ignore[type-arg]
    async with h.engine.connect() as conn:
        value = (
            await conn.execute(text("SELECT value FROM game_data WHERE key = 'lifegear.roles'"))
        ).scalar_one_or_none()
    return list(value or [])


async def test_without_roles_the_wizard_says_so_and_closes(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    announcement = await create_game(running, "lifegear", "Пустоши")
    # the GM reads what to do first in the game's announcement (a new GM's first hour)
    assert "напишите роли этой игры" in announcement.text and "/roles" in announcement.text
    told = await open_wizard(running, ALICE, announcement)
    assert "has not written roles" in told.text and "/roles" in told.text
    assert widgets(told) == []
    assert "Nothing to cancel" in (await say(running, ALICE, "/cancel")).text  # closed
    assert await count(running, "characters") == 0

    assert "not the GM" in (await say(running, ALICE, "/roles")).text
    before = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, "/roles")
    hint = await emu.wait_bot_message(GROUP, after=before.message_id if before else 0)
    assert "/roles" in hint.text and "личном" in hint.text


async def test_gm_role_editor_refuses_bad_input_then_saves_edits_deletes(
    running: Harness,
) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Пустоши")
    menu = await say(running, GM, "/roles")
    assert "Ролей пока нет" in menu.text
    await press(running, GM, "new")
    lives = await say(running, GM, "Маг")
    assert "максимум жизней" in lives.text
    stats = await press(running, GM, "q", "3")
    bad = await say(running, GM, "Магия: 1d1\nВоля 1д4")
    assert "от 2 до 1000 граней" in bad.text  # the engine's reason, in the GM's language
    assert "Воля" in bad.text and "sn" in widgets(bad)  # the good line is kept, step stays
    assert stats.message_id == bad.message_id  # the window is edited in place
    await say(running, GM, "Магия: 2d6+1")
    await press(running, GM, "sn")
    for spell in ("Огонь", "Лёд", "Щит", "Свет: 1d4"):
        await press(running, GM, "k", "ability")
        gear = await say(running, GM, spell)
    assert "Свет" in gear.text and "1d4" in gear.text
    preview = await press(running, GM, "gn")
    assert "Годного снаряжения 4, а максимум жизней 3" in preview.text
    refused = await press(running, GM, "save")
    assert "⛔" in refused.text and "save" in widgets(refused)
    assert await _roles(running) == []  # nothing stored

    await press(running, GM, "pl")  # jump back from the preview to max lives
    fixed = await press(running, GM, "q", "5")  # … and straight back to the preview
    assert "Максимум жизней: 5" in fixed.text and "⛔" not in fixed.text
    saved = await press(running, GM, "save")
    assert "Роль «Маг» сохранена" in saved.text
    [role] = await _roles(running)
    assert role["max_lives"] == 5
    assert [s["dice"] for s in role["stats"]] == ["1d4", "2d6+1"]  # «1д4» read as 1d4
    assert [g["kind"] for g in role["gear"]] == ["ability"] * 4
    assert len({g["id"] for g in role["gear"]}) == 4

    edit = await press(running, GM, "r", "0")
    assert "Маг" in edit.text and "del" in widgets(edit)
    await press(running, GM, "pn")
    renamed = await say(running, GM, "Чародей")
    assert "Чародей" in renamed.text
    assert "Роль «Чародей» сохранена" in (await press(running, GM, "save")).text
    assert [r["name"] for r in await _roles(running)] == ["Чародей"]
    await press(running, GM, "r", "0")
    deleted = await press(running, GM, "del")
    assert "удалена" in deleted.text and await _roles(running) == []


async def test_a_gm_and_a_co_gm_saving_at_once_both_keep_their_role(clean_db: AsyncEngine) -> None:
    """A save reads the roles, changes them and writes them back; the check before it locks
    the game, so the second save reads the first one's role instead of overwriting it."""
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(-100777, "lifegear", "Пустоши", GM)
        await uow.games.set_member(game.id, COGM, "cogm")
        await uow.commit()

    async def save(user_id: int, name: str) -> None:
        async with UnitOfWork(factory) as uow:
            assert await roles.may_edit_roles(uow, game.id, user_id)
            current = await roles.load_roles(uow, game.id)
            await asyncio.sleep(0.2)  # both inside the read-change-write at once
            await roles.save_roles(uow, game.id, [*current, Role(name=name, max_lives=3)])

    await asyncio.gather(save(GM, "Маг"), save(COGM, "Воин"))
    async with UnitOfWork(factory) as uow:
        saved = {r.name for r in await roles.load_roles(uow, game.id)}
    assert saved == {"Маг", "Воин"}


async def test_a_weapon_typed_with_its_stat_keeps_the_stat_and_the_dice(running: Harness) -> None:
    """A first session: the GM typed the seed's bow, «Лук: Ловкость + 1d6»; the editor kept
    it as a description, so in the fight the bow added no dice and rolled with Стрельба too.
    The weapon now keeps its stats and its own dice, and the role's preview shows both."""
    seat_table(running)
    await create_game(running, "lifegear", "Пустоши")
    await say(running, GM, "/roles")
    await press(running, GM, "new")
    await say(running, GM, "Следопыт")
    await press(running, GM, "q", "3")
    await say(running, GM, "Стрельба: 1d8+3\nЛовкость: 1d6")
    await press(running, GM, "sn")
    prompt = await press(running, GM, "k", "weapon")
    assert "Лук: Ловкость или Стрельба + 1d6" in prompt.text  # the prompt shows the form
    gear = await say(running, GM, "Лук: Ловкость или стрельба + 1к6")
    assert "🗡 <b>Лук</b> (оружие, Ловкость / Стрельба, <code>1d6</code>)" in gear.html, gear.html
    await press(running, GM, "k", "weapon")
    await say(running, GM, "Посох: Ловкость")
    await press(running, GM, "k", "weapon")
    await say(running, GM, "Праща: Сила + 1d4")  # no such stat: a description, as before
    armor = await press(running, GM, "k", "armor")  # each kind its own example, not the bow's
    assert "Новый пункт (броня)" in armor.text and "Кольчуга: выдерживает один удар" in armor.text
    assert "Лук: 1d6" not in armor.text, armor.text
    help_ = await press(running, GM, "k", "help")
    assert "Помощь покровителя: 1d6" in help_.text and "Кольчуга:" not in help_.text
    preview = await press(running, GM, "gn")
    # the button that edits the role's «Название роли?» says «Название», not «Имя»
    labels = [b["text"] for row in (preview.reply_markup or {})["inline_keyboard"] for b in row]
    assert "✏️ Название" in labels and not any("Имя" in label for label in labels), labels
    assert "Роль «Следопыт» сохранена" in (await press(running, GM, "save")).text
    [role] = await _roles(running)
    shown = {g["name"]: (g["stats"], g["dice"], g["description"]) for g in role["gear"]}
    assert shown == {
        "Лук": (["Ловкость", "Стрельба"], "1d6", ""),
        "Посох": (["Ловкость"], "", ""),
        "Праща": ([], "", "Сила + 1d4"),
    }


async def test_a_second_role_of_the_same_name_is_refused(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Пустоши")
    await write_role(running)
    await press(running, GM, "new")
    refused = await say(running, GM, " стрелок ")  # case and spaces aside
    assert "Роль «стрелок» уже есть." in refused.text and "Название роли?" in refused.text
    assert "максимум жизней" in (await say(running, GM, "Стрелок-2")).text
