"""The trackers' «↩️ Undo» names its step (the version the button was drawn at): concurrent
presses of one button undo once, a press after that is refused as already undone, and a step
older than the undo window is not taken back."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.i18n import I18n
from bot.services import ledger, resources
from bot.services.trackers import core
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP
from tests.helpers.table import button_data, game_id, insert_character, tracker_row
from tests.trackers.cards_helpers import command, fate_hero, press, press_and_wait, roll_buttons
from tests.trackers.cards_helpers import start as start_game

RU = I18n("ru").translator("ru")  # the GM's language


async def _card_after_alices_roll(h: Harness) -> tuple[object, str]:
    await start_game(h, "fate")
    await insert_character(h, "fate", fate_hero("Алиса", athletics=3), owner=ALICE)
    await insert_character(h, "fate", fate_hero("Боб", fight=2), owner=BOB)
    card = await command(h, "/opposed Алиса: Атлетика | Боб: Бой")
    card = await press_and_wait(h, ALICE, card, roll_buttons(card)[0]["callback_data"])
    return card, button_data(card, "tku:")


async def test_concurrent_presses_of_one_tracker_undo_undo_once(running: Harness) -> None:
    card, undo = await _card_after_alices_roll(running)
    async with running.engine.begin() as conn:  # Bob co-runs the table
        await conn.execute(
            text("UPDATE game_members SET role = 'cogm' WHERE game_id = :g AND user_id = :u"),
            {"g": await game_id(running), "u": BOB},
        )
    pressed = [
        running.emu.press(GM if i % 2 else BOB, GROUP, card.message_id, undo) for i in range(8)
    ]
    answers = await asyncio.gather(
        *(running.emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in pressed)
    )
    assert sum(not a.show_alert for a in answers) == 1
    row = await tracker_row(running)
    assert row["version"] == 3 and row["state"]["slots"][0]["rolls"] == []
    again = await press(running, GM, card, undo)
    assert again.show_alert and again.text == RU("Already undone.")
    assert (await tracker_row(running))["version"] == 3


async def test_a_step_older_than_the_window_is_not_undone(running: Harness) -> None:
    card, undo = await _card_after_alices_roll(running)
    async with running.engine.begin() as conn:
        await conn.execute(
            text("UPDATE tracker_steps SET created_at = created_at - interval '61 min'")
        )
    refused = await press(running, GM, card, undo)
    assert refused.show_alert and refused.text == RU("That change is too old to undo.")
    row = await tracker_row(running)
    assert row["version"] == 2 and len(row["state"]["slots"][0]["rolls"]) == 1


async def test_a_panel_does_not_undo_a_fights_change(clean_db: AsyncEngine) -> None:
    """A step's ledger batch is undone with the tracker (its state comes back with it); the
    resource panel refuses it, naming where to undo it."""
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(-100902, "fate", "Tracked", GM)
        sheet = fate.new_character("Герой").model_copy(update={"fate_points": 3})
        hero = await uow.characters.add(
            game_id=game.id, owner_user_id=ALICE, is_npc=False, system="fate", name="Герой",
            status="active", sheet=sheet.model_dump(mode="json"), schema_version=1,
        )  # fmt: skip
        tracker = await core.open_tracker(
            uow, game, kind="fate_conflict", state={"hit": False}, actor_user_id=GM
        )
        await uow.commit()
    async with UnitOfWork(factory) as uow:
        batch = ledger.new_batch()
        await ledger.change_sheets(
            uow, game=game, actor_user_id=GM, kind="fate.fp.spend", batch=batch,
            changes={hero.id: lambda s: s.model_copy(update={"fate_points": 2})},
        )  # fmt: skip
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        await core.step(
            uow, loaded, expected_version=1, actor_user_id=GM, action="hit",
            state={"hit": True}, batch=batch,
        )  # fmt: skip
        await uow.commit()
    async with UnitOfWork(factory) as uow:
        with pytest.raises(resources.Refused) as refused:
            await resources.undo(uow, game=game, user_id=GM, character_id=hero.id, version=2)
    assert refused.value.reason == "This change belongs to a milestone or a fight: undo it there."
    async with UnitOfWork(factory) as uow:
        stored = await uow.characters.get(hero.id)
        assert stored is not None and stored.sheet["fate_points"] == 2
        loaded = await core.load(uow, tracker.id, chat_id=game.chat_id)
        await core.undo(uow, game, loaded, actor_user_id=GM, shown=2)
        await uow.commit()
        stored = await uow.characters.get(hero.id)
        assert stored is not None and stored.sheet["fate_points"] == 3
