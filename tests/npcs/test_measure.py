"""The figure issue 24 asks for: taps and messages to create a Fate mook and a storyteller NPC,
through the full wizard (as before: ``/npc``'s link, the player's wizard as the GM, its
shortest path to «Send») and through the one-line form (now). Run with ``-s`` to see them."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, deep_link_token, seat_table
from tests.helpers import table as tb
from tests.wizards.fate import flow
from tests.wizards.storyteller.driver import Player


@dataclass
class Count:
    typed: int = 0
    taps: int = 0

    def sent(self, h: Harness) -> int:
        return len(h.emu.calls_to("sendMessage"))


async def _npcs(h: Harness) -> int:
    async with h.engine.connect() as conn:
        found = await conn.execute(text("SELECT count(*) FROM characters WHERE is_npc"))
        return int(found.scalar_one())


async def _open_npc_wizard(h: Harness, count: Count) -> None:
    """``/npc`` in the group, then its link (the tap opens the private chat with /start)."""
    link = await tb.send_and_answer(h, GM, "/npc")
    count.typed += 1
    assert any("url" in b for b in buttons(link))
    h.emu.send_text(GM, GM, f"/start {deep_link_token(link)}")
    count.taps += 1
    await h.emu.wait_bot_message(GM)
    await h.emu.wait_idle()


async def test_a_fate_mook_before_and_after(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Меры")
    await tb.insert_character(h, "fate", flow_hero(), owner=GM, npc=True)  # a first NPC listed
    before = Count()
    start = before.sent(h)
    await _open_npc_wizard(h, before)
    for answer in ("Громила", "Наёмный громила", "Жадный", "Дрался на арене", "Знает Иру",
                   "Должен Бобу"):  # fmt: skip
        await flow.say(h, answer, user=GM)
        before.typed += 1
    for _ in range(4):  # skills, stunts, gear, preview: left as they are
        await flow.press(h, "Далее", user=GM)
        before.taps += 1
    await flow.press(h, "✅", user=GM)
    before.taps += 1
    await h.emu.wait_idle()
    assert await _npcs(h) == 2
    before_sent = before.sent(h) - start

    after = Count()
    start = after.sent(h)
    h.emu.send_text(GM, GROUP, "/npc Бой 2, Атлетика 1, стресс 1")
    after.typed += 1
    await h.emu.wait_bot_message(GROUP, contains="Статист")
    await h.emu.wait_idle()
    after_sent = after.sent(h) - start
    assert await _npcs(h) == 3
    print(
        f"\nFATE mook: before {before.typed} typed + {before.taps} taps, {before_sent} bot "
        f"messages; after {after.typed} typed + {after.taps} taps, {after_sent} bot messages"
    )
    assert (after.typed + after.taps, after_sent) < (before.typed + before.taps, before_sent)
    assert (after.typed, after.taps, after_sent) == (1, 0, 1)


def flow_hero():  # type: ignore[no-untyped-def]
    from engine.systems import fate

    return fate.new_character("Орк").model_copy(update={"fate_points": 0})


async def test_a_storyteller_npc_before_and_after(running: Harness) -> None:
    h = running
    player = Player(h, GM)
    seat_table(h)
    await create_game(h, "storyteller", "Меры")
    before = Count()
    start = before.sent(h)
    await _open_npc_wizard(h, before)
    await player.settled()
    await player.say("Стражник")
    await player.say("страж ворот")
    before.typed += 2
    while "15 из 15" not in player.text:  # the last step: the preview
        await player.press("nx")
        before.taps += 1
    labels = [b["text"] for b in buttons(player.message)] if player.message else []
    assert "✅ Сохранить НПС" in labels and "✅ Отправить мастеру" not in labels
    assert "сохраните НПС" in player.text
    await player.press("okn")  # the GM's own NPC is saved, not sent for approval
    before.taps += 1
    await h.emu.wait_idle()
    assert await _npcs(h) == 1
    before_sent = before.sent(h) - start

    after = Count()
    start = after.sent(h)
    # another name: the first one is active (a second of one name is refused)
    h.emu.send_text(GM, GROUP, "/npc Стражник 2: Сила 3, Ловкость 2, Драка 3, Воля 4, страж ворот")
    after.typed += 1
    await h.emu.wait_bot_message(GROUP, contains="Стражник", after=0)
    await h.emu.wait_idle()
    after_sent = after.sent(h) - start
    assert await _npcs(h) == 2
    print(
        f"\nstoryteller NPC: before {before.typed} typed + {before.taps} taps (every trait "
        f"left at its start), {before_sent} bot messages; after {after.typed} typed + "
        f"{after.taps} taps, {after_sent} bot messages"
    )
    assert (after.typed, after.taps, after_sent) == (1, 0, 1)
    assert before.typed + before.taps > 10
