"""The FATE creation wizard end to end: a player, the GM and the group over the emulator."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, approve_latest, buttons, open_wizard
from tests.wizards.fate.flow import (
    fill_aspects,
    foreign_press,
    index_of,
    press,
    raise_skill,
    reach_preview,
    say,
    start,
    window,
)


async def _count(h: Harness, table: str) -> int:
    async with h.engine.connect() as conn:
        return int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())


async def test_valid_character_is_approved_and_shown(running: Harness) -> None:
    first = await start(running)
    assert "Step 1 of 8" in first.text
    await fill_aspects(running)
    shown = window(running)
    assert "Crossings (2)" in shown.text and "Shares a secret" in shown.text
    skills = await press(running, "Next")
    assert "Step 6 of 8" in skills.text and "30 of 30" in skills.text
    await raise_skill(running, "Fight", 3)
    await raise_skill(running, "Athletics", 1)
    await raise_skill(running, "Wealth", 1)
    await raise_skill(running, "Will", 2)
    await raise_skill(running, "Physique", 2)
    shown = await raise_skill(running, "Notice", 1)
    assert "20 of 30" in shown.text and "+3×1 · +2×2 · +1×3" in shown.text
    stunts = await press(running, "Next")
    assert "Step 7 of 8" in stunts.text and "0 of 3" in stunts.text
    await press(running, "−1 refresh")
    await say(running, "Quick hands: +2 to Crime when picking locks")
    await say(running, "Ember ward")
    await say(running, "Old friends")
    shown = await say(running, "Tide reader: +2 to Notice on the river")
    assert "4 of 4" in shown.text and "Refresh 2" in shown.text
    gear = await press(running, "Next")
    assert "Step 8 of 8" in gear.text and "0 of 1" in gear.text
    await press(running, "Melee weapon", offset=2)
    preview = await press(running, "Next")
    assert "Preview" in preview.text and "Mira &lt;Vale&gt;" in preview.html
    assert "physical ☐☐☐" in preview.text  # Physique +2 → a third physical box
    assert "mental ☐☐☐" in preview.text and "mild 2, moderate 4, severe 6" in preview.text
    assert "20 skill points left" in preview.text  # a warning only
    await press(running, "✅")
    await running.emu.wait_bot_message(ALICE, contains="GM")
    card = await approve_latest(running)
    assert "Mira" in card.text
    sent = [str(c.params.get("text")) for c in running.emu.calls_to("sendMessage")]
    cards = [text for text in sent if "Концепт" in text]  # the group's card is in Russian
    assert cards and "Бой" in cards[0] and "Mira &lt;Vale&gt;" in cards[0]
    running.emu.send_text(ALICE, GROUP, "/sheet")
    sheet = await running.emu.wait_bot_message(GROUP, contains="Disgraced court alchemist")
    assert "Mira <Vale>" in sheet.text and "Tide reader" in sheet.text
    # the group's language decides the labels; the numbers are the same in both
    english = "+3 Good: Fight" in sheet.text and "Average: Athletics, Notice, Wealth" in sheet.text
    russian = "+3 Хорошо: Бой" in sheet.text and "Нормально: Атлетика, Богатство" in sheet.text
    assert english or russian
    assert "refresh 2, fate points 2" in sheet.text or "обновление 2, очки судьбы 2" in sheet.text
    assert "melee 1" in sheet.text or "ближний бой 1" in sheet.text
    # Bob's wizard suggests Mira (now an active party member) for a crossing
    announcement = next(
        m for m in running.emu.bot_messages(GROUP) if any("url" in b for b in buttons(m))
    )
    await open_wizard(running, BOB, announcement)
    for answer in ("Bob", "Ferryman", "Afraid of deep water", "Lost the ferry"):
        await say(running, answer, user=BOB)
    crossings = window(running, BOB)
    assert "Party: Mira <Vale>" in crossings.text and "Crossings (0)" in crossings.text
    assert "Write each crossing as a message." not in crossings.text  # the party line says it
    picked = await press(running, "Mira <Vale>", user=BOB)
    assert "crossing with <b>Mira &lt;Vale&gt;</b>" in picked.html
    added = await say(running, "Pulled Mira out of the flood", user=BOB)
    assert "• Pulled Mira out of the flood (Mira <Vale>)" in added.text
    assert index_of(added, "✓ Mira <Vale>") >= 0
    refused = await press(running, "Next", user=BOB)  # one crossing of the two needed
    assert "Step 5 of 8" in refused.text and "At least 2 crossing aspects" in refused.text
    assert await _count(running, "characters") == 1


async def test_column_rule_violation_is_refused_on_the_skills_step(running: Harness) -> None:
    await start(running)
    await fill_aspects(running)
    await press(running, "Next")
    await raise_skill(running, "Alchemy", 4)
    await raise_skill(running, "Artifice", 4)
    await raise_skill(running, "Athletics", 3)
    refused = await press(running, "Next")
    assert "Step 6 of 8" in refused.text
    assert "2 skills at +4 but 1 at +3" in refused.text
    assert "Each level must hold fewer skills than the level below it" in refused.text
    assert await _count(running, "characters") == 0
    capped = await press(running, "Alchemy ", offset=2)  # +5 is over the creation cap
    assert "at most +4 at creation" in capped.text and "Alchemy +4" in str(capped.reply_markup)
    for label, offset in (("Alchemy ", 2), ("Water ", 1), ("Water ", 0)):  # no change at all
        same = window(running)
        pressed = running.emu.press_button(
            ALICE, ALICE, same.message_id, index_of(same, label, offset=offset)
        )
        answer = await running.emu.wait_callback_answer(pressed.callback_query_id)
        assert not answer.show_alert, answer.text  # no "something went wrong"
        await running.emu.wait_idle()
        assert window(running).text == same.text


async def test_restart_resumes_the_skills_step(running: Harness) -> None:
    await start(running)
    await fill_aspects(running)
    await press(running, "Next")
    await raise_skill(running, "Fight", 2)
    before = await raise_skill(running, "Will", 1)  # now on page 2
    assert "Will +1" in str(before.reply_markup)
    await running.restart()
    after = await press(running, "Notice ", offset=2)
    assert "Step 6 of 8" in after.text and "26 of 30" in after.text
    assert "+2×1 · +1×2" in after.text and "Notice +1" in str(after.reply_markup)
    await press(running, "⬅️")
    shown = window(running)
    assert "Fight +2" in str(shown.reply_markup)
    stunts = await press(running, "Next")
    assert "Step 7 of 8" in stunts.text


async def test_another_user_cannot_drive_the_wizard(running: Harness) -> None:
    await start(running)
    await fill_aspects(running)
    skills = await press(running, "Next")
    plus = buttons(skills)[index_of(skills, "Alchemy ", offset=2)]["callback_data"]
    nxt = buttons(skills)[index_of(skills, "Next")]["callback_data"]
    for data in (plus, nxt):
        query = foreign_press(running, BOB, skills, data)
        answer = await running.emu.wait_callback_answer(query)
        assert answer.user_id == BOB and answer.show_alert  # "not yours or no longer active"
    await running.emu.wait_idle()
    same = window(running)
    assert same.message_id == skills.message_id and same.text == skills.text
    assert "Alchemy +0" in str(same.reply_markup)  # nothing changed for Alice
    raised = await press(running, "Alchemy ", offset=2)  # Alice's own press still works
    assert "Alchemy +1" in str(raised.reply_markup)
    assert running.emu.last_bot_message(BOB) is None  # and Bob was not shown the wizard


async def test_preview_jumps_to_every_step_and_cancel_ends(running: Harness) -> None:
    await start(running)
    preview = await reach_preview(running)
    assert "Preview" in preview.text and "⚠️" in preview.text  # unspent points, free stunts
    jumps = [b["text"] for b in buttons(preview) if b["text"].startswith("✏️")]
    assert len(jumps) == 8
    for step, label in enumerate(jumps, start=1):
        shown = await press(running, label)
        assert f"Step {step} of 8" in shown.text, label
        back = await press(running, "Next")
        assert "Preview" in back.text, label
    await press(running, "✏️ Concept")
    edited = await say(running, "Runaway heir of the Tide Court")
    assert "Preview" in edited.text and "Runaway heir of the Tide Court" in edited.text
    running.emu.send_text(ALICE, ALICE, "/cancel")
    await running.emu.wait_bot_message(ALICE, contains="Cancelled")
    await running.emu.wait_idle()
    closed = next(m for m in running.emu.bot_messages(ALICE) if m.message_id == edited.message_id)
    assert buttons(closed) == []  # the wizard's keyboard is gone: nothing left to press
    assert await _count(running, "characters") == 0


async def test_returned_sheet_reopens_at_the_preview(running: Harness) -> None:
    await start(running)
    await reach_preview(running)
    await press(running, "✅")
    card = await running.emu.wait_for(
        lambda: next(
            (m for m in running.emu.bot_messages(GROUP) if "ret:" in str(m.reply_markup)), None
        )
    )
    back = running.emu.press_button(GM, GROUP, card.message_id, index_of(card, "↩️"))
    await running.emu.wait_callback_answer(back.callback_query_id)
    await running.emu.wait_idle()
    running.emu.send_text(GM, GROUP, "Raise a skill, please")
    await running.emu.wait_bot_message(ALICE, contains="Raise a skill")
    announcement = next(
        m for m in running.emu.bot_messages(GROUP) if any("url" in b for b in buttons(m))
    )
    await open_wizard(running, ALICE, announcement)
    await running.emu.wait_idle()
    reopened = window(running)  # a returned sheet opens whole, at the preview
    assert "Preview" in reopened.text and "Disgraced court alchemist" in reopened.text
    await press(running, "✏️ Skills")
    await raise_skill(running, "Fight", 1)
    preview = await press(running, "Next")
    assert "Preview" in preview.text and "Average: Fight" in preview.text


async def test_submit_refused_by_the_engine_stays_on_the_preview(running: Harness) -> None:
    await start(running)
    await fill_aspects(running)
    await press(running, "Next")
    await raise_skill(running, "Wealth", 1)  # one equipment point
    await press(running, "Next")
    await press(running, "Next")
    await press(running, "Melee weapon", offset=2)
    await press(running, "Next")
    await press(running, "✏️ Skills")
    await press(running, "Wealth ", offset=1)  # the point is gone, the weapon is not
    preview = await press(running, "Next")
    assert "Preview" in preview.text and "⛔ Gear costs 1 points" in preview.text
    refused = await press(running, "✅")
    assert "Preview" in refused.text and "you have 0 equipment points" in refused.text
    assert await _count(running, "characters") == 0


async def test_the_first_player_is_told_how_to_add_a_crossing(running: Harness) -> None:
    """Nobody else has a character yet: no party to tap, so the step says to type."""
    await start(running)
    for answer in ("Mira", "Disgraced court alchemist", "Owes the guild", "Burned the archive"):
        await say(running, answer)
    crossings = window(running)
    assert "Step 5 of 8" in crossings.text and "Party:" not in crossings.text
    assert "Write each crossing as a message." in crossings.text
