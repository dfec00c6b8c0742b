"""The wizards' refusals and toasts are each press's one answer: aiogram-dialog answers every
press after redrawing, so a handler answering too made Telegram refuse the second call."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons
from tests.wizards.fate import flow as fate
from tests.wizards.matter import test_matter_wizard as matter
from tests.wizards.storyteller.driver import Player
from tgemu import CallbackAnswer


async def _press(h: Harness, data: str) -> tuple[CallbackAnswer, int]:
    """Alice presses ``data`` on her wizard; its answer and how many answers it got."""
    message = h.emu.last_bot_message(ALICE)
    assert message is not None
    query = h.emu.press(ALICE, ALICE, message.message_id, data).callback_query_id
    answer = await h.emu.wait_callback_answer(query)  # and the update finished (conftest)
    return answer, h.emu.answer_attempts(query)


async def test_storyteller_refused_dot_is_answered_once(running: Harness) -> None:
    p = Player(running)
    await p.start()
    await p.say("Lily")
    await p.say("runaway poet")
    for _ in range(3):  # kith, seeming, priorities
        await p.press("nx")
    assert "Attributes" in p.text
    answer, attempts = await _press(running, p.data_of("d:strength:m"))
    assert (attempts, answer.show_alert) == (1, True)
    assert answer.text is not None and "Strength cannot go below 1" in answer.text


async def test_fate_skill_name_toast_is_answered_once(running: Harness) -> None:
    await fate.start(running)
    await fate.fill_aspects(running)
    skills = await fate.press(running, "Next")
    data = buttons(skills)[fate.index_of(skills, "Alchemy ")]["callback_data"]
    answer, attempts = await _press(running, data)
    assert (attempts, answer.show_alert) == (1, False)
    assert answer.text is not None and answer.text.startswith("Alchemy: +0")


async def test_matter_skill_info_and_refused_dot_are_answered_once(running: Harness) -> None:
    h = running
    await matter.start_wizard(h)
    await matter.named(h, "Vera")
    info, attempts = await _press(h, buttons(matter.screen(h))[1]["callback_data"])
    assert (attempts, info.show_alert) == (1, True)
    assert info.text is not None and info.text.startswith("Brutality: resists")
    await matter.plus(h, 0, 3)
    await h.emu.wait_for(lambda: matter.skill_label(h, 0) == "Brutality ●●●")
    refused, attempts = await _press(h, buttons(matter.screen(h))[2]["callback_data"])
    assert (attempts, refused.show_alert) == (1, True)
    assert "the cap is 3" in (refused.text or "")
