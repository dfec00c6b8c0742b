"""Matter condition lines say what their rolls meant (issue 24 item 6): a condition's check
says whether it took hold (and that a resistance roll follows), the resistance roll says it is
one — consistent with the dice shown, over the emulator."""

from __future__ import annotations

import re

from engine.systems import matter
from engine.systems.matter.traits import Skill
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import matter_helpers as mh

CHECK = re.compile(
    r"(\S+): проверка «Ядовитое облако» · 🎲 1d10>=7! \[[^\]]+\] → (\d+)(?: 💥)? — ([^\n]+)"
)


async def test_check_lines_say_whether_the_condition_took_hold(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "matter", "Материя")
    for i in range(4):  # four NPCs: one round gives both outcomes with near certainty
        goblin = matter.new_character(f"Гоблин{i}").model_copy(
            update={"skills": {Skill.TENACITY.value: 1}, "initiative": 1}
        )
        await tb.insert_character(h, "matter", goblin, owner=None, npc=True)
    asya = matter.new_character("Ася").model_copy(update={"initiative": 2})
    await tb.insert_character(h, "matter", asya, owner=ALICE)
    tracker = await mh.open_scene(h)
    for i in range(4):
        await mh.press(h, GM, tracker, f"Гоблин{i}")
    await mh.press(h, GM, tracker, "Ядовитое облако")
    await mh.press(h, GM, tracker, "Начать")
    seen: set[str] = set()
    for _ in range(3):  # rounds 2–3: the cloud's standard check
        for _ in range(5):
            await mh.press(h, GM, tracker, "Следующий ход")
        text = tb.current(h, tracker).text
        checks = CHECK.findall(text)
        assert checks, text
        for name, successes, meaning in checks:
            if int(successes) > 0:
                assert meaning == "условие подействовало, дальше бросок сопротивления"
                # the resistance roll that follows says what it is
                follow = text.split(f"{name}: проверка «Ядовитое облако»", 1)[1]
                nxt = follow.split("\n")[1]
                assert name in nxt and "(бросок сопротивления)" in nxt, nxt
            else:
                assert meaning == "не подействовало"
            seen.add(meaning)
    assert seen  # at least one check read
