"""What a user types never breaks a reply: errors quote it escaped, every list fits one
message, odds read as odds, a forged system press changes nothing (over the emulator)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from engine.common import name_key
from engine.dice.odds import distribution
from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, create_game, seat_table
from tests.helpers.table import game_id, insert_character, scalar, send_and_answer
from tgemu import ChatMessage

APOLOGY = ("что-то пошло не так", "something went wrong")
MAX_TEXT = 4096


def assert_clear_error(reply: ChatMessage, quoted: str) -> None:
    """A plain-words error that shows the user's text as typed (so it was escaped)."""
    assert not any(words in reply.text for words in APOLOGY), reply.text
    assert quoted in reply.text, reply.text
    assert "&lt;" not in reply.text  # escaped once, not twice


async def _fate_table(h: Harness) -> None:
    seat_table(h)
    await create_game(h, "fate", "Тени")


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        ("/r <b>", "«<»"),
        ("/r 1d6+<i>", "Позиция 5"),
        ("/odds <script>", "«<»"),
        ("/odds 1d6+<i>", "Позиция 5"),
    ],
)
async def test_notation_errors_quote_the_text_escaped(
    running: Harness, line: str, quoted: str
) -> None:
    seat_table(running)
    reply = await send_and_answer(running, GM, line)
    assert_clear_error(reply, quoted)
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_request_and_secret_roll_errors_quote_the_text_escaped(running: Harness) -> None:
    await _fate_table(running)
    emu = running.emu
    said = emu.send_text(ALICE, GROUP, "Я готова")
    last = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, "/request 1d6+<i>", reply_to=said.message_id)
    reply = await emu.wait_bot_message(GROUP, after=last.message_id if last else 0)
    assert_clear_error(reply, "«<»")

    emu.send_text(GM, GM, "/start")
    await emu.wait_bot_message(GM)
    reply = await send_and_answer(running, GM, "/sroll <b>")
    assert_clear_error(reply, "«<»")
    assert await scalar(running, "SELECT count(*) FROM roll_requests") == 0
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_odds_rows_under_a_tenth_of_a_percent_and_the_average(running: Harness) -> None:
    seat_table(running)
    reply = await send_and_answer(running, ALICE, "/odds 6d6")
    assert not any(words in reply.text for words in APOLOGY), reply.text
    assert "at least 36: <0.1%" in reply.text  # Alice reads English
    assert "average: 21\n" in reply.text and "21.0%" not in reply.text
    reply = await send_and_answer(running, ALICE, "/odds 3d6")
    mean = distribution("3d6").mean
    assert f"average: {float(mean)}\n" in reply.text and "1050" not in reply.text
    reply = await send_and_answer(running, ALICE, "/odds 100dF vs 50")
    # outside a game a total at or above the target succeeds (the chat's system otherwise)
    assert "success: <0.1%" in reply.text and "failure: >99.9%" in reply.text


async def test_a_total_beyond_32_bits_is_refused_and_nothing_stored(running: Harness) -> None:
    seat_table(running)
    reply = await send_and_answer(running, ALICE, "/r 9999999*9999999")
    assert_clear_error(reply, "2147483647")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    reply = await send_and_answer(running, ALICE, "/r 9999999*99+1")
    assert "989999902" in reply.text
    assert await scalar(running, "SELECT result FROM rolls") == 989999902


def _hero(name: str) -> fate.Character:
    return fate.Character(name=name)


async def _crowd(h: Harness, count: int) -> list[str]:
    """``count`` NPCs of 64-character names full of markup, straight into the game."""
    names = [f"<b>&{i:02d}" + "Ж" * 50 + "&amp;<i>" for i in range(count)]
    gid = await game_id(h)
    async with h.engine.begin() as conn:
        for name in names:
            await conn.execute(
                text(
                    "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                    "name_key, status, sheet, schema_version, version) VALUES (:g, :u, true, "
                    "'fate', :name, :key, 'active', CAST(:sheet AS jsonb), 1, 1)"
                ),
                {
                    "g": gid,
                    "u": GM,
                    "name": name,
                    "key": name_key(name),
                    "sheet": _hero(name).model_dump_json(),
                },
            )
    return names


async def test_game_card_and_unknown_sheet_with_80_long_npc_names(running: Harness) -> None:
    await _fate_table(running)
    names = await _crowd(running, 80)
    assert all(len(name) == 64 for name in names)
    await insert_character(running, "fate", _hero("<Алиса & Co>"))

    card = await send_and_answer(running, ALICE, "/game")
    assert not any(words in card.text for words in APOLOGY), card.text
    assert len(card.text) <= MAX_TEXT
    assert names[0] in card.text and names[-1] not in card.text
    # the rest counted, not cut mid-name (in the group's Russian, though Alice reads English)
    assert "… и ещё " in card.text
    assert "<Алиса & Co>" in card.text

    reply = await send_and_answer(running, ALICE, "/sheet <nobody>")
    assert len(reply.text) <= MAX_TEXT
    assert names[0] in reply.text and names[-1] not in reply.text and "ещё" in reply.text

    reply = await send_and_answer(running, GM, "/res <nobody>")
    assert len(reply.text) <= MAX_TEXT and "ещё" in reply.text


async def test_forged_system_press_is_answered_plainly(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    for line in ("/newgame Saga", "/newgame"):
        emu.send_text(GM, GROUP, line)
        picker = await emu.wait_bot_message(GROUP, contains="FATE", after=_latest(running))
        pressed = emu.press(GM, GROUP, picker.message_id, f"ng:<nope>:{GM}")
        answer = await emu.wait_callback_answer(pressed.callback_query_id)
        assert answer.show_alert and "Такой системы правил нет" in (answer.text or "")
        await emu.wait_idle(5)
        assert emu.last_bot_message(GROUP).message_id == picker.message_id  # type: ignore[union-attr]
        assert await scalar(running, "SELECT count(*) FROM games") == 0
    # the real picker still works afterwards: the forged press changed nothing
    pressed = emu.press_button(GM, GROUP, picker.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    await emu.wait_for(lambda: "название" in (emu.last_bot_message(GROUP).text or ""))  # type: ignore[union-attr]


def _latest(h: Harness) -> int:
    last = h.emu.last_bot_message(GROUP)
    return last.message_id if last else 0
