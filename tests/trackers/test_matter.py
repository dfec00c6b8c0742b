"""The matter scene tracker end to end over the emulator and Postgres: set-up, initiative,
rounds with a condition's checks and timed states, the GM's states, the end of the scene;
wrong presser, stale buttons, a restart and undo change nothing they should not."""

from __future__ import annotations

import re

from engine.systems import matter
from engine.systems.matter import StateId
from engine.systems.matter.traits import Skill
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import matter_helpers as mh
from tgemu import ChatMessage


async def _table(h: Harness) -> tuple[int, int, int]:
    """Ася (Alice, Хитрость 3, initiative 2), Боб (Bob, initiative 3, immune to poison) and
    the NPC Гоблин (initiative 1)."""
    seat_table(h)
    await create_game(h, "matter", "Материя")
    asya = matter.new_character("Ася").model_copy(
        update={"skills": {Skill.CUNNING.value: 3, Skill.TENACITY.value: 2}, "initiative": 2}
    )
    bob = matter.new_character("Боб").model_copy(
        update={"initiative": 3, "immune_states": (StateId.POISON,)}
    )
    goblin = matter.new_character("Гоблин").model_copy(
        update={"skills": {Skill.TENACITY.value: 1}, "initiative": 1}
    )
    return (
        await tb.insert_character(h, "matter", asya, owner=ALICE),
        await tb.insert_character(h, "matter", bob, owner=BOB),
        await tb.insert_character(h, "matter", goblin, owner=None, npc=True),
    )


async def _started(h: Harness) -> tuple[ChatMessage, tuple[int, int, int]]:
    """Set-up: the NPC joins, Ядовитое облако is on; «Start»."""
    ids = await _table(h)
    tracker = await mh.open_scene(h)
    assert "подготовка" in tracker.text and "Ася, Боб" in tracker.text
    await mh.press(h, GM, tracker, "Гоблин")
    await mh.press(h, GM, tracker, "Ядовитое облако")
    text = tb.current(h, tracker).text
    assert "Ася, Боб, Гоблин" in text and "Условия: Ядовитое облако" in text
    await mh.press(h, GM, tracker, "Начать")
    return tracker, ids


def _order(text: str) -> list[str]:
    """The names of the initiative list, in order (the acting one marked ▶️)."""
    head = text.split("Инициатива:")[1].split("👉")[0]
    return re.findall(r"(?:▶️|\d\.) (\S+)", head)


async def _next(h: Harness, tracker: ChatMessage, user: int = GM) -> str:
    await mh.press(h, user, tracker, "Следующий ход")
    return tb.current(h, tracker).text


async def test_scene_from_opening_to_the_end(running: Harness) -> None:
    h = running
    tracker, (asya, bob, goblin) = await _started(h)
    text = tb.current(h, tracker).text
    assert "Сцена · раунд 1" in text and "Условия: Ядовитое облако" in text
    assert _order(text) == ["Боб", "Ася", "Гоблин"]
    assert "👉 Ходит Боб" in text
    assert "🎲" not in text  # round 1: no standard check yet

    # The GM speeds Ася up (Хитрость 3 → 3 turns) and knocks the goblin out (no resistance).
    await mh.press(h, GM, tracker, "Состояния")
    await mh.press(h, GM, tracker, "Ася")
    await mh.press(h, GM, tracker, "Ускорение")
    await mh.press(h, GM, tracker, "Назад")
    await mh.press(h, GM, tracker, "Гоблин")
    await mh.press(h, GM, tracker, "Нокаут")
    await mh.press(h, GM, tracker, "Назад")
    await mh.press(h, GM, tracker, "Назад")
    text = tb.current(h, tracker).text
    assert "Ускорение ⏳3" in text and "Гоблин</b>" not in text  # plain text, no tags
    assert "Гоблин (НПС) ❤️0/5 · Нокаут" in text
    assert mh.states_of(await mh.sheet(h, asya)) == {"speedup": 3}
    assert mh.states_of(await mh.sheet(h, goblin)) == {"ko": None}

    # Round 1 goes by: Боб, Ася, then the GM for the goblin.
    await _next(h, tracker, BOB)
    assert "👉 Ходит Ася" in tb.current(h, tracker).text
    await _next(h, tracker, ALICE)
    text = await _next(h, tracker, GM)

    # Round 2: the speedup ticks down, the goblin's KO rolls Упорство, the poison cloud's
    # standard check (1d10) hits Ася and the goblin; Боб is immune.
    assert "Сцена · раунд 2" in text and "— Раунд 2 —" in text
    assert "Ускорение ⏳2" in text
    assert _order(text)[0] == "Ася"  # sped up: first
    assert "🛡 Боб: защита от условия «Ядовитое облако»" in text  # immune: no roll
    # A 10 explodes ("[10! 3] → 1"): the die rolls again; each face from 7 up is a success.
    checks = re.findall(
        r"Ася: проверка «Ядовитое облако» · 🎲 1d10>=7! \[([^\]]+)\] → (\d+)", text
    )
    assert len(checks) == 1
    goblin_checks = re.findall(r"Гоблин: проверка «Ядовитое облако» · 🎲 1d10>=7! \[", text)
    assert len(goblin_checks) == 1
    assert re.search(r"Гоблин (?:остаётся без сознания|приходит в себя).* · 🎲 1d10>=7! \[", text)
    faces, successes = [int(f) for f in re.findall(r"\d+", checks[0][0])], int(checks[0][1])
    assert successes == sum(face >= 7 for face in faces)
    # Every roll line is in the roll log under the tracker's ids.
    logged = await tb.scalar(h, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'trk:%'")
    assert logged == text.count("🎲")

    # Round 3 and 4: the speedup counts down and ends; round 4's check is 2d10.
    for _ in range(3):
        text = await _next(h, tracker)
    assert "Сцена · раунд 3" in text and "Ускорение ⏳1" in text
    for _ in range(3):
        text = await _next(h, tracker)
    assert "Сцена · раунд 4" in text
    assert "Ускорение" not in text.split("Инициатива:")[1].split("👉")[0]
    assert "⌛ Ася: Ускорение — закончилось" in text
    assert re.search(r"Ася: проверка «Ядовитое облако» · 🎲 2d10>=7! \[\d+!? \d+", text)
    assert mh.states_of(await mh.sheet(h, asya)).get("speedup") is None

    # End: the scene-bound KO ends; poison (until cured) stays; a summary, no buttons. The
    # end has no undo: «Завершить» asks first, in place; «Отмена» brings the buttons back.
    before = await tb.scalar(h, "SELECT version FROM trackers WHERE status = 'open'")
    await mh.press(h, GM, tracker, "Завершить")
    assert tb.labels(tb.current(h, tracker)) == ["🏁 Да, завершить", "Отмена"]
    assert await mh.press_refused(h, BOB, tracker, "Да, завершить") == "Это может только мастер."
    await mh.press(h, GM, tracker, "Отмена")
    assert "Следующий ход" in " ".join(tb.labels(tb.current(h, tracker)))
    assert await tb.scalar(h, "SELECT version FROM trackers WHERE status = 'open'") == before
    await mh.end(h, tracker)
    final = tb.current(h, tracker)
    assert "Сцена окончена, раундов: 4" in final.text and "🏁 Сцена окончена." in final.text
    assert not (final.reply_markup or {}).get("inline_keyboard")
    assert "⌛ Гоблин: Нокаут — закончилось" in final.text
    goblin_sheet = await mh.sheet(h, goblin)
    assert "ko" not in mh.states_of(goblin_sheet) and goblin_sheet.health == 0
    assert mh.states_of(await mh.sheet(h, bob)) == {}
    asya_sheet = await mh.sheet(h, asya)
    assert set(mh.states_of(asya_sheet)) <= {"poison"}
    assert ("poison" in mh.states_of(asya_sheet)) == ("Ася</b> ❤️5/5 · Отравлен" in final.html)


async def test_wrong_presser_stale_button_restart_and_undo(running: Harness) -> None:
    h = running
    tracker, (asya, _bob, _goblin) = await _started(h)
    assert "👉 Ходит Боб" in tb.current(h, tracker).text

    # Not Alice's turn; not Alice's menus either: alerts, nothing changes.
    # (the alerts in the group's language, its GM's Russian, though Alice and Bob read English)
    said = await mh.press_refused(h, ALICE, tracker, "Следующий ход")
    assert said == "Сейчас не ваш ход: передать ход может игрок действующего персонажа или мастер."
    assert await mh.press_refused(h, ALICE, tracker, "Состояния") == "Это может только мастер."
    assert await mh.press_refused(h, BOB, tracker, "Завершить") == "Это может только мастер."

    # Two presses of one button at once make one step; the other is told it is out of date.
    old_next = mh.data_of(h, tracker, "Следующий ход")
    presses = [h.emu.press(u, GROUP, tracker.message_id, old_next) for u in (BOB, GM)]
    answers = [await h.emu.wait_callback_answer(p.callback_query_id, 15) for p in presses]
    assert sorted(a.show_alert for a in answers) == [False, True]
    assert await tb.scalar(h, "SELECT count(*) FROM tracker_steps WHERE action = 'next'") == 1
    # A button drawn for an older version stays refused once the tracker moved on.
    before = await h.emu.wait_for(lambda: (m := tb.current(h, tracker).text) and "Ася." in m and m)
    answer = await tb.press_data(h, GM, tracker, old_next)
    assert answer.show_alert and "устарела" in (answer.text or "")
    assert tb.current(h, tracker).text == before and "👉 Ходит Ася" in before

    # A restart mid-scene: the buttons keep working from the state in Postgres.
    await h.restart()
    text = await _next(h, tracker, ALICE)
    assert "👉 Ходит Гоблин" in text and "Сцена · раунд 1" in text

    # The GM's state, then undo: the sheet and the tracker come back.
    await mh.press(h, GM, tracker, "Состояния")
    await mh.press(h, GM, tracker, "Ася")
    await mh.press(h, GM, tracker, "Постепенное окаменение")
    assert mh.states_of(await mh.sheet(h, asya)) == {"petrification": None}
    await mh.press(h, GM, tracker, "Назад")
    await mh.press(h, GM, tracker, "Назад")
    assert "Ася ❤️5/5 · Постепенное окаменение" in tb.current(h, tracker).text
    await mh.press(h, GM, tracker, "Отменить")
    text = tb.current(h, tracker).text
    assert "Постепенное окаменение" not in text and "👉 Ходит Гоблин" in text
    assert mh.states_of(await mh.sheet(h, asya)) == {}

    # A round's advance is undone whole: round, order and any states the checks gave.
    text = await _next(h, tracker, GM)
    assert "Сцена · раунд 2" in text
    await mh.press(h, GM, tracker, "Отменить")
    text = tb.current(h, tracker).text
    assert "Сцена · раунд 1" in text and "👉 Ходит Гоблин" in text and "— Раунд 2 —" not in text
    assert mh.states_of(await mh.sheet(h, asya)) == {}
    assert await tb.scalar(h, "SELECT count(*) FROM ledger WHERE kind = 'undo'") >= 1
    assert await mh.press_refused(h, ALICE, tracker, "Отменить") == "Это может только мастер."


async def test_commands_and_one_scene_at_a_time(running: Harness) -> None:
    h = running
    emu = h.emu
    seat_table(h)
    sent = emu.send_text(GM, GROUP, "/fight")
    await emu.wait_bot_message(GROUP, contains="нет игры", after=sent.message_id)
    await create_game(h, "matter", "Материя")
    await tb.insert_character(h, "matter", matter.new_character("Ася"), owner=ALICE)
    sent = emu.send_text(ALICE, GROUP, "/scene")
    await emu.wait_bot_message(GROUP, contains="Это может только мастер", after=sent.message_id)

    tracker = await mh.open_scene(h, "/fight")
    sent = emu.send_text(GM, GROUP, "/scene")
    await emu.wait_bot_message(GROUP, contains="/tracker", after=sent.message_id)

    # Set-up: nobody → «Start» is refused; the participant back in → it starts.
    await mh.press(h, GM, tracker, "Ася")
    assert "пока никого" in tb.current(h, tracker).text
    said = await mh.press_refused(h, GM, tracker, "Начать")
    assert said == "Сначала выберите хотя бы одного участника."
    await mh.press(h, GM, tracker, "Ася")
    await mh.press(h, GM, tracker, "Начать")

    # Mid-scene the GM adds a condition from its menu (a hint says what the menu is for).
    await mh.press(h, GM, tracker, "Условия")
    assert "Нажмите условие" in tb.current(h, tracker).text
    await mh.press(h, GM, tracker, "Туман")
    text = tb.current(h, tracker).text
    assert "🌦 Условия: Туман" in text and "🌦 Новое условие: Туман" in text
    await mh.press(h, GM, tracker, "Назад")
    assert "Нажмите условие" not in tb.current(h, tracker).text

    # /tracker re-posts it below; the new copy works, the old one says it moved.
    sent = emu.send_text(GM, GROUP, "/tracker")
    copy = await emu.wait_bot_message(GROUP, contains="Сцена · раунд 1", after=sent.message_id)
    await mh.press(h, ALICE, copy, "Следующий ход")
    assert "Сцена · раунд 2" in tb.current(h, copy).text
    assert tb.current(h, tracker).text.startswith("⤵️")

    # Ending the scene frees the game for a new one; cancelling a set-up just closes it.
    await mh.end(h, copy)
    assert "Сцена окончена, раундов: 2" in tb.current(h, copy).text
    again = await mh.open_scene(h, "/scene")
    await mh.end(h, again)
    assert not (tb.current(h, again).reply_markup or {}).get("inline_keyboard")
    assert await tb.scalar(h, "SELECT count(*) FROM trackers WHERE status = 'open'") == 0


async def test_a_long_stormy_scene_stays_one_message_under_the_limit(running: Harness) -> None:
    """Шторм (rain, wind, flood) with four participants over nine rounds: every round rolls
    for everyone; the tracker is still the one edited message, under 4,096 characters."""
    h = running
    seat_table(h)
    await create_game(h, "matter", "Материя")
    for n in range(4):
        hero = matter.new_character(f"Герой{n}").model_copy(
            update={"skills": {Skill.CUNNING.value: 2, Skill.BRUTALITY.value: 1}}
        )
        await tb.insert_character(h, "matter", hero, owner=None, npc=True)
    tracker = await mh.open_scene(h, "/fight")
    for n in range(4):
        await mh.press(h, GM, tracker, f"Герой{n}")
    await mh.press(h, GM, tracker, "Шторм")
    await mh.press(h, GM, tracker, "Начать")
    sent_before = len(h.emu.bot_messages(GROUP))
    # Герой0 climbs out of the water: Наводнение no longer rolls for them.
    await mh.press(h, GM, tracker, "Состояния")
    await mh.press(h, GM, tracker, "Герой0")
    await mh.press(h, GM, tracker, "В воде")
    assert "▫️ 🌊 В воде" in [b["text"] for b in buttons(tb.current(h, tracker))]
    await mh.press(h, GM, tracker, "Назад")
    await mh.press(h, GM, tracker, "Назад")
    text = tb.current(h, tracker).text
    assert "Герой0 (НПС) ❤️5/5 🏝" in text and "🏝 Герой0 выбирается из воды" in text
    while "Сцена · раунд 2" not in tb.current(h, tracker).text:
        await _next(h, tracker)
    round_2 = tb.current(h, tracker).text.split("— Раунд 2 —")[1]

    def flood_rolls(name: str) -> list[str]:
        lines = round_2.splitlines()
        return [x for x in lines if name in x and "Медлительность" in x and "🎲" in x]

    assert len(flood_rolls("Герой1")) == 1 and flood_rolls("Герой0") == []
    while "Сцена · раунд 9" not in tb.current(h, tracker).text:
        await _next(h, tracker)
    text = tb.current(h, tracker).text
    assert len(h.emu.bot_messages(GROUP)) == sent_before  # edits only, no new messages
    assert len(text) <= 4096 and "\n…\n" in text  # the oldest log lines gave way
    assert "— Раунд 9 —" in text and "🎬 Сцена началась." not in text
    rolls = await tb.scalar(h, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'trk:%'")
    assert rolls >= 4 * 9  # Наводнение alone rolls for everyone every round


async def test_crippled_check_when_the_gm_calls_for_it(running: Harness) -> None:
    """Тяжело ранен: a dot of Willpower holds on (none left → the engine's refusal), an
    Упорство roll holds on or costs 1 Health; both through the ledger."""
    h = running
    seat_table(h)
    await create_game(h, "matter", "Материя")
    hurt = matter.new_character("Ася").model_copy(
        update={
            "health": 0,
            "willpower": 1,
            "skills": {Skill.TENACITY.value: 2},
            "states": (matter.ActiveState(state=StateId.CRIPPLED),),
        }
    )
    asya = await tb.insert_character(h, "matter", hurt, owner=ALICE)
    tracker = await mh.open_scene(h)
    await mh.press(h, GM, tracker, "Начать")
    await mh.press(h, GM, tracker, "Состояния")
    await mh.press(h, GM, tracker, "Ася")
    await mh.press(h, GM, tracker, "Потратить Силу воли")
    assert "🩸 Ася тратит ● Силы воли, чтобы держаться" in tb.current(h, tracker).text
    assert (await mh.sheet(h, asya)).willpower == 0
    said = await mh.press_refused(h, GM, tracker, "Потратить Силу воли")
    assert said == "Не осталось ● Силы воли."
    await mh.press(h, GM, tracker, "Бросок Упорства")
    text = tb.current(h, tracker).text
    line = next(x for x in text.splitlines() if "🩸 Ася" in x and "🎲 2d10>=7!" in x)
    health = (await mh.sheet(h, asya)).health
    assert ("держится" in line and health == 0) or ("теряет 1 Здоровье" in line and health == -1)
