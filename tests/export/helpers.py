"""Two tables for export/import tests: the game a file is made in and a fresh group to take it,
sheets that pass each system's creation rules, and the files the bot sends."""

from __future__ import annotations

import json
from typing import Any

from engine.common import SheetModel
from engine.systems import matter
from tests.conftest import Harness
from tests.engine.cliche.builders import make_character
from tests.engine.fate.factories import sample as fate_sample
from tests.engine.lifegear.factory import archer
from tests.engine.storyteller.conftest import build_techlana
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons
from tests.helpers.table import WAIT
from tgemu import ChatMessage

FRESH = -100900  # a second group, with no game until a test makes one
GROUPS = (GROUP, FRESH)


def seat_tables(h: Harness) -> None:
    emu = h.emu
    emu.add_user(GM, "Мастер", language_code="ru")
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.add_user(BOB, "Боб", language_code="ru")
    emu.add_group(GROUP, "Table", members=[GM, ALICE, BOB], creator=GM)
    emu.add_group(FRESH, "New table", members=[GM, ALICE, BOB], creator=GM)
    for user in (GM, ALICE, BOB):
        emu.user(user).started = True


async def new_game(
    h: Harness, chat_id: int, system: str, title: str = "Test game", *, lang: str | None = None
) -> None:
    """The GM's /newgame in ``chat_id``, the system picked on its button; ``lang``: then the
    GM's /lang there (a group speaks its Russian GM's language otherwise, whoever writes)."""
    emu = h.emu
    sent = emu.send_text(GM, chat_id, f"/newgame {title}")
    picker = await emu.wait_bot_message(
        chat_id, contains="FATE", after=sent.message_id, timeout=WAIT
    )
    data = next(
        b["callback_data"]
        for b in buttons(picker)
        if b["callback_data"].startswith(f"ng:{system}:")
    )
    pressed = emu.press(GM, chat_id, picker.message_id, data)
    await emu.wait_callback_answer(pressed.callback_query_id, timeout=WAIT)
    await emu.wait_idle(WAIT)
    if lang is not None:
        sent = emu.send_text(GM, chat_id, f"/lang {lang}")
        await emu.wait_bot_message(chat_id, after=sent.message_id, timeout=WAIT)


def legal_sheet(system: str, name: str) -> SheetModel:
    """A sheet that passes ``system``'s creation rules with default options."""
    if system == "fate":
        return fate_sample(name=name)
    if system == "lifegear":
        return archer(name=name)
    if system == "cliche":
        return make_character(name, ("Солдат", 3), ("Пилот", 2))
    if system == "storyteller":
        return build_techlana().model_copy(update={"name": name})
    skills = {s.value: 0 for s in matter.Skill}
    skills.update({"brutality": 3, "tenacity": 3, "cunning": 3, "dexterity": 3})
    return matter.new_character(name).model_copy(update={"skills": skills})


def last_document(h: Harness, chat_id: int, after: int = 0) -> ChatMessage | None:
    return next(
        (m for m in reversed(h.emu.bot_messages(chat_id)) if m.document and m.message_id > after),
        None,
    )


async def wait_document(h: Harness, chat_id: int, after: int) -> ChatMessage:
    return await h.emu.wait_for(lambda: last_document(h, chat_id, after), timeout=WAIT)


def file_json(message: ChatMessage) -> dict[str, Any]:
    assert message.document is not None
    data: dict[str, Any] = json.loads(message.document.data)
    return data


async def send_file(
    h: Harness,
    user: int,
    chat_id: int,
    data: bytes,
    *,
    caption: str | None = "/import",
    name: str = "export.json",
) -> ChatMessage:
    """The user uploads ``data``; the bot's first message after it in that chat."""
    sent = h.emu.send_document(user, chat_id, name, data, caption=caption)
    found = await h.emu.wait_bot_message(chat_id, after=sent.message_id, timeout=WAIT)
    await h.emu.wait_idle(WAIT)
    return found
