"""lifegear: the player's creation wizard over the emulator with real Postgres.

The GM writes a role first (/roles); Alice (English) picks it, names her character, sees the
gear that is her lives, previews and submits; the GM (Russian) approves in the group.
"""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import (
    ALICE,
    BOB,
    GM,
    GROUP,
    approve_latest,
    buttons,
    create_game,
    open_wizard,
    seat_table,
)
from tests.wizards.lifegear.helpers import (
    SCOUT,
    callback_data,
    count,
    last,
    press,
    say,
    seed_role,
    settled,
    widgets,
    write_role,
)


async def _at_gear_step(h: Harness) -> None:
    """A game with one role; Alice has picked it and named her character Robin."""
    seat_table(h)
    announcement = await create_game(h, "lifegear", "Пустоши")
    await seed_role(h)
    await open_wizard(h, ALICE, announcement)
    await press(h, ALICE, "r", "0")
    gear = await say(h, ALICE, "Robin")
    assert "Robin" in gear.text and "gn" in widgets(gear)


async def test_valid_character_is_approved_and_shown(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    announcement = await create_game(running, "lifegear", "Пустоши")
    await write_role(running)
    first = await open_wizard(running, ALICE, announcement)
    assert "Choose your role" in first.text and "Стрелок" in first.text
    assert "1d8+3" in first.text  # the roles are shown with their stats
    ask_name = await press(running, ALICE, "r", "0")
    assert "Стрелок" in ask_name.text and "name" in ask_name.text
    gear = await say(running, ALICE, "Robin <Hood>")
    assert "Robin &lt;Hood&gt;" in gear.html or "Robin <Hood>" in gear.text
    assert "Lives: 2 of 5" in gear.text
    assert "Лук" in gear.text and "Кольчуга" in gear.text and "1d6" in gear.text
    preview = await press(running, ALICE, "gn")
    assert "Preview" in preview.text and "Robin <Hood>" in preview.text
    assert {"pr", "pn", "pg", "ok", "__cancel__"} <= set(widgets(preview))
    done = await press(running, ALICE, "ok")
    assert "Robin" in done.text  # the "sent for approval" note
    await approve_latest(running)
    async with running.engine.connect() as conn:
        row = (await conn.execute(text("SELECT status, sheet FROM characters"))).one()
    assert row.status == "active"
    assert row.sheet["role"] == "Стрелок" and row.sheet["max_lives"] == 5
    assert [i["name"] for i in row.sheet["gear"]] == ["Лук", "Кольчуга"]

    before = last(running, GROUP).message_id
    emu.send_text(ALICE, GROUP, "/sheet")
    sheet = await emu.wait_bot_message(GROUP, after=before)
    assert "Robin <Hood>" in sheet.text and "Стрелок" in sheet.text
    assert "Жизни: 2/5" in sheet.text  # the group's language (its GM's), not Alice's own
    assert "Стрельба" in sheet.text and "Лук" in sheet.text and "Кольчуга" in sheet.text


async def test_too_long_name_is_refused_and_the_wizard_stays(running: Harness) -> None:
    seat_table(running)
    announcement = await create_game(running, "lifegear", "Пустоши")
    await seed_role(running)
    await open_wizard(running, ALICE, announcement)
    await press(running, ALICE, "r", "0")
    refused = await say(running, ALICE, "X" * 65)
    assert "1–64 characters" in refused.text and "yours has 65" in refused.text
    assert "name" in refused.text  # the same question again
    assert await count(running, "characters") == 0
    # still on the name step: a fitting name is taken and the wizard moves on
    gear = await say(running, ALICE, "Robin")
    assert "Lives: 2 of 5" in gear.text and "gn" in widgets(gear)
    assert await count(running, "characters") == 0


async def test_restart_resumes_at_the_same_step_with_the_data(running: Harness) -> None:
    await _at_gear_step(running)
    await running.restart()
    preview = await press(running, ALICE, "gn")  # the button of the window shown before
    assert "Preview" in preview.text and "Robin" in preview.text and "Стрелок" in preview.text
    await running.restart()
    done = await press(running, ALICE, "ok")
    assert "Robin" in done.text
    assert await count(running, "characters") == 1


async def test_another_user_pressing_the_buttons_changes_nothing(running: Harness) -> None:
    await _at_gear_step(running)
    emu = running.emu
    window = last(running, ALICE)
    edits = window.edits
    # Telegram never shows Alice's private message to Bob (and the emulator refuses such a
    # press), so Bob replays her callback data on a message in his own chat: forged data
    home = await say(running, BOB, "/start")
    for widget in ("gn", "gb"):
        pressed = emu.press(BOB, BOB, home.message_id, callback_data(window, widget))
        answer = await emu.wait_callback_answer(pressed.callback_query_id)
        assert answer.show_alert and answer.text  # Bob gets an alert, not Alice's wizard
    assert window.edits == edits and last(running, ALICE) is window
    assert await count(running, "characters") == 0
    preview = await press(running, ALICE, "gn")  # Alice's wizard is untouched
    assert "Preview" in preview.text and "Robin" in preview.text


async def test_preview_jumps_back_to_every_step_and_cancel_ends(running: Harness) -> None:
    await _at_gear_step(running)
    await press(running, ALICE, "gn")
    role = await press(running, ALICE, "pr")
    assert "Choose your role" in role.text and "Стрелок" in role.text
    assert "2p" in widgets(role)  # back to the preview without changing anything
    assert "Preview" in (await press(running, ALICE, "2p")).text
    name = await press(running, ALICE, "pn")
    assert "name" in name.text and "Robin" in name.text
    renamed = await say(running, ALICE, "Marian")  # straight back to the preview
    assert "Preview" in renamed.text and "Marian" in renamed.text and "Robin" not in renamed.text
    gear = await press(running, ALICE, "pg")
    assert "Lives: 2 of 5" in gear.text and "Marian" in gear.text
    assert "Preview" in (await press(running, ALICE, "gn")).text
    await press(running, ALICE, "pr")
    again = await press(running, ALICE, "r", "0")  # re-picking the role keeps the name
    assert "Preview" in again.text and "Marian" in again.text

    send = callback_data(again, "ok")
    cancelled = await say(running, ALICE, "/cancel")
    assert "Cancelled" in cancelled.text
    assert widgets(again) == []  # the wizard's keyboard is gone
    # even a replayed «Send» does nothing now: the wizard is closed, nothing is stored
    emu = running.emu
    stale = emu.press(ALICE, ALICE, again.message_id, send)
    assert (await emu.wait_callback_answer(stale.callback_query_id)).text
    await settled(running)
    assert await count(running, "characters") == 0
    assert "Nothing to cancel" in (await say(running, ALICE, "/cancel")).text


async def test_a_returned_sheet_reopens_at_the_preview(running: Harness) -> None:
    await _at_gear_step(running)
    emu = running.emu
    await press(running, ALICE, "gn")
    await press(running, ALICE, "ok")
    card = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if "ret:" in str(m.reply_markup)), None)
    )
    index = next(i for i, b in enumerate(buttons(card)) if b["callback_data"].startswith("ret:"))
    pressed = emu.press_button(GM, GROUP, card.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    asked = await emu.wait_bot_message(GROUP, after=card.message_id)
    emu.send_text(GM, GROUP, "Другое имя, пожалуйста")
    await emu.wait_bot_message(GROUP, after=asked.message_id)
    await settled(running)
    announcement = next(m for m in emu.bot_messages(GROUP) if "url" in str(m.reply_markup))
    reopened = await open_wizard(running, ALICE, announcement)
    # the returned sheet comes back at the preview, its role and name kept
    assert "Preview" in reopened.text and "Robin" in reopened.text and "Стрелок" in reopened.text
    renamed = await press(running, ALICE, "pn")
    assert "Robin" in renamed.text
    assert "Marian" in (await say(running, ALICE, "Marian")).text


async def test_submission_the_engine_refuses_stays_at_the_preview(running: Harness) -> None:
    # a role stored before the editor checked it: 3 usable items but max lives 2
    seat_table(running)
    announcement = await create_game(running, "lifegear", "Пустоши")
    gear = [{"id": f"i{n}", "name": f"Nож {n}", "kind": "weapon"} for n in range(3)]
    await seed_role(running, {**SCOUT, "max_lives": 2, "gear": gear})
    await open_wizard(running, ALICE, announcement)
    await press(running, ALICE, "r", "0")
    await say(running, ALICE, "Robin")
    preview = await press(running, ALICE, "gn")
    assert "3 usable gear items but max lives is 2" in preview.text
    refused = await press(running, ALICE, "ok")
    assert "Not sent to the GM" in refused.text and "max lives is 2" in refused.text
    assert "ok" in widgets(refused)  # still the preview, ready for another try
    assert await count(running, "characters") == 0


async def test_a_name_another_character_has_is_refused(running: Harness) -> None:
    await _at_gear_step(running)
    await press(running, ALICE, "gn")
    await press(running, ALICE, "ok")
    await approve_latest(running)
    announcement = next(m for m in running.emu.bot_messages(GROUP) if "url" in str(m.reply_markup))
    await open_wizard(running, BOB, announcement)
    await settled(running)
    await press(running, BOB, "r", "0")
    refused = await say(running, BOB, "ROBIN")
    assert "Another character here is already called «ROBIN»." in refused.text
    assert "Lives: 2 of 5" in (await say(running, BOB, "Marian")).text
