"""The ``cliche`` creation wizard end to end: the emulator, the running bot, real Postgres."""

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
from tgemu import ChatMessage

# attribute rows on the attributes step: [➖, label, ➕] × physical, mental, social
PHYS_PLUS, MENTAL_PLUS, SOCIAL_PLUS = 2, 5, 8


async def settled(h: Harness) -> None:
    """Wait until the bot has finished every update: aiogram-dialog saves the wizard's state
    after answering, and a scripted player is faster than any human."""
    assert h.runtime is not None
    assert await h.runtime.dispatcher["in_flight"].wait_idle(5)


def _index(message: ChatMessage, label: str) -> int:
    found = [i for i, b in enumerate(buttons(message)) if label in b.get("text", "")]
    assert found, f"no button {label!r} in {[b.get('text') for b in buttons(message)]}"
    return found[0]


async def press(h: Harness, label: str | int, user: int = ALICE) -> ChatMessage:
    """Press a button of the wizard's latest message (by label or index); the updated view."""
    emu = h.emu
    message = emu.last_bot_message(user)
    assert message is not None
    index = label if isinstance(label, int) else _index(message, label)
    pressed = emu.press_button(user, user, message.message_id, index)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await settled(h)
    latest = emu.last_bot_message(user)
    assert latest is not None
    return latest


async def say(h: Harness, answer: str, user: int = ALICE) -> ChatMessage:
    """Type an answer; the wizard's next message."""
    h.emu.send_text(user, user, answer)
    await h.emu.wait_idle()  # the wizard's one message is edited in place
    await settled(h)
    reply = h.emu.last_bot_message(user)
    assert reply is not None
    return reply


async def start(h: Harness, base_dice: int | None = None) -> ChatMessage:
    seat_table(h)
    announcement = await create_game(h, "cliche", "Серенити")
    if base_dice is not None:
        async with h.engine.begin() as conn:
            await conn.execute(
                text("UPDATE games SET options = CAST(:o AS jsonb)"),
                {"o": f'{{"base_dice": {base_dice}}}'},
            )
    return await open_wizard(h, ALICE, announcement)


async def spend_attributes(h: Harness) -> ChatMessage:
    """1/1/1 → 4/2/3 (nine points)."""
    for index in (PHYS_PLUS,) * 3 + (MENTAL_PLUS,) + (SOCIAL_PLUS,) * 2:
        view = await press(h, index)
    return view


async def add_cliche(h: Harness, name: str, dice: int, description: str | None) -> ChatMessage:
    await press(h, "Add a cliché")
    view = await say(h, name)
    assert "How many dice" in view.text
    for _ in range(dice - 1):
        view = await press(h, "➕")
    assert f"<b>{dice}</b>" in view.html or f": {dice} dice" in view.text
    await press(h, "Next")
    if description is None:
        return await press(h, "Skip")
    return await say(h, description)


async def character_count(h: Harness) -> int:
    async with h.engine.connect() as conn:
        return int((await conn.execute(text("SELECT count(*) FROM characters"))).scalar_one())


async def test_valid_character_approved_and_shown(running: Harness) -> None:
    emu = running.emu
    first = await start(running, base_dice=12)
    assert "name" in first.text
    view = await say(running, "Mal <Reynolds>")
    assert "Attributes" in view.text and "Points left: 6" in view.text
    view = await spend_attributes(running)
    assert "Points left: 0" in view.text
    view = await press(running, "Next")
    assert "Clichés" in view.text and "Dice left: 12 of 12 (incl. 2 bonus dice" in view.text
    await add_cliche(running, "Soldier", 4, "Served in the war & lost")
    view = await add_cliche(running, "Pilot", 3, None)
    assert "Soldier" in view.text and "Dice left: 5 of 12" in view.text
    view = await press(running, "Next")
    assert "Tools of the trade" in view.text
    view = await press(running, "Soldier")
    view = await say(running, "Bulletproof vest")
    assert "Bulletproof vest" in view.text and "−1 die" in view.text
    view = await press(running, "Bulletproof vest")  # cycles what happens without it
    assert "half dice" in view.text
    await press(running, "Done")
    view = await press(running, "Next")
    assert "Hooks" in view.text
    view = await say(running, "Owes Niska money")
    assert "1. Owes Niska money" in view.text
    view = await press(running, "Next")
    assert "Backstory" in view.text
    view = await say(running, "Fought at Serenity Valley.")
    assert "Preview" in view.text and "Mal &lt;Reynolds&gt;" in view.html
    assert "⛔" not in view.text
    await press(running, "Send to the GM")
    await emu.wait_bot_message(ALICE, contains="GM", after=view.message_id)
    assert not buttons(view)  # the wizard is over: the preview keeps no buttons
    await approve_latest(running)
    asked = emu.send_text(ALICE, GROUP, "/sheet")
    sheet = await emu.wait_bot_message(GROUP, after=asked.message_id)
    assert "Mal <Reynolds>" in sheet.text
    assert "Soldier" in sheet.text and "(4/4)" in sheet.text and "Pilot" in sheet.text
    assert "Bulletproof vest" in sheet.text and "Owes Niska money" in sheet.text
    assert "Served in the war & lost" in sheet.text
    assert await character_count(running) == 1


async def to_clichés(h: Harness, base_dice: int | None = None) -> ChatMessage:
    await start(h, base_dice)
    await say(h, "Zoe")
    await spend_attributes(h)
    return await press(h, "Next")


async def to_preview(h: Harness) -> ChatMessage:
    """A minimal valid character, up to the preview."""
    await to_clichés(h)
    await add_cliche(h, "Pilot", 3, None)
    await press(h, "Next")  # → tools
    await press(h, "Next")  # → hooks
    await press(h, "Next")  # → backstory
    view = await press(h, "Skip")
    assert "Preview" in view.text
    return view


async def test_third_cliche_at_four_is_refused(running: Harness) -> None:
    await to_clichés(running, base_dice=12)  # 4 + 4 + 4 dice fit the budget
    await add_cliche(running, "Soldier", 4, "Veteran")
    await add_cliche(running, "Hacker", 4, "Breaks into anything")
    await press(running, "Add a cliché")
    await say(running, "Gambler")
    for _ in range(2):
        view = await press(running, "➕")
    assert "<b>3</b> dice" in view.html
    view = await press(running, "➕")  # a third cliché at 4
    assert "How many dice" in view.text  # still on the dice step
    assert "<b>3</b> dice" in view.html
    assert "⛔ At most 2 clichés may be at 4 (now 3)." in view.text
    again = await press(running, "➕")  # the same refusal again: nothing changes, no error
    assert again.text == view.text
    assert await character_count(running) == 0
    view = await press(running, "Next")  # 3 dice are fine
    assert "Describe «Gambler»" in view.text


async def test_restart_resumes_at_the_same_step(running: Harness) -> None:
    await to_clichés(running)
    await press(running, "Add a cliché")
    await say(running, "Gunslinger")
    view = await press(running, "➕")
    assert "«Gunslinger»: <b>2</b> dice" in view.html
    await running.restart()
    view = await press(running, "➕")  # the old message's button still works
    assert "«Gunslinger»: <b>3</b> dice" in view.html and "Dice left: 7 of 10" in view.text
    view = await press(running, "Next")
    assert "Describe «Gunslinger»" in view.text
    view = await say(running, "Quick on the draw")
    assert "Gunslinger" in view.text and "Quick on the draw" in view.text
    view = await press(running, "◀️ Back")  # back on the attributes: the points are kept
    assert "Points left: 0" in view.text and "Physical: 4" in emu_labels(running)


def emu_labels(h: Harness, user: int = ALICE) -> str:
    message = h.emu.last_bot_message(user)
    assert message is not None
    return " | ".join(b.get("text", "") for b in buttons(message))


async def test_another_user_cannot_press_the_wizard(running: Harness) -> None:
    emu = running.emu
    await to_clichés(running)
    await press(running, "Add a cliché")
    view = await say(running, "Mechanic")
    plus = buttons(view)[_index(view, "➕")]["callback_data"]
    # Bob has his own private chat with the bot; he replays Alice's button data there
    emu.send_text(BOB, BOB, "/start")
    bobs = await emu.wait_bot_message(BOB)
    pressed = emu.press(BOB, BOB, bobs.message_id, plus)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    await settled(running)
    assert answer.show_alert and answer.text
    assert emu.last_bot_message(ALICE) == view and "<b>1</b> die" in view.html
    view = await press(running, "➕")  # Alice's own press still counts from 1
    assert "«Mechanic»: <b>2</b> dice" in view.html


async def test_preview_jumps_back_to_every_step_and_cancel_ends(running: Harness) -> None:
    emu = running.emu
    await to_preview(running)
    for label, heading, back in (
        ("✏️ Name", "character's name", "👁 Preview"),
        ("🎲 Clichés", "A cliché is a role", "👁 Preview"),
        ("🔧 Tools", "Tools of the trade", "👁 Preview"),
        ("🪝 Hooks", "Hooks tie the character", "👁 Preview"),
        ("📜 Backstory", "Where does the character come from", "Skip ▶️"),
    ):
        view = await press(running, label)
        assert heading in view.text, label
        view = await press(running, back)
        assert "Preview" in view.text and "Pilot" in view.text
    # attributes: spend one point less, then the engine refuses the submission with the reason
    await press(running, "💪 Attributes")
    view = await press(running, 0)  # ➖ physical: 4 → 3
    assert "Points left: 1" in view.text
    view = await press(running, "👁 Preview")
    assert "⛔ Exactly 9 attribute points must be spent (now 8)." in view.text
    view = await press(running, "Send to the GM")
    assert "Preview" in view.text and "Exactly 9 attribute points" in view.text
    assert await character_count(running) == 0
    sent = emu.send_text(ALICE, ALICE, "/cancel")
    bye = await emu.wait_bot_message(ALICE, after=sent.message_id)
    await settled(running)
    assert "Cancelled" in bye.text
    typed = emu.send_text(ALICE, ALICE, "Still there?")  # the wizard no longer answers text
    await settled(running)
    await emu.wait_idle()
    assert emu.last_bot_message(ALICE) == bye and typed.message_id > bye.message_id
    assert await character_count(running) == 0


async def test_wrong_answers_repeat_the_question_with_the_reason(running: Harness) -> None:
    await start(running)
    for _ in range(2):  # the same wrong answer twice: the question is repeated each time
        view = await say(running, "x" * 65)
        assert "⛔ The name must be one line of 1 to 64 characters." in view.text
        assert "character's name" in view.text
    view = await say(running, "Jayne")
    view = await press(running, "Next")  # six points still unspent
    assert "⛔ Exactly 9 attribute points must be spent (now 3)." in view.text
    await press(running, 1)  # the label button does nothing (and breaks nothing)
    for _ in range(3):
        view = await press(running, PHYS_PLUS)
    view = await press(running, PHYS_PLUS)  # a fifth point in one attribute
    assert "must be 1..4 (now 5)" in view.text and "Points left: 3" in view.text
    await press(running, MENTAL_PLUS)
    await press(running, MENTAL_PLUS)
    view = await press(running, MENTAL_PLUS)
    assert "Points left: 0" in view.text
    view = await press(running, SOCIAL_PLUS)  # no points left
    assert "⛔ Exactly 9 attribute points must be spent (now 10)." in view.text
    await press(running, "Next")
    await add_cliche(running, "Mercenary", 2, None)
    view = await press(running, "Next")  # only a 2-dice cliché: a novice
    assert "must not be a novice" in view.text
    await press(running, "Add a cliché")
    view = await say(running, "mercenary")
    assert "appears twice" in view.text and "cliché's name" in view.text
    view = await say(running, "Vera's owner")
    assert "How many dice" in view.text and "Vera's owner" in view.text


async def test_returned_character_reopens_with_the_answers_kept(running: Harness) -> None:
    emu = running.emu
    await to_preview(running)
    await press(running, "Send to the GM")
    card = await emu.wait_for(
        lambda: next(
            (m for m in reversed(emu.bot_messages(GROUP)) if "ret:" in str(m.reply_markup)), None
        )
    )
    back = next(i for i, b in enumerate(buttons(card)) if b["callback_data"].startswith("ret:"))
    pressed = emu.press_button(GM, GROUP, card.message_id, back)
    await emu.wait_callback_answer(pressed.callback_query_id)
    asked = await emu.wait_bot_message(GROUP, after=card.message_id)
    emu.send_text(GM, GROUP, "Add a hook", reply_to=asked.message_id)
    await emu.wait_bot_message(ALICE, contains="returned")
    await settled(running)
    announcement = next(m for m in emu.bot_messages(GROUP) if any("url" in b for b in buttons(m)))
    view = await open_wizard(running, ALICE, announcement)
    await settled(running)
    view = emu.last_bot_message(ALICE) or view
    assert "Preview" in view.text and "Zoe" in view.text  # reopened at the preview (issue 36)
    view = await press(running, "✏️ Name")
    assert "Now: <b>Zoe</b>" in view.html
    view = await press(running, "Next")
    assert "Points left: 0" in view.text
    view = await press(running, "Next")
    assert "Pilot" in view.text and "Dice left: 7 of 10" in view.text


async def test_a_message_to_a_buttons_step_is_answered(running: Harness) -> None:
    """Text sent to the attributes step redrew the same screen («message is not modified»)
    and said nothing; it now says the step takes buttons, and changes nothing."""
    await start(running)
    await say(running, "Jayne")
    view = await say(running, "four physical please")
    assert "Please use the buttons, or /cancel." in view.text and "Points left: 6" in view.text
    assert await character_count(running) == 0


async def test_a_file_to_a_typed_step_is_answered(running: Harness) -> None:
    """A step that takes text says so to anything else (``own_window``), and stays."""
    await start(running)
    running.emu.send_document(ALICE, ALICE, "notes.json", b"{}")
    await running.emu.wait_idle()
    await settled(running)
    view = running.emu.last_bot_message(ALICE)
    assert view is not None and "Please answer with text, or /cancel." in view.text
    assert "character's name" in view.text and await character_count(running) == 0
