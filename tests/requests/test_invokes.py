"""Fate invokes on a rolled request: +2 for 1 fate point, both in the logs; rerolls logged."""

from __future__ import annotations

from typing import Any

from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import insert_character, scalar


async def _hero(h: Harness, fate_points: int) -> None:
    hero = fate.new_character("Мира").model_copy(
        update={
            "fate_points": fate_points,
            "aspects": (
                fate.CharacterAspect(text="Дочь контрабандиста", role=fate.AspectRole.CONCEPT),
                fate.CharacterAspect(text="Долг перед гильдией", role=fate.AspectRole.TROUBLE),
            ),
        }
    )
    await insert_character(h, "fate", hero, owner=ALICE, seated=False)


async def _rolled_card(h: Harness) -> Any:
    emu = h.emu
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, "/request 4dF+2 vs 3", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=said.message_id)
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    return await emu.wait_for(
        lambda: (
            (m := next(x for x in emu.bot_messages(GROUP) if x.message_id == card.message_id))
            and "ivm:" in str(m.reply_markup)
            and m
        )
    )


async def test_invoke_adds_two_and_spends_a_fate_point_both_logged(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    await _hero(running, fate_points=1)
    card = await _rolled_card(running)
    rolled_total = await scalar(running, "SELECT result FROM rolls")

    pressed = emu.press(BOB, GROUP, card.message_id, buttons(card)[0]["callback_data"])
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert  # not Bob's

    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)  # the aspect menu
    await emu.wait_callback_answer(pressed.callback_query_id)
    menu = await emu.wait_for(lambda: "iv:" in str(card.reply_markup) and card)
    plus_two = next(b["callback_data"] for b in buttons(menu) if b["text"].startswith("+2"))
    pressed = emu.press(ALICE, GROUP, card.message_id, plus_two)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(
        lambda: "Total with invokes" in card.text or "Итог с обращениями" in card.text
    )
    assert f"{rolled_total + 2}" in card.text
    assert await scalar(running, "SELECT (sheet->>'fate_points')::int FROM characters") == 0
    assert await scalar(running, "SELECT kind FROM ledger") == "fate.invoke"
    assert await scalar(running, "SELECT bonus FROM roll_requests") == 2

    # the same aspect again, and with no fate point left: refused, nothing changes
    pressed = emu.press(ALICE, GROUP, card.message_id, plus_two)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    reroll = plus_two.replace(":0:bonus", ":1:reroll")
    pressed = emu.press(ALICE, GROUP, card.message_id, reroll)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    assert await scalar(running, "SELECT count(*) FROM ledger") == 1
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1


async def test_a_reroll_is_a_new_logged_roll(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    await _hero(running, fate_points=2)
    card = await _rolled_card(running)
    data = buttons(card)[0]["callback_data"].replace("ivm:", "iv:") + ":1:reroll"
    pressed = emu.press(ALICE, GROUP, card.message_id, data)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "Log #2" in card.text or "Журнал №2" in card.text)
    rid = await scalar(running, "SELECT id FROM roll_requests")
    assert await scalar(running, "SELECT string_agg(roll_id, ',' ORDER BY seq) FROM rolls") == (
        f"req:{rid},req:{rid}:re1"
    )
    assert await scalar(running, "SELECT (sheet->>'fate_points')::int FROM characters") == 1


async def test_a_trait_request_stays_signed_by_the_character_after_an_invoke(
    running: Harness,
) -> None:
    """Issue 36 item 13: a reply with nothing more offers the character's traits; the card of
    a trait's roll names the character, and still does once an aspect is invoked."""
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    hero = fate.new_character("Мира").model_copy(
        update={
            "fate_points": 2,
            "skills": {fate.Skill.ATHLETICS: 2},
            "aspects": (
                fate.CharacterAspect(text="Дочь контрабандиста", role=fate.AspectRole.CONCEPT),
            ),
        }
    )
    await insert_character(running, "fate", hero, owner=ALICE, seated=False)
    said = emu.send_text(ALICE, GROUP, "готова")
    emu.send_text(GM, GROUP, "/request", reply_to=said.message_id)
    picker = await emu.wait_bot_message(GROUP, after=said.message_id)
    assert "Мира" in picker.text and "Ответьте" not in picker.text
    assert any(b["callback_data"].startswith("rqb:") for b in buttons(picker))
    emu.send_text(GM, GROUP, "/request Атлетика vs 2", reply_to=said.message_id)
    card = await emu.wait_bot_message(GROUP, contains="🎲", after=picker.message_id)
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "ivm:" in str(card.reply_markup))
    assert "Мира" in card.text
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)  # the aspect menu
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "iv:" in str(card.reply_markup))
    plus_two = next(b["callback_data"] for b in buttons(card) if b["text"].startswith("+2"))
    pressed = emu.press(ALICE, GROUP, card.message_id, plus_two)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(
        lambda: "Итог с обращениями" in card.text  # the group's Russian, whoever pressed
    )
    assert "Мира" in card.text


async def test_the_usage_speaks_the_games_system(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    last = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, "/request")
    usage = await emu.wait_bot_message(GROUP, after=last.message_id if last else 0)
    assert "/request Атлетика vs 2 через 2ч" in usage.text and "3к6" not in usage.text


async def test_the_aspect_menu_says_what_its_buttons_do_and_closes_for_free(
    running: Harness,
) -> None:
    """A player who tapped «Invoke» by mistake had only aspects to pick (no way back), and
    «+2 · …» beside «🔁 · …» said nothing of which is which."""
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    await _hero(running, fate_points=1)
    card = await _rolled_card(running)
    pressed = emu.press_button(ALICE, GROUP, card.message_id, 0)  # the aspect menu
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.text == "+2: прибавить 2 к итогу. 🔁: бросить заново."  # the group's
    menu = await emu.wait_for(lambda: "iv:" in str(card.reply_markup) and card)
    back = next(b for b in buttons(menu) if b["text"].startswith("⬅️"))
    assert back["text"] == "⬅️ Назад, без обращения"
    pressed = emu.press(BOB, GROUP, card.message_id, back["callback_data"])
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert  # not Bob's
    pressed = emu.press(ALICE, GROUP, card.message_id, back["callback_data"])
    await emu.wait_callback_answer(pressed.callback_query_id)
    again = await emu.wait_for(lambda: "iv:" not in str(card.reply_markup) and card)
    assert [b["text"] for b in buttons(again)] == ["✨ Обратиться к аспекту (1 очко судьбы)"]
    assert await scalar(running, "SELECT (sheet->>'fate_points')::int FROM characters") == 1
    assert await scalar(running, "SELECT count(*) FROM ledger") == 0
