"""The character life cycle with a minimal stand-in wizard (the real ones have their own tests):
submit → GM approves → /sheet → the owner proposes an edit → GM accepts → /history; the GM's
direct edit; returning with a comment; someone else's edit link; an NPC by the GM.

The stand-in dialog is a one-window aiogram-dialog registered for ``matter`` through the wizard
registry's loader, so everything else (deep links, submission, approval, storage) is real.
"""

from __future__ import annotations

import types
from typing import Any

import pytest
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from aiogram_dialog import Dialog, DialogManager, Window
from aiogram_dialog.widgets.kbd import Button
from aiogram_dialog.widgets.text import Const
from sqlalchemy import text

import handlers.wizards as wizards
from engine.systems import matter
from handlers.wizards.common import WizardStart, finish_wizard, violations_text
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
from tests.helpers.table import scalar


class StandInSG(StatesGroup):
    only = State()


async def _submit(query: CallbackQuery, button: Button, manager: DialogManager) -> None:
    start = WizardStart.of(manager)
    # Bob's own name: a game holds one active character of a name
    name = "Оруженосец" if query.from_user.id == BOB else "Рыцарь"
    sheet = start.draft or matter.new_character(name).model_dump(mode="json")
    character = matter.Character.model_validate(sheet)
    if start.character_id is not None:  # an edit: change something visible
        character = character.model_copy(update={"name": character.name + " II"})
    problems = await finish_wizard(manager, character)
    if problems and isinstance(query.message, Message):  # refused: the wizard stays open
        await query.message.answer(violations_text(problems, "ru"))


def _stand_in() -> Any:
    def create_dialogs() -> list[Any]:
        window = Window(Const("stand-in"), Button(Const("Submit"), id="go", on_click=_submit),
                        state=StandInSG.only)  # fmt: skip
        return [Dialog(window)]

    return types.SimpleNamespace(START_STATE=StandInSG.only, create_dialogs=create_dialogs)


@pytest.fixture
async def table(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> Harness:
    stand_in = _stand_in()
    monkeypatch.setattr(
        wizards, "_module", lambda system: stand_in if system == "matter" else None
    )
    await harness.start()
    seat_table(harness)
    return harness


async def _submit_via_wizard(h: Harness, user: int, first_message: Any) -> None:
    pressed = h.emu.press_button(user, user, first_message.message_id, 0)
    await h.emu.wait_callback_answer(pressed.callback_query_id)


async def _knight_approved(h: Harness, announcement: Any, user: int, line: str) -> str:
    """Alice's «Рыцарь» submitted and approved; the edit link's token of ``line`` (a /sheet)
    sent by ``user``."""
    await _submit_via_wizard(h, ALICE, await open_wizard(h, ALICE, announcement))
    await approve_latest(h)
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(user, GROUP, line)
    sheet = await h.emu.wait_bot_message(GROUP, contains="Рыцарь", after=last.message_id)
    return str(next(b["url"] for b in buttons(sheet) if "url" in b).split("start=")[1])


async def test_submit_approve_sheet_propose_accept_history(table: Harness) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    await _submit_via_wizard(table, ALICE, await open_wizard(table, ALICE, announcement))
    assert "sent to the GM" in (await emu.wait_bot_message(ALICE, contains="GM")).text
    assert await scalar(table, "SELECT status FROM characters") == "pending"

    card = await emu.wait_for(  # a non-GM cannot approve
        lambda: next((m for m in emu.bot_messages(GROUP) if "apv:" in str(m.reply_markup)), None)
    )
    pressed = emu.press_button(BOB, GROUP, card.message_id, 0)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    await approve_latest(table)
    assert await scalar(table, "SELECT status FROM characters") == "active"
    assert "approved" in (await emu.wait_bot_message(ALICE, contains="approved")).text

    last = emu.last_bot_message(GROUP)
    emu.send_text(ALICE, GROUP, "/sheet")
    sheet = await emu.wait_bot_message(GROUP, contains="Рыцарь", after=last.message_id)
    edit_url = next(b["url"] for b in buttons(sheet) if "url" in b)
    token = edit_url.split("start=")[1]

    emu.send_text(BOB, BOB, f"/start {token}")  # not Bob's character
    assert "cannot edit" in (await emu.wait_bot_message(BOB)).text

    before = emu.last_bot_message(ALICE)
    emu.send_text(ALICE, ALICE, f"/start {token}")
    editor = await emu.wait_bot_message(ALICE, after=before.message_id if before else 0)
    await _submit_via_wizard(table, ALICE, editor)
    proposal = await emu.wait_bot_message(GROUP, contains="Предложены")
    assert "Рыцарь II" in proposal.text  # the diff shows the new name
    assert await scalar(table, "SELECT name FROM characters") == "Рыцарь"  # not yet applied
    accept_data = buttons(proposal)[0]["callback_data"]
    pressed = emu.press_button(GM, GROUP, proposal.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: next(m for m in emu.bot_messages(GROUP)
                                    if m.message_id == proposal.message_id).edits)  # fmt: skip
    pressed = emu.press(GM, GROUP, proposal.message_id, accept_data)  # again: nothing happens
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).text
    assert await scalar(table, "SELECT name || ' v' || version FROM characters") == "Рыцарь II v2"

    emu.send_text(GM, GROUP, "/history Рыцарь")
    history = await emu.wait_bot_message(GROUP, contains="История")
    assert "v2" in history.text and "Имя" in history.text and "v1" in history.text


async def test_return_with_comment_then_resubmit_from_the_draft(table: Harness) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    await _submit_via_wizard(table, ALICE, await open_wizard(table, ALICE, announcement))
    card = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if "ret:" in str(m.reply_markup)), None)
    )
    ret = next(i for i, b in enumerate(buttons(card)) if b["callback_data"].startswith("ret:"))
    pressed = emu.press_button(GM, GROUP, card.message_id, ret)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_bot_message(GROUP, contains="комментарий")
    emu.send_text(GM, GROUP, "Добавь <предысторию> & мотив")
    note = await emu.wait_bot_message(ALICE, contains="returned")
    assert "&lt;предысторию&gt; &amp; мотив" in note.html
    assert await scalar(table, "SELECT status FROM characters") == "returned"


async def test_gm_edits_directly_and_creates_an_npc(table: Harness) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    token = await _knight_approved(table, announcement, GM, "/sheet Рыцарь")
    emu.send_text(GM, GM, f"/start {token}")
    await _submit_via_wizard(table, GM, await emu.wait_bot_message(GM))
    await emu.wait_bot_message(GROUP, contains="Рыцарь II")
    assert await scalar(table, "SELECT version FROM characters") == 2

    asked = emu.send_text(ALICE, GROUP, "/npc")
    refused = await emu.wait_bot_message(GROUP, after=asked.message_id)
    assert refused.text in ("Only the GM can do that.", "Это может только мастер.")
    asked = emu.send_text(GM, GROUP, "/npc")
    npc_msg = await emu.wait_bot_message(GROUP, after=asked.message_id)
    npc_token = next(b["url"] for b in buttons(npc_msg) if "url" in b).split("start=")[1]
    before = emu.last_bot_message(GM)
    emu.send_text(GM, GM, f"/start {npc_token}")
    await _submit_via_wizard(table, GM, await emu.wait_bot_message(GM, after=before.message_id))
    await emu.wait_bot_message(GROUP, contains="🎭")
    assert (
        await scalar(table, "SELECT count(*) FROM characters WHERE is_npc AND status = 'active'")
        == 1
    )


async def test_a_long_sheet_is_shown_in_section_pages(table: Harness) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    await _submit_via_wizard(table, ALICE, await open_wizard(table, ALICE, announcement))
    await approve_latest(table)
    notes = "\n\n".join(f"Глава {i}: " + "история " * 60 for i in range(12))  # ~6,000 chars
    async with table.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE characters "
                "SET sheet = jsonb_set(sheet, '{notes}', to_jsonb(CAST(:n AS text)))"
            ),
            {"n": notes},
        )
    last = emu.last_bot_message(GROUP)
    emu.send_text(ALICE, GROUP, "/sheet")
    first = await emu.wait_bot_message(GROUP, after=last.message_id)  # type: ignore[union-attr]
    pages = [b for b in buttons(first) if b.get("callback_data", "").startswith("shp:")]
    first_text = first.text  # the emulator updates the message object in place on edits
    assert len(pages) >= 2 and len(first_text) <= 4096
    pressed = emu.press(BOB, GROUP, first.message_id, pages[-1]["callback_data"])
    await emu.wait_callback_answer(pressed.callback_query_id)
    shown = await emu.wait_for(
        lambda: (
            (m := next(x for x in emu.bot_messages(GROUP) if x.message_id == first.message_id))
            and m.edits
            and m
        )
    )
    assert shown.text != first_text and len(shown.text) <= 4096
    assert any("url" in b for b in buttons(shown))  # «Edit» is kept


async def test_a_second_character_replaces_the_first_and_a_cogm_stays_cogm(
    table: Harness,
) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    said = emu.send_text(BOB, GROUP, "я помогу")
    emu.send_text(GM, GROUP, "/cogm", reply_to=said.message_id)
    await emu.wait_bot_message(GROUP, contains="со-мастер")
    for user in (ALICE, ALICE, BOB):
        await _submit_via_wizard(table, user, await open_wizard(table, user, announcement))
        await approve_latest(table)
    assert (
        await scalar(
            table,
            "SELECT string_agg(status, ',' ORDER BY id) FROM characters "
            f"WHERE owner_user_id = {ALICE}",
        )
        == "retired,active"
    )
    assert await scalar(table, f"SELECT role FROM game_members WHERE user_id = {BOB}") == "cogm"


async def test_a_stale_proposal_cannot_undo_a_newer_edit(table: Harness) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    token = await _knight_approved(table, announcement, ALICE, "/sheet")
    emu.send_text(ALICE, ALICE, f"/start {token}")  # Alice opens the editor at v1 …
    alice_editor = await emu.wait_bot_message(ALICE, contains="stand-in", after=4)
    emu.send_text(GM, GM, f"/start {token}")  # … the GM edits directly to v2 …
    await _submit_via_wizard(table, GM, await emu.wait_bot_message(GM))
    await emu.wait_bot_message(GROUP, contains="Рыцарь II")
    await _submit_via_wizard(table, ALICE, alice_editor)  # … then Alice proposes from v1
    proposal = await emu.wait_bot_message(GROUP, contains="Предложены")
    pressed = emu.press_button(GM, GROUP, proposal.message_id, 0)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.show_alert and answer.text
    assert await scalar(table, "SELECT version FROM characters") == 2


async def _press(h: Harness, message: Any, prefix: str) -> Any:
    """The GM presses the button of ``message`` whose data starts with ``prefix``."""
    index = next(
        i for i, b in enumerate(buttons(message)) if b["callback_data"].startswith(prefix)
    )
    pressed = h.emu.press_button(GM, GROUP, message.message_id, index)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def _names(h: Harness) -> str:
    return str(
        await scalar(
            h, "SELECT string_agg(name || ':' || status, ',' ORDER BY id) FROM characters"
        )
    )


async def test_a_sheet_of_an_active_name_waits_and_an_npc_of_one_is_refused(
    table: Harness,
) -> None:
    """/sheet, /r and the trackers reach a character by name: a game holds one active
    character of a name. Bob's «Оруженосец» beside the GM's NPC of that name is not approved
    (the GM is told why; it stays pending, to be returned for another name), and the GM's
    NPC wizard of a taken name keeps the wizard open saying so."""
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    emu.send_text(GM, GROUP, "/npc Оруженосец: Жестокость 1")
    await emu.wait_bot_message(GROUP, contains="Оруженосец")
    await _submit_via_wizard(table, BOB, await open_wizard(table, BOB, announcement))
    card = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if "apv:" in str(m.reply_markup)), None)
    )
    answer = await _press(table, card, "apv:")
    assert answer.show_alert and "«Оруженосец» уже есть в игре" in answer.text
    assert await _names(table) == "Оруженосец:active,Оруженосец:pending"
    assert any(b["callback_data"].startswith("ret:") for b in buttons(card))  # can return it

    await _submit_via_wizard(table, ALICE, await open_wizard(table, ALICE, announcement))
    await approve_latest(table)  # «Рыцарь»: a name of its own
    asked = emu.send_text(GM, GROUP, "/npc")
    npc_msg = await emu.wait_bot_message(GROUP, after=asked.message_id)
    npc_token = next(b["url"] for b in buttons(npc_msg) if "url" in b).split("start=")[1]
    emu.send_text(GM, GM, f"/start {npc_token}")
    await _submit_via_wizard(table, GM, await emu.wait_bot_message(GM, contains="stand-in"))
    said = await emu.wait_bot_message(GM, contains="⛔")
    assert "В игре уже есть «Рыцарь»: дайте персонажу другое имя." in said.text
    assert await _names(table) == "Оруженосец:active,Оруженосец:pending,Рыцарь:active"


async def test_a_rename_to_an_active_name_is_refused_by_edit_and_by_proposal(
    table: Harness,
) -> None:
    emu = table.emu
    announcement = await create_game(table, "matter", "Замок")
    emu.send_text(GM, GROUP, "/npc Рыцарь II: Жестокость 1")
    await emu.wait_bot_message(GROUP, contains="Рыцарь II")
    token = await _knight_approved(table, announcement, ALICE, "/sheet")
    opened = emu.send_text(ALICE, ALICE, f"/start {token}")  # Alice proposes «Рыцарь II»
    editor = await emu.wait_bot_message(ALICE, contains="stand-in", after=opened.message_id)
    await _submit_via_wizard(table, ALICE, editor)
    proposal = await emu.wait_bot_message(GROUP, contains="Предложены")
    answer = await _press(table, proposal, "prp:")
    assert answer.show_alert and "«Рыцарь II» уже есть в игре" in answer.text
    emu.send_text(GM, GM, f"/start {token}")  # the GM's own edit to «Рыцарь II»
    await _submit_via_wizard(table, GM, await emu.wait_bot_message(GM, contains="stand-in"))
    said = await emu.wait_bot_message(GM, contains="⛔")
    assert "«Рыцарь II»" in said.text
    assert await _names(table) == "Рыцарь II:active,Рыцарь:active"
    assert await scalar(table, "SELECT status FROM character_proposals") == "pending"
