"""The matter scene tracker tests' own pieces (the scene, presses by button label, the sheet as
a matter character); the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

from engine.systems import matter
from tests.conftest import Harness
from tests.games.helpers import GM
from tests.helpers import table as tb
from tgemu import CallbackAnswer, ChatMessage


async def sheet(h: Harness, character_id: int) -> matter.Character:
    return matter.Character.model_validate(await tb.stored_sheet(h, character_id))


def states_of(character: matter.Character) -> dict[str, int | None]:
    return {a.state.value: a.turns_left for a in character.states}


async def open_scene(h: Harness, command: str = "/scene") -> ChatMessage:
    """The GM types the command; the tracker message (with its set-up buttons)."""
    return await tb.send_for_buttons(h, GM, command, "mxg:")


def data_of(h: Harness, tracker: ChatMessage, label: str) -> str:
    """The callback data of the button whose text contains ``label`` (exactly one)."""
    return tb.labelled_data(tb.current(h, tracker), label)


async def press(h: Harness, user: int, tracker: ChatMessage, label: str) -> CallbackAnswer:
    """Press the button labelled ``label``; fails the test on an alert."""
    answer = await tb.press_data(h, user, tracker, data_of(h, tracker, label))
    assert not answer.show_alert, answer.text
    return answer


async def end(h: Harness, tracker: ChatMessage) -> None:
    """The GM ends the scene (or calls its set-up off): «Завершить», then «Да, завершить»."""
    await press(h, GM, tracker, "Завершить")
    await press(h, GM, tracker, "Да, завершить")


async def press_refused(h: Harness, user: int, tracker: ChatMessage, label: str) -> str:
    """Press ``label`` as ``user`` and expect an alert; the tracker stays as it was."""
    answer = await tb.press_refused(h, user, tracker, data_of(h, tracker, label))
    return answer.text or ""
