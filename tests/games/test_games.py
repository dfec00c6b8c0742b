"""/newgame, /game, options, co-GMs, archiving — over the emulator with real Postgres."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table


async def test_new_game_then_card_with_deep_link(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    announcement = await create_game(running, "matter", "Пепел")
    assert "Пепел" in announcement.text and "Материя" in announcement.text
    assert "/roles" not in announcement.text  # only a system whose wizard needs set-up says so
    link = next(b["url"] for b in buttons(announcement) if "url" in b)
    assert link.startswith(f"https://t.me/{emu.bot_username}?start=")
    token = link.split("=", 1)[1]
    assert str(GROUP) not in token and len(token) >= 12  # opaque, never a raw id

    emu.send_text(ALICE, GROUP, "/game")
    card = await emu.wait_bot_message(GROUP, after=announcement.message_id)
    assert "Мастер" in card.text and "Epoch" not in card.text

    emu.send_text(BOB, GROUP, "/newgame Another")
    refused = await emu.wait_bot_message(GROUP, after=card.message_id)
    assert "уже идёт игра" in refused.text


async def test_only_the_initiator_picks_the_system(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    emu.send_text(GM, GROUP, "/newgame Saga")
    picker = await emu.wait_bot_message(GROUP)
    pressed = emu.press_button(ALICE, GROUP, picker.message_id, 0)
    answer = await emu.wait_callback_answer(pressed.callback_query_id)
    assert answer.show_alert and "/newgame" in answer.text
    async with running.engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM games"))).scalar_one() == 0


async def test_title_asked_when_missing(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    emu.send_text(GM, GROUP, "/newgame")
    picker = await emu.wait_bot_message(GROUP)
    pressed = emu.press_button(GM, GROUP, picker.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "название" in (emu.last_bot_message(GROUP).text or ""))  # type: ignore[union-attr]
    emu.send_text(ALICE, GROUP, "Not the GM's answer")  # another user's text changes nothing
    emu.send_text(GM, GROUP, "Ночной дозор")
    created = await emu.wait_bot_message(GROUP, contains="Ночной дозор", after=picker.message_id)
    assert "FATE" in created.text or "Фэйт" in created.text


async def test_gm_only_options_and_archive(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "storyteller", "Грёзы")
    emu.send_text(ALICE, GROUP, "/options")
    refused = await emu.wait_bot_message(GROUP, contains="только мастер")
    emu.send_text(GM, GROUP, "/options")
    panel = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert "15" in panel.text
    plus = next(i for i, b in enumerate(buttons(panel)) if b["text"].startswith("+"))
    pressed = emu.press_button(ALICE, GROUP, panel.message_id, plus)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    pressed = emu.press_button(GM, GROUP, panel.message_id, plus)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(
        lambda: (
            "16"
            in next(m for m in emu.bot_messages(GROUP) if m.message_id == panel.message_id).text
        )
    )
    async with running.engine.connect() as conn:
        options = (await conn.execute(text("SELECT options FROM games"))).scalar_one()
    assert options["freebies"] == 16

    emu.send_text(GM, GROUP, "/timezone +3")
    await emu.wait_bot_message(GROUP, contains="UTC+3")  # not POSIX «Etc/GMT-3» (a minus)

    emu.send_text(GM, GROUP, "/game")  # the GM's copy has the archive button; Alice presses it
    card = await emu.wait_for(
        lambda: next(
            (
                m
                for m in reversed(emu.bot_messages(GROUP))
                if any(b.get("callback_data", "").startswith("arc:") for b in buttons(m))
            ),
            None,
        )
    )
    archive = next(
        i for i, b in enumerate(buttons(card)) if b.get("callback_data", "").startswith("arc:")
    )
    pressed = emu.press_button(ALICE, GROUP, card.message_id, archive)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    pressed = emu.press_button(GM, GROUP, card.message_id, archive)
    await emu.wait_callback_answer(pressed.callback_query_id)
    question = await emu.wait_bot_message(GROUP, contains="Грёзы", after=card.message_id)
    confirm = next(
        i for i, b in enumerate(buttons(question)) if b.get("callback_data", "").startswith("arc:")
    )
    pressed = emu.press_button(GM, GROUP, question.message_id, confirm)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(
        lambda: (
            "архив"
            in next(m for m in emu.bot_messages(GROUP) if m.message_id == question.message_id).text
        )
    )
    async with running.engine.connect() as conn:
        archived = (
            await conn.execute(text("SELECT archived_at IS NOT NULL FROM games"))
        ).scalar_one()
    assert archived


async def test_cogm_by_reply(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "cliche", "Серенити")
    said = emu.send_text(BOB, GROUP, "I can help run it")
    emu.send_text(GM, GROUP, "/cogm", reply_to=said.message_id)
    await emu.wait_bot_message(GROUP, contains="со-мастер")
    emu.send_text(BOB, GROUP, "/milestone")  # a co-GM runs the table…
    await emu.wait_for(
        lambda: any(
            b.get("callback_data", "").startswith("mlk:")
            for b in buttons(emu.last_bot_message(GROUP))  # type: ignore[arg-type]
        )
    )
    emu.send_text(BOB, GROUP, "/options")  # …but the game's own settings are the GM's
    await emu.wait_bot_message(GROUP, contains="не со-мастер")


async def test_a_gm_without_admin_rights_sets_the_game_language(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    emu.send_text(BOB, GROUP, "/newgame Bob's table")  # Bob is a plain member of the group
    picker = await emu.wait_bot_message(GROUP)
    pressed = emu.press_button(BOB, GROUP, picker.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    announced = await emu.wait_for(
        lambda: (m := emu.last_bot_message(GROUP)) and any("url" in b for b in buttons(m)) and m
    )
    emu.send_text(ALICE, GROUP, "/lang ru")
    refused = await emu.wait_bot_message(GROUP, contains="GM", after=announced.message_id)
    emu.send_text(BOB, GROUP, "/lang ru")
    done = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert done.text == "Язык: Русский."


async def test_the_system_picker_says_what_each_title_does_not(running: Harness) -> None:
    """«Жизни = снаряжение — снаряжение — это ваши жизни» said its title twice; the line now
    tells what else the system is (the seed: roles, wounds that break things, stat dice)."""
    seat_table(running)
    running.emu.send_text(GM, GROUP, "/newgame Saga")
    picker = await running.emu.wait_bot_message(GROUP)
    line = next(x for x in picker.text.splitlines() if "Жизни = снаряжение" in x)
    assert "роли от мастера; раны ломают снаряжение; кубики параметров" in line
    assert line.count("снаряжение") == 2  # the title's, and the wounds'


async def test_a_group_that_chose_its_language_keeps_it_at_newgame(running: Harness) -> None:
    """A group speaks its first game's GM's language only when it never chose one: the
    creator's «/lang en» before any game holds when the Russian GM starts one."""
    seat_table(running)
    emu = running.emu
    sent = emu.send_text(GM, GROUP, "/lang en")  # the group's creator, before any game
    assert (await emu.wait_bot_message(GROUP, after=sent.message_id)).text == (
        "Language set: English."
    )
    announcement = await create_game(running, "fate", "Saga")
    assert announcement.text.startswith("🎲 Game «Saga» is on: FATE"), announcement.text
