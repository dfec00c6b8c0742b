"""Inline rolls over the emulator: ``@bot 4dF+2`` and ``@bot Атлетика`` in any chat, rolled
only after the choice, once per sent message, in the roller's own verifiable log."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from bot.polling import TELEGRAM_UPDATE_TYPES
from bot.services import inline_rolls
from db.database import create_session_factory
from db.repositories.users import TelegramUser
from db.uow import UnitOfWork
from engine.dice.evaluator import roll
from engine.dice.log import loads
from engine.dice.parser import parse
from engine.dice.source import ScriptedSource
from engine.dice.verify import verify_export
from engine.systems import fate
from tabletop.app import _housekeeping
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, create_game, seat_table
from tests.helpers.table import insert_character, scalar
from tgemu import BotAPIEmulator
from tgemu.inline import InlineMessage


async def _ask(emu: BotAPIEmulator, user: int, query: str) -> tuple[str, list[dict[str, Any]]]:
    asked = emu.inline_query(user, query)
    results = await emu.wait_inline_answer(asked.inline_query_id, timeout=10)
    return asked.inline_query_id, results


async def _rolls(h: Harness) -> list[Any]:
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT r.roll_id, r.expression, r.faces, r.result, r.seq, l.chat_id "
                "FROM rolls r JOIN roll_logs l ON l.id = r.log_id ORDER BY r.id"
            )
        )
        return list(rows)


async def _choose(h: Harness, user: int, query_id: str, result_id: str) -> InlineMessage:
    chosen = h.emu.choose_inline_result(user, query_id, result_id)
    assert chosen.inline_message_id is not None
    return await h.emu.wait_inline_message(chosen.inline_message_id, timeout=10)


async def test_notation_rolls_after_the_choice_only(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "4dF+2 атака")
    assert [r["title"] for r in results] == ["🎲 4dF+2 атака"]
    placeholder = results[0]["input_message_content"]["message_text"]
    # the answer holds no result, and nothing is rolled or committed to yet
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    assert await scalar(running, "SELECT count(*) FROM seed_epochs") == 0
    record = emu.inline_query_record(query_id)
    assert record.is_personal and record.cache_time <= 1
    assert "4dF+2" in placeholder and "Rolling" in placeholder

    first = await _choose(running, ALICE, query_id, results[0]["id"])
    stored = await _rolls(running)
    assert len(stored) == 1
    roll_id, expression, faces, total, seq, log_chat = stored[0]
    assert log_chat == ALICE and roll_id.startswith("inline:")
    assert expression == parse("4dF+2 атака").canonical
    assert roll(expression, ScriptedSource(faces)).total == total
    assert f"#{seq}" in first.text and "/log" in first.text
    assert str(total) in first.text and "Rolling" not in first.text
    commitment = await scalar(running, "SELECT commitment FROM seed_epochs")
    # the log's first roll opened its epoch (made at the choice): one plain line, the hash on /log
    assert "🔒" in first.text and commitment not in first.text

    # the same result chosen again (the client kept the answer): a second, independent roll
    second = await _choose(running, ALICE, query_id, results[0]["id"])
    stored = await _rolls(running)
    assert len(stored) == 2 and stored[0][0] != stored[1][0]
    assert first.inline_message_id != second.inline_message_id
    assert f"#{stored[1][4]}" in second.text and "🔒" not in second.text


async def test_redelivered_choice_and_a_late_press_roll_once(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "2d6+1")
    chosen = emu.choose_inline_result(ALICE, query_id, results[0]["id"])
    assert chosen.update_id is not None and chosen.inline_message_id is not None
    message = await emu.wait_inline_message(chosen.inline_message_id, timeout=10)
    text_after = message.text
    emu.redeliver(chosen.update_id)
    # a copy under another update id gets past the update's claim: the message's key holds
    emu.inject_update(
        {"chosen_inline_result": {
            "result_id": results[0]["id"], "from": {"id": ALICE, "is_bot": False,
            "first_name": "Alice"}, "query": "2d6+1",
            "inline_message_id": chosen.inline_message_id}}
    )  # fmt: skip
    # a press on the placeholder's button by a client that had not seen the edit yet
    data = results[0]["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    pressed = emu.press_inline_data(ALICE, chosen.inline_message_id, data)
    late = await emu.wait_callback_answer(pressed.callback_query_id, timeout=10)
    assert "Already rolled" in (late.text or "")
    await emu.wait_idle(10)
    assert len(await _rolls(running)) == 1
    assert message.edits == 1 and message.text == text_after
    # the rolled message keeps only a link to the log: no «Roll» button to press
    assert all("callback_data" not in b for b in message.buttons())


async def test_feedback_off_the_button_rolls_once(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    emu.inline_feedback = False
    query_id, results = await _ask(emu, ALICE, "3d6")
    chosen = emu.choose_inline_result(ALICE, query_id, results[0]["id"])
    assert chosen.update_id is None and chosen.inline_message_id is not None
    await emu.wait_idle(5)
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    # someone else in the chat presses: refused, nothing rolled
    bob = emu.press_inline(BOB, chosen.inline_message_id, 0)
    answer = await emu.wait_callback_answer(bob.callback_query_id, timeout=10)
    assert answer.show_alert and "Only the player" in (answer.text or "")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    first = emu.press_inline(ALICE, chosen.inline_message_id, 0)
    second = emu.press_inline(ALICE, chosen.inline_message_id, 0)
    await emu.wait_callback_answer(first.callback_query_id, timeout=10)
    late = await emu.wait_callback_answer(second.callback_query_id, timeout=10)
    assert "Already rolled" in (late.text or "")
    message = emu.inline_message(chosen.inline_message_id)
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1
    assert message.edits == 1 and "3d6" in message.text


async def test_bad_notation_is_refused_in_words(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    _, results = await _ask(emu, ALICE, "2d6+")
    assert len(results) == 1 and results[0]["id"] == "error"
    assert results[0]["title"] == "⚠️ Not a roll"
    assert results[0]["description"] and "Traceback" not in results[0]["description"]
    assert "reply_markup" not in results[0]  # choosing it sends words, rolls nothing
    _, nothing = await _ask(emu, ALICE, "   ")
    assert [r["id"] for r in nothing] == ["hint"] and "reply_markup" not in nothing[0]
    emu.set_language(BOB, "ru")
    _, russian = await _ask(emu, BOB, "1000d1000000")
    assert russian[0]["title"] == "⚠️ Это не бросок"
    assert await scalar(running, "SELECT count(*) FROM inline_offers") == 0


async def test_trait_roll_of_the_active_character(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Кампания")
    hero = fate.new_character("Ира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}})
    await insert_character(running, "fate", hero, owner=ALICE)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "Атлетика vs 2")
    assert len(results) == 1 and "Ира" in results[0]["description"]
    assert "Кампания" in results[0]["description"]
    message = await _choose(running, ALICE, query_id, results[0]["id"])
    stored = await _rolls(running)
    assert len(stored) == 1 and stored[0][1] == parse("4dF+3").canonical
    assert stored[0][5] == ALICE  # the roller's own log, not the game's chat
    assert "Атлетика" in message.text or "Athletics" in message.text
    # not a trait of hers: the closest names, in words
    _, refused = await _ask(emu, ALICE, "Атлетикка")
    assert refused[0]["id"] == "error"


async def test_log_and_verify_in_the_private_chat_show_it(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "4dF+2")
    message = await _choose(running, ALICE, query_id, results[0]["id"])
    emu.send_text(ALICE, ALICE, "/log")
    log = await emu.wait_bot_message(ALICE, contains="4dF+2", timeout=10)
    seq = (await _rolls(running))[0][4]
    assert f"#{seq}" in log.text and f"#{seq}" in message.text
    emu.send_text(ALICE, ALICE, "/verify")
    verdict = await emu.wait_bot_message(ALICE, contains="✅", after=log.message_id, timeout=15)
    assert "1" in verdict.text
    emu.send_text(ALICE, ALICE, "/log export")
    doc = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(ALICE) if m.document), None)
    )
    data = doc.document.data  # type: ignore[union-attr]
    assert verify_export(loads(data)).ok
    assert json.loads(data)["entries"][0]["roll_id"].startswith("inline:")


async def test_one_result_per_game_and_the_pick_decides(running: Harness) -> None:
    seat_table(running)
    second_group = -100600
    running.emu.add_group(second_group, "Other", members=[GM, ALICE], creator=GM)
    await create_game(running, "fate", "Кампания")
    await _create_game_in(running, second_group, "fate", "Хроника")
    ira = fate.new_character("Ира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}})
    await insert_character(running, "fate", ira, owner=ALICE)
    eva = fate.new_character("Ева").model_copy(update={"skills": {fate.Skill.ATHLETICS: 1}})
    await insert_character(running, "fate", eva, owner=ALICE, chat_id=second_group)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "Атлетика")
    by_game = {("Кампания" in r["description"]): r for r in results}
    assert len(results) == 2 and set(by_game) == {True, False}
    assert "Хроника" in by_game[False]["description"] and "Ева" in by_game[False]["description"]
    await _choose(running, ALICE, query_id, by_game[False]["id"])
    stored = await _rolls(running)
    assert len(stored) == 1 and stored[0][1] == parse("4dF+1").canonical  # Ева's, not Ира's


async def _create_game_in(h: Harness, chat_id: int, system: str, title: str) -> None:
    emu = h.emu
    emu.send_text(GM, chat_id, f"/newgame {title}")
    picker = await emu.wait_bot_message(chat_id, contains="FATE", timeout=10)
    index = next(
        i for i, b in enumerate(picker.buttons()) if b["callback_data"].startswith(f"ng:{system}:")
    )
    pressed = emu.press_button(GM, chat_id, picker.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)


async def test_a_roll_set_and_russian_words(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    emu.set_language(BOB, "ru")
    query_id, results = await _ask(emu, BOB, "3 2d6")
    placeholder = results[0]["input_message_content"]["message_text"]
    assert "Бросаю кубики" in placeholder
    assert results[0]["reply_markup"]["inline_keyboard"][0][0]["text"] == "🎲 Бросить"
    message = await _choose(running, BOB, query_id, results[0]["id"])
    stored = await _rolls(running)
    assert len(stored) == 3 and all(row[5] == BOB for row in stored)
    assert "Личный журнал бросков" in message.text
    assert all(f"#{row[4]}" in message.text for row in stored)


async def test_polling_asks_for_inline_updates(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await _ask(emu, ALICE, "d20")  # delivered by a getUpdates, recorded once it answered
    asked = emu.calls_to("getUpdates")[-1].params.get("allowed_updates") or []
    assert {"inline_query", "chosen_inline_result", "callback_query"} <= set(asked)
    # Telegram's update types only: aiogram-dialog's internal event is none of them
    assert "aiogd_update" not in asked and set(asked) <= TELEGRAM_UPDATE_TYPES
    webhook = running.runtime.dispatcher.resolve_used_update_types() if running.runtime else []
    assert sorted(webhook) == sorted(asked)  # what setWebhook asks for


async def test_unsent_offers_are_forgotten(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "d20")
    await _choose(running, ALICE, query_id, results[0]["id"])
    await _ask(emu, ALICE, "d12")
    async with running.engine.begin() as conn:
        await conn.execute(text("UPDATE inline_offers SET created_at = now() - interval '3 days'"))
    async with UnitOfWork(create_session_factory(running.engine)) as uow:
        assert await uow.inline.prune(timedelta(days=4)) == 0
    # the bot's hourly housekeeping (with the processed updates' pruning, in one unit)
    task = asyncio.create_task(_housekeeping(create_session_factory(running.engine)))
    try:
        for _ in range(100):
            if await scalar(running, "SELECT count(*) FROM inline_offers") == 1:
                break
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
    assert await scalar(running, "SELECT count(*) FROM inline_offers") == 1  # d12: never sent
    assert await scalar(running, "SELECT count(*) FROM inline_rolls") == 1


async def test_racing_reports_of_one_message_roll_once(running: Harness) -> None:
    """Two units of work report the same sent message at once (a press racing the report in
    two processes): the inline_message_id's key lets one roll; the other rolls nothing."""
    seat_table(running)
    _, results = await _ask(running.emu, ALICE, "4d6")
    factory = create_session_factory(running.engine)

    async def report() -> bool:
        async with UnitOfWork(factory) as uow:
            user = await uow.users.get(ALICE)
            assert user is not None
            rolled = await inline_rolls.roll_offer(uow, user, results[0]["id"], "IMID-1", "en")
            await uow.commit()
            return rolled.fresh

    outcomes = await asyncio.gather(*(report() for _ in range(4)))
    assert sorted(outcomes) == [False, False, False, True]
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1
    assert await scalar(running, "SELECT count(*) FROM inline_rolls") == 1


async def test_a_forged_or_foreign_offer_rolls_nothing(running: Harness) -> None:
    seat_table(running)
    _, results = await _ask(running.emu, ALICE, "d20")
    factory = create_session_factory(running.engine)
    async with UnitOfWork(factory) as uow:
        bob = await uow.users.ensure(TelegramUser(BOB, "Bob", None, None, "en"))
        with pytest.raises(inline_rolls.NotYours):
            await inline_rolls.roll_offer(uow, bob, results[0]["id"], "IMID-2", "en")
        with pytest.raises(inline_rolls.OfferGone):
            await inline_rolls.roll_offer(uow, bob, "no-such-offer", "IMID-2", "en")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    assert await scalar(running, "SELECT count(*) FROM inline_rolls") == 0


async def test_hostile_text_reaches_telegram_escaped(running: Harness) -> None:
    """Tags, ``&`` and marks in the query: the answer and the edit are valid Telegram HTML
    (the emulator refuses anything else, and every test fails on such a refusal)."""
    seat_table(running)
    emu = running.emu
    query_id, results = await _ask(emu, ALICE, "2d6 &x &amp атака \u202e")
    assert results[0]["id"] != "error"
    message = await _choose(running, ALICE, query_id, results[0]["id"])
    assert "&x &amp атака" in message.text
    _, refused = await _ask(emu, ALICE, "<b>&x</b> 2d")
    assert refused[0]["id"] == "error"
    assert all(call.ok for call in emu.calls_to("answerInlineQuery"))
    assert all(call.ok for call in emu.calls_to("editMessageText"))


async def test_a_character_retired_before_the_choice_rolls_nothing(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "fate", "Кампания")
    hero = fate.new_character("Ира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}})
    character_id = await insert_character(running, "fate", hero, owner=ALICE)
    query_id, results = await _ask(running.emu, ALICE, "Атлетика")
    async with running.engine.begin() as conn:
        await conn.execute(
            text("UPDATE characters SET status = 'retired' WHERE id = :id"), {"id": character_id}
        )
    message = await _choose(running, ALICE, query_id, results[0]["id"])
    assert "no longer active" in message.text and "Nothing was rolled" in message.text
    assert message.buttons() == []
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    assert await scalar(running, "SELECT count(*) FROM inline_rolls") == 0
