"""The ``matter`` creation wizard end to end: emulator, running bot, real Postgres.

Alice (en) drives the wizard in her private chat exactly as a player would: buttons by index,
typed answers. The skills keyboard has three buttons per skill: − (3i), name (3i+1), + (3i+2);
skill 0 is Brutality, 1 Tenacity, 2 Communication, 3 Cunning (the engine's ``Skill`` order).
"""

from __future__ import annotations

import asyncio
import string
import time

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
from tgemu import CallbackAnswer, ChatMessage


def screen(h: Harness, user: int = ALICE) -> ChatMessage:
    found = h.emu.last_bot_message(user)
    assert found is not None
    return found


async def wait_screen(h: Harness, contains: str, user: int = ALICE) -> ChatMessage:
    """The newest bot message in the private chat, once it contains ``contains``."""
    found: ChatMessage = await h.emu.wait_for(
        lambda: (m := h.emu.last_bot_message(user)) and contains in m.text and m
    )
    await settled(h)
    return found


async def settled(h: Harness) -> None:
    """Wait until the bot has finished every update, including aiogram-dialog's context save
    (it answers a press before saving; a press sent in between would read the old draft)."""
    assert h.runtime is not None
    assert await h.runtime.dispatcher["in_flight"].wait_idle(5.0)


async def press_at(h: Harness, index: int, user: int = ALICE) -> CallbackAnswer:
    """Press button ``index`` of the wizard's current message and wait until it is handled."""
    pressed = h.emu.press_button(user, user, screen(h, user).message_id, index)
    answer = await h.emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)
    return answer


def index_of(message: ChatMessage, label: str) -> int:
    return next(i for i, b in enumerate(buttons(message)) if label in b.get("text", ""))


async def tap(h: Harness, label: str, user: int = ALICE) -> None:
    """Press the button whose label contains ``label`` on the wizard's current message."""
    await press_at(h, index_of(screen(h, user), label), user)


async def plus(h: Harness, skill: int, times: int = 1) -> None:
    for _ in range(times):
        await press_at(h, 3 * skill + 2)


def skill_label(h: Harness, skill: int) -> str:
    return str(buttons(screen(h))[3 * skill + 1]["text"])


async def stored_characters(h: Harness) -> int:
    async with h.engine.connect() as conn:
        return int((await conn.execute(text("SELECT count(*) FROM characters"))).scalar_one())


async def start_wizard(h: Harness, title: str = "Пепел") -> ChatMessage:
    seat_table(h)
    announcement = await create_game(h, "matter", title)
    first = await open_wizard(h, ALICE, announcement)
    assert "Step 1 of 4" in first.text
    return announcement


async def named(h: Harness, name: str) -> None:
    h.emu.send_text(ALICE, ALICE, name)
    await wait_screen(h, "Step 2 of 4")


async def test_valid_character_is_approved_and_shown(running: Harness) -> None:
    h = running
    await start_wizard(h)
    h.emu.send_text(ALICE, ALICE, "/" + "x")  # not a name: the question is repeated
    first = await wait_screen(h, "A name is one line")
    h.emu.send_text(ALICE, ALICE, "x" * 65)  # too long: asked again, with the reason
    await h.emu.wait_idle()
    await settled(h)
    assert screen(h).message_id == first.message_id  # the same message, edited in place
    assert "A name is one line of 1 to 64 characters" in screen(h).text
    assert "What is the character's name?" in screen(h).text
    await named(h, "Вера <Ash> & Co")
    assert "Dots left: <b>12</b>" in screen(h).html or "Dots left: 12" in screen(h).text
    for skill in range(4):  # 4 skills × 3 dots = the whole default budget of 12
        await plus(h, skill, 3)
    await h.emu.wait_for(lambda: "Dots left: 0" in screen(h).text)
    assert skill_label(h, 0) == "Brutality ●●●"

    await tap(h, "Next")
    derived = await wait_screen(h, "Step 3 of 4")
    assert "Health: 5/5" in derived.text and "Defence: 1" in derived.text
    assert "Tenacity (3d10)" in derived.text  # resistance pools derived from the dots

    await tap(h, "Next")
    await wait_screen(h, "Step 4 of 4")
    await tap(h, "Add an ability")
    await wait_screen(h, "Name the Matter ability")
    h.emu.send_text(ALICE, ALICE, "Пламя <b>")
    await wait_screen(h, "What kind of Matter")
    await tap(h, "magical")
    await wait_screen(h, "Describe")
    h.emu.send_text(ALICE, ALICE, "Огненный шар")
    listed = await wait_screen(h, "Step 4 of 4")
    assert "1. Пламя <b> (magical Matter) — Огненный шар" in listed.text

    await tap(h, "Preview")
    preview = await wait_screen(h, "Preview")
    assert "Вера <Ash> & Co" in preview.text and "&lt;Ash&gt; &amp; Co" in preview.html
    assert "⛔" not in preview.text and "⚠️" not in preview.text
    await tap(h, "Send to the GM")
    await wait_screen(h, "GM")
    await approve_latest(h)
    assert await stored_characters(h) == 1

    before = h.emu.last_bot_message(GROUP)
    h.emu.send_text(ALICE, GROUP, "/sheet")
    shown = await h.emu.wait_bot_message(GROUP, after=before.message_id if before else 0)
    assert "Вера &lt;Ash&gt; &amp; Co" in shown.html
    assert "●●●" in shown.text and "Пламя" in shown.text and "Огненный шар" in shown.text

    # The sheet's edit link reopens this wizard on the approved sheet.
    edit_url = next(b["url"] for b in buttons(shown) if "url" in b)
    before = screen(h)
    h.emu.send_text(ALICE, ALICE, f"/start {edit_url.split('start=')[1]}")
    editor = await h.emu.wait_bot_message(ALICE, after=before.message_id)
    await settled(h)
    assert (
        "Matter — editing" in editor.text
        and "Now: <b>Вера &lt;Ash&gt; &amp; Co</b>" in editor.html
    )
    await tap(h, "Keep this name")
    await wait_screen(h, "Step 2 of 4")
    assert skill_label(h, 0) == "Brutality ●●●" and "Dots left: 0" in screen(h).text


async def test_over_cap_and_over_budget_are_refused_on_the_skills_step(running: Harness) -> None:
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 0, 3)
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●●●")
    answer = await press_at(h, 2)  # a 4th dot of 3
    assert answer.show_alert and "the cap is 3" in (answer.text or "")
    refused = await wait_screen(h, "the cap is 3")
    assert "Brutality" in refused.text and "Step 2 of 4" in refused.text  # same step
    assert skill_label(h, 0) == "Brutality ●●●"  # nothing applied
    edits = refused.edits
    again = await press_at(h, 2)  # the same refusal again: same alert, message kept as is
    assert "the cap is 3" in (again.text or "") and screen(h).edits == edits
    at_zero = await press_at(h, 3 * 5)  # − at zero changes nothing either, and says why
    assert screen(h).edits == edits
    assert at_zero.text == "“Investigation” has no dots to take back." and not at_zero.show_alert

    for skill in (1, 2, 3):
        await plus(h, skill, 3)
    await h.emu.wait_for(lambda: "Dots left: 0" in screen(h).text)
    answer = await press_at(h, 3 * 4 + 2)  # a 13th dot of 12
    assert "13 skill dots spent of 12" in (answer.text or "")
    await wait_screen(h, "13 skill dots spent of 12")
    assert skill_label(h, 4).endswith("○○○")
    assert await stored_characters(h) == 0


async def test_cap_lowered_by_the_gm_is_enforced_by_the_engine(running: Harness) -> None:
    """The +/− buttons never exceed the cap, so the engine's own refusal is shown by lowering
    the cap with the GM's /options while Alice already holds 3 dots in a skill."""
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 0, 3)
    await tap(h, "Next")
    await tap(h, "Next")
    await tap(h, "Preview")
    await wait_screen(h, "Preview")

    h.emu.send_text(GM, GROUP, "/options")
    panel = await h.emu.wait_bot_message(GROUP, contains="12")
    pressed = h.emu.press(GM, GROUP, panel.message_id, "go:dot_cap:-1")
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)

    await tap(h, "Send to the GM")  # refused by the engine at submission: stays on the preview
    refused = await wait_screen(h, "Not sent")
    assert (
        "Preview" in refused.text and "Skill “Brutality” has 3 dots; the cap is 2." in refused.text
    )
    assert await stored_characters(h) == 0

    await tap(h, "✎ Skills")
    await tap(h, "Next")  # the skills step refuses too, with the reason, and stays
    refused = await wait_screen(h, "the cap is 2")
    assert "⛔" in refused.text and "Step 2 of 4" in refused.text
    await press_at(h, 0)  # − Brutality
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●●")
    await tap(h, "Next")
    back = await wait_screen(h, "Preview")  # edited from the preview: straight back to it
    assert "⛔" not in back.text
    assert await stored_characters(h) == 0


async def test_restart_resumes_the_same_step_with_the_data(running: Harness) -> None:
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 1, 2)
    await h.emu.wait_for(lambda: skill_label(h, 1) == "Tenacity ●●○")
    await running.restart()
    await plus(h, 1)  # the old message's button still works after the restart
    await h.emu.wait_for(lambda: skill_label(h, 1) == "Tenacity ●●●")
    assert "Dots left: 9" in screen(h).text and "Skills</b> of Vera" in screen(h).html
    await tap(h, "Next")
    await wait_screen(h, "Tenacity (3d10)")


async def test_preview_jumps_back_to_every_step_and_cancel_ends(running: Harness) -> None:
    h = running
    await start_wizard(h)
    await named(h, "Vera")
    h.emu.send_text(ALICE, ALICE, "three in Brutality please")  # a buttons-only step
    hint = await wait_screen(h, "Please use the buttons")
    assert "Step 2 of 4" in hint.text and buttons(hint)  # the step again, with its keyboard
    await tap(h, "Next")
    await wait_screen(h, "Step 3 of 4")
    await tap(h, "Next")
    await wait_screen(h, "Step 4 of 4")
    await tap(h, "Preview")
    preview = await wait_screen(h, "Preview")
    assert "Skill dots left unspent: 12" in preview.text  # a warning, not a refusal

    for label, step in (("Name", "Step 1"), ("Skills", "Step 2"), ("Derived", "Step 3")):
        await tap(h, f"✎ {label}")
        await wait_screen(h, step)
        await tap(h, "To the preview")
        await wait_screen(h, "Preview")
    await tap(h, "✎ Matter")
    await wait_screen(h, "Step 4 of 4")
    await tap(h, "Preview")
    await wait_screen(h, "Preview")

    await tap(h, "✎ Name")
    await wait_screen(h, "Step 1")
    h.emu.send_text(ALICE, ALICE, "Vera Ash")  # a new answer goes straight back to the preview
    await wait_screen(h, "Vera Ash")
    assert "Preview" in screen(h).text

    wizard = screen(h)
    send = buttons(wizard)[index_of(wizard, "Send")]["callback_data"]
    h.emu.send_text(ALICE, ALICE, "/cancel")
    await wait_screen(h, "Cancelled")
    await h.emu.wait_for(  # the wizard's keyboard is removed
        lambda: (
            not buttons(
                next(m for m in h.emu.chat_messages(ALICE) if m.message_id == wizard.message_id)
            )
        )
    )
    pressed = h.emu.press(ALICE, ALICE, wizard.message_id, send)  # the old «Send» data
    await h.emu.wait_callback_answer(pressed.callback_query_id)  # answered, not left spinning
    h.emu.send_text(ALICE, ALICE, "Another name")  # no wizard is listening any more
    await h.emu.wait_idle()
    assert "Step" not in screen(h).text and "Preview" not in screen(h).text
    assert await stored_characters(h) == 0


def _intent_second(callback_data: str) -> int:
    """The second an aiogram-dialog intent id was made in (``aiogram_dialog.api.entities.stack``:
    base 62, least significant digit first; the second modulo 10**8 plus 10**8 × random)."""
    intent = callback_data.split("\x1d", 1)[0]
    digits = string.digits + string.ascii_letters
    value = sum(digits.index(c) * 62**i for i, c in enumerate(intent))
    return value % 100_000_000


async def test_another_user_cannot_drive_the_wizard(running: Harness) -> None:
    h = running
    announcement = await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 0)
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●○○")
    alice_msg = screen(h)
    data = buttons(alice_msg)[2]["callback_data"]

    # Bob opens his own wizard and sends Alice's callback data (her intent id) from his chat.
    # aiogram-dialog's intent ids are the current second plus one of 100 random values, so two
    # wizards opened within one second share an id 1 time in 100 (harmless: contexts are keyed
    # by chat too, Bob would drive his own). The test needs two intents: Bob opens his in
    # another second than Alice's.
    while int(time.time()) % 100_000_000 == _intent_second(data):
        await asyncio.sleep(0.05)
    await open_wizard(h, BOB, announcement)
    bob_msg = screen(h, BOB)
    pressed = h.emu.press(BOB, BOB, bob_msg.message_id, data)
    answer = await h.emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)
    assert answer.user_id == BOB and answer.show_alert  # refused with an alert

    # A forged query: Bob's id on Alice's message (a client cannot do it; we inject it).
    update = {
        "callback_query": {
            "id": "forged-1",
            "from": {"id": BOB, "is_bot": False, "first_name": "Bob"},
            "message": {
                "message_id": alice_msg.message_id,
                "date": alice_msg.date,
                "chat": {"id": ALICE, "type": "private", "first_name": "Alice"},
                "from": {"id": h.emu.bot_id, "is_bot": True, "first_name": "bot"},
                "text": alice_msg.text,
            },
            "chat_instance": "1",
            "data": data,
        }
    }
    h.emu.inject_update(update)
    await h.emu.wait_idle()
    await settled(h)
    assert skill_label(h, 0) == "Brutality ●○○"  # Alice's draft is unchanged
    assert screen(h, BOB).message_id == bob_msg.message_id
    assert "Step 1 of 4" in screen(h, BOB).text  # Bob's own wizard is untouched too
    await plus(h, 0)  # and Alice can still go on
    await h.emu.wait_for(lambda: skill_label(h, 0) == "Brutality ●●○")
    assert await stored_characters(h) == 0


async def test_returned_sheet_is_the_starting_draft(running: Harness) -> None:
    h = running
    announcement = await start_wizard(h)
    await named(h, "Vera")
    await plus(h, 6, 2)  # Dexterity ●●
    await tap(h, "Next")
    await tap(h, "Next")
    await tap(h, "Preview")
    await tap(h, "Send to the GM")
    card = await h.emu.wait_bot_message(GROUP, contains="Vera")
    back = next(i for i, b in enumerate(buttons(card)) if b["callback_data"].startswith("ret:"))
    pressed = h.emu.press_button(GM, GROUP, card.message_id, back)
    await h.emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)
    h.emu.send_text(GM, GROUP, "Больше Упорства")
    await h.emu.wait_for(lambda: "Больше Упорства" in screen(h).text)  # Alice is told why

    await open_wizard(h, ALICE, announcement)
    await settled(h)
    await wait_screen(h, "Preview")  # a returned sheet reopens at its preview (issue 36)
    await tap(h, "✎ Name")
    reopened = await wait_screen(h, "Step 1")
    assert "Now: <b>Vera</b>" in reopened.html
    await tap(h, "Keep this name")
    await wait_screen(h, "Step 2 of 4")
    assert skill_label(h, 6) == "Dexterity ●●○" and "Dots left: 10" in screen(h).text
