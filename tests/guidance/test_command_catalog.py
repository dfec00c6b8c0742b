"""One list of commands (``bot.commands.COMMANDS``): the routers register exactly its commands,
/help's pages and the command menus show every one of them (and nothing else), and so does the
README's table (issue 23, item 8)."""

from __future__ import annotations

import re
from pathlib import Path

from aiogram.filters import Command

import handlers
from bot.commands import BY_NAME, COMMANDS, Where
from bot.systems import SYSTEMS
from tests.conftest import Harness
from tests.games.helpers import ALICE, buttons, seat_table
from tests.helpers.table import WAIT, press_data, send_and_answer

README = Path(__file__).resolve().parents[2] / "README.md"
COMMAND_WORD = re.compile(r"(?<![\w/])/([a-z]+)\b")


def _registered() -> set[str]:
    """Every command word some message handler of the dispatcher's routers filters on."""
    words: set[str] = set()
    for top in handlers.routers():
        for router in handlers._walk(top):
            for handler in router.message.handlers:
                for found in handler.filters or []:
                    if isinstance(found.callback, Command):
                        words.update(c for c in found.callback.commands if isinstance(c, str))
    return words


def test_the_routers_register_exactly_the_catalog() -> None:
    assert _registered() == set(BY_NAME)
    assert all(s in SYSTEMS for c in COMMANDS for s in c.systems)


async def test_help_pages_and_menus_show_every_command(running: Harness) -> None:
    h = running
    seat_table(h)
    first = await send_and_answer(h, ALICE, "/help", chat_id=ALICE)
    texts = [first.text]
    pages = [b["callback_data"] for b in buttons(first) if b["callback_data"].startswith("hlp:")]
    assert len(pages) >= 3
    for data in pages:
        await press_data(h, ALICE, first, data, chat_id=ALICE)
        shown = await h.emu.wait_for(
            lambda: next(
                (m for m in h.emu.bot_messages(ALICE) if m.message_id == first.message_id), None
            ),
            timeout=WAIT,
        )
        texts.append(shown.text)
    on_help = {w for text in texts for w in COMMAND_WORD.findall(text)}
    assert on_help == set(BY_NAME)

    for scope, where in (("all_private_chats", Where.PRIVATE), ("all_group_chats", Where.GROUP)):
        for language in ("", "ru", "en"):
            menu = {c["command"] for c in h.emu.commands_for({"type": scope}, language)}
            expected = {c.name for c in COMMANDS if c.where in (where, Where.ANY)}
            assert menu == expected, (scope, language)
    menus = {
        c["command"]
        for scope in ("all_private_chats", "all_group_chats")
        for c in h.emu.commands_for({"type": scope})
    }
    assert menus == {c.name for c in COMMANDS}


def test_the_readme_lists_every_command() -> None:
    text = README.read_text(encoding="utf-8")
    table = text.split("### Commands", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `/")]
    listed = {w for row in rows for w in COMMAND_WORD.findall(row.split(" | ")[0])}
    assert listed == set(BY_NAME)
    using = text.split("## Using it", 1)[1].split("\n## ", 1)[0]
    mentioned = set(COMMAND_WORD.findall(using))
    assert mentioned == set(BY_NAME), mentioned ^ set(BY_NAME)
