"""A bot that always says what to do next (issue 23, items 7–9), end to end over the emulator:
typos get the closest command, commands in the wrong kind of chat say where they work, /sheet
and /res in the private chat list one's own characters, an ambiguous /sheet asks which, a
pending-only /sheet says so, and a player's own sheet carries no GM-only button."""

from __future__ import annotations

from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import WAIT, insert_character, press_data, send_and_answer


async def _fate_table(h: Harness) -> None:
    seat_table(h)
    await create_game(h, "fate", "Кампания")


def _data(message: object) -> list[str]:
    return [b.get("callback_data", "") for b in buttons(message)]  # type: ignore[arg-type]


async def test_typos_get_the_closest_command(running: Harness) -> None:
    seat_table(running)
    answer = await send_and_answer(running, ALICE, "/hepl", chat_id=ALICE)
    assert "/hepl" in answer.text and "/help" in answer.text
    answer = await send_and_answer(running, ALICE, "/shet")
    assert "/shet" in answer.text and "/sheet" in answer.text
    nothing_close = await send_and_answer(running, ALICE, "/xyzzyq", chat_id=ALICE)
    assert "/xyzzyq" in nothing_close.text and "/help" in nothing_close.text
    # in a group a bare unknown /word may be another bot's: no answer unless it is a typo
    running.emu.send_text(ALICE, GROUP, "/xyzzyq")
    addressed = await send_and_answer(running, ALICE, f"/xyzzyq@{running.emu.bot_username}")
    assert "/xyzzyq" in addressed.text
    await running.emu.wait_idle(timeout=WAIT)
    answers = [m for m in running.emu.bot_messages(GROUP) if "/xyzzyq" in m.text]
    assert answers == [addressed]


async def test_commands_in_the_wrong_kind_of_chat_say_where_they_work(running: Harness) -> None:
    seat_table(running)
    for command in ("/game", "/request", "/milestone", "/tracker"):
        answer = await send_and_answer(running, ALICE, command, chat_id=ALICE)
        assert command in answer.text and "group" in answer.text, (command, answer.text)
        assert "No game" not in answer.text
    answer = await send_and_answer(running, ALICE, "/profile")
    assert "/profile" in answer.text and "private chat" in answer.text
    assert any(b.get("url", "").startswith("https://t.me/") for b in buttons(answer))


async def test_sheet_and_res_in_private_show_own_characters_across_games(
    running: Harness,
) -> None:
    h = running
    await _fate_table(h)
    hero = await insert_character(h, "fate", fate.new_character("Ира"), owner=ALICE)
    await insert_character(h, "fate", fate.new_character("Чужой"), owner=BOB)
    other_group = -100777
    h.emu.add_group(other_group, "Вторая", members=[GM, ALICE, BOB], creator=GM)
    h.emu.send_text(GM, other_group, "/newgame Вторая кампания")
    picker = await h.emu.wait_bot_message(other_group, contains="FATE")
    fate_button = next(d for d in _data(picker) if d.startswith("ng:fate:"))
    await press_data(h, GM, picker, fate_button, chat_id=other_group)
    await h.emu.wait_for(
        lambda: any(m.edits for m in h.emu.bot_messages(other_group)), timeout=WAIT
    )
    await insert_character(
        h, "fate", fate.new_character("Второй"), owner=ALICE, status="pending",
        chat_id=other_group,
    )  # fmt: skip

    listing = await send_and_answer(h, ALICE, "/sheet", chat_id=ALICE)
    assert "Ира" in listing.text and "Второй" in listing.text and "Чужой" not in listing.text
    assert "Кампания" in listing.text and "Вторая кампания" in listing.text
    pick = next(d for d in _data(listing) if d.startswith("spk:") and d.endswith(f":{hero}"))
    await press_data(h, ALICE, listing, pick, chat_id=ALICE)
    shown = await h.emu.wait_for(
        lambda: next((m for m in h.emu.bot_messages(ALICE) if m.text.startswith("Ира")), None),
        timeout=WAIT,
    )
    assert not any(d.startswith("rqb:") for d in _data(shown))  # no GM button in private

    resources = await send_and_answer(h, ALICE, "/res", chat_id=ALICE)
    assert "Ира" in resources.text and "Кампания" in resources.text
    assert "Второй" not in resources.text  # pending: no resources yet


async def test_an_ambiguous_sheet_name_asks_which(running: Harness) -> None:
    h = running
    await _fate_table(h)
    first = await insert_character(h, "fate", fate.new_character("Ирина"), owner=ALICE)
    second = await insert_character(h, "fate", fate.new_character("Ираида"), owner=BOB)
    choice = await send_and_answer(h, GM, "/sheet Ир")
    picks = [d for d in _data(choice) if d.startswith("spk:")]
    assert sorted(picks) == sorted([f"spk:{first}", f"spk:{second}"])
    await press_data(h, GM, choice, f"spk:{second}")
    sheet = await h.emu.wait_for(
        lambda: next((m for m in h.emu.bot_messages(GROUP) if m.text.startswith("Ираида")), None),
        timeout=WAIT,
    )
    assert any(d.startswith("rqb:") for d in _data(sheet))  # the GM's own view keeps it


async def test_sheet_with_only_a_pending_character_says_it_is_pending(running: Harness) -> None:
    h = running
    await _fate_table(h)
    await insert_character(h, "fate", fate.new_character("Ждущий"), owner=ALICE, status="pending")
    answer = await send_and_answer(h, ALICE, "/sheet")
    assert "одобрения" in answer.text  # the group's language (its GM's Russian), not Alice's


async def test_a_players_own_sheet_has_no_gm_buttons(running: Harness) -> None:
    h = running
    await _fate_table(h)
    hero = await insert_character(h, "fate", fate.new_character("Ира"), owner=ALICE)
    own = await send_and_answer(h, ALICE, "/sheet")
    assert own.text.startswith("Ира")
    assert not any(d.startswith("rqb:") for d in _data(own)), _data(own)
    assert f"ro:{hero}" in _data(own)  # the player's own buttons stay: resources, «Edit»
    assert any("url" in b for b in buttons(own))
    gm_view = await send_and_answer(h, GM, "/sheet Ира")
    assert any(d.startswith("rqb:") for d in _data(gm_view))
    other = await send_and_answer(h, BOB, "/sheet Ира")  # another player: read only
    assert f"ro:{hero}" in _data(other) and not any("url" in b for b in buttons(other))
    assert not any(d.startswith("rqb:") for d in _data(other))


async def test_a_gm_sending_a_group_command_in_private_is_told_their_game(
    running: Harness,
) -> None:
    """A first session: the GM of a running game sent /request in our private chat and was
    told «Чтобы начать игру, добавьте меня в группу и отправьте там /newgame». The answer
    names the game they run instead; someone with no game still learns how to start one."""
    await _fate_table(running)
    answer = await send_and_answer(running, GM, "/request", chat_id=GM)
    assert answer.text == (
        "Команда /request работает в группе, где идёт игра: отправьте её туда. "
        "Ваши игры: «Кампания»."
    )
    answer = await send_and_answer(running, GM, "/milestone", chat_id=GM)
    assert "«Кампания»" in answer.text and "/newgame" not in answer.text
    answer = await send_and_answer(running, BOB, "/request", chat_id=BOB)
    assert "/newgame" in answer.text and "Your games" not in answer.text


async def test_a_game_command_in_a_group_without_a_game_says_how_to_start_one(
    running: Harness,
) -> None:
    """A first session: in a group with no game yet /res said «В этом чате ещё нет игры.
    Начните её командой /newgame.», while /sheet and /history said «Команда /sheet здесь
    сейчас не работает». Every game command there says how to start a game."""
    seat_table(running)
    for command in ("/sheet", "/history Ира", "/res"):
        answer = await send_and_answer(running, GM, command)  # the GM reads Russian
        assert answer.text == "В этом чате ещё нет игры. Начните её командой /newgame.", (
            command,
            answer.text,
        )
