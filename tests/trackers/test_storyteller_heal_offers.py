"""The scene's health screen offers healing only for the kinds of damage the chosen
character has: «−/ ударный урон» on a healthy goblin only answered «Такого урона нет»."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons, create_game, seat_table
from tests.trackers.storyteller_helpers import hero, insert, tap, tracker
from tgemu import ChatMessage


def _labels(message: ChatMessage) -> list[str]:
    return [b["text"] for b in buttons(message)]


async def test_heal_buttons_follow_the_chosen_characters_damage(running: Harness) -> None:
    h, emu = running, running.emu
    seat_table(h)
    await create_game(h, "storyteller", "Грёзы")
    await insert(h, hero("Техлана"), owner=ALICE)
    await insert(h, hero("Гоблин"), owner=GM, npc=True)
    said = emu.send_text(GM, GROUP, "/scene")
    msg = await emu.wait_bot_message(GROUP, contains="🎭", after=said.message_id)
    await tap(h, GM, msg, "zts")
    await tap(h, GM, msg, "ztv", "🩸")
    await tap(h, GM, msg, "ztv", "Гоблин")
    healthy = _labels(msg)
    assert "+X летальный урон" in healthy
    assert not [label for label in healthy if label.startswith("−")], healthy
    await tap(h, GM, msg, "zth", "+X")
    hurt = [label for label in _labels(msg) if label.startswith("−")]
    assert hurt == ["−X летальный урон"], hurt
    assert (await tracker(h))["state"]["round"] == 1
