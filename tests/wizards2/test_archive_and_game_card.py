"""Issue 24, item 9: archiving asks with a cancel and a warning, stops open wizards with a
word; a returned character's card loses «Approve»; /game shows returned and pending sheets and
the game's schedules."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.helpers.table import current, game_id, press_data, scalar, send_and_answer
from tests.wizards.fate.flow import index_of, press, reach_preview, say, start, window
from tgemu import ChatMessage


async def _game_card(h: Harness) -> ChatMessage:
    card = await send_and_answer(h, GM, "/game")
    await h.emu.wait_idle()
    return current(h, card)


def _data(message: ChatMessage, prefix: str) -> str:
    found = [
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix)
    ]
    assert found, buttons(message)
    return str(found[0])


async def _ask_archive(h: Harness) -> ChatMessage:
    card = await _game_card(h)
    before = h.emu.last_bot_message(GROUP)
    await press_data(h, GM, card, _data(card, "arc:"))
    question = await h.emu.wait_bot_message(GROUP, after=before.message_id if before else 0)
    await h.emu.wait_idle()
    return question


async def test_archive_asks_with_cancel_warns_of_a_scene_and_stops_wizards(
    running: Harness,
) -> None:
    h = running
    await start(h)
    await say(h, "Mira")  # Alice's wizard is open at step 2
    h.emu.send_text(GM, GROUP, "/fight")
    await h.emu.wait_idle()
    assert await scalar(h, "SELECT count(*) FROM trackers WHERE status = 'open'") == 1

    question = await _ask_archive(h)
    assert "⚠️" in question.text and "бой или сцена" in question.text  # the group reads Russian
    cancelled = await press_data(h, GM, question, _data(question, "arx:"))
    assert cancelled.text == "Отменено."
    await h.emu.wait_idle()
    assert buttons(current(h, question)) == [] and "продолжается" in current(h, question).text
    assert await scalar(h, "SELECT count(*) FROM games WHERE archived_at IS NULL") == 1

    question = await _ask_archive(h)
    await press_data(h, GM, question, _data(question, "arc:"))
    assert await scalar(h, "SELECT count(*) FROM games WHERE archived_at IS NULL") == 0

    wizard = window(h)
    assert "Step 2 of 8" in wizard.text
    sent = h.emu.send_text(ALICE, ALICE, "Disgraced court alchemist")
    told = await h.emu.wait_bot_message(ALICE, after=sent.message_id)
    assert "archived" in told.text and "Re:Tales" in told.text
    await h.emu.wait_idle()
    assert "Step 2 of 8" in current(h, wizard, chat_id=ALICE).text  # it did not move on
    assert buttons(current(h, wizard, chat_id=ALICE)) == []  # nothing left to press
    again = h.emu.send_text(ALICE, ALICE, "Owes the Guild")  # the wizard is gone for good
    await h.emu.wait_idle()
    assert all(
        "Step 3" not in m.text
        for m in h.emu.bot_messages(ALICE)
        if m.message_id > again.message_id
    )


async def test_returned_card_loses_approve_and_game_shows_states_and_schedules(
    running: Harness,
) -> None:
    h = running
    await start(h)
    await reach_preview(h)
    await press(h, "✅")
    submission = await h.emu.wait_for(
        lambda: next((m for m in h.emu.bot_messages(GROUP) if "apv:" in str(m.reply_markup)), None)
    )
    card = await _game_card(h)
    assert "Mira <Vale> (ждёт одобрения)" in card.text

    back = h.emu.press_button(GM, GROUP, submission.message_id, index_of(submission, "↩️"))
    await h.emu.wait_callback_answer(back.callback_query_id)
    await h.emu.wait_idle()
    h.emu.send_text(GM, GROUP, "More stunts, please")
    await h.emu.wait_bot_message(ALICE, contains="More stunts")
    await h.emu.wait_idle()
    assert buttons(current(h, submission)) == []  # no «Approve» left on a returned sheet
    assert await scalar(h, "SELECT status FROM characters") == "returned"
    card = await _game_card(h)
    assert "(возвращён)" in card.text

    gid = await game_id(h)
    assert "Расписание вех: пока нет" in card.text
    async with h.engine.begin() as conn:
        for weekday, minute in ((4, 19 * 60), (None, 9 * 60 + 30)):
            await conn.execute(
                text(
                    "INSERT INTO schedules (game_id, kind, weekday, minute_of_day, created_by) "
                    "VALUES (:g, 'minor', :w, :m, :c)"
                ),
                {"g": gid, "w": weekday, "m": minute, "c": GM},
            )
    card = await _game_card(h)
    assert "пока нет" not in card.text and "Расписание вех:" in card.text
    assert "19:00" in card.text and "09:30" in card.text
