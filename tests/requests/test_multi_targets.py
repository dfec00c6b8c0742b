"""One /request for several players: @mentions or ``all``; one card each, each rolled only by
its own player; bad input posts nothing."""

from __future__ import annotations

from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game
from tests.helpers.table import insert_character, scalar

ANNA, BORIS, CLARA = 1101, 1102, 1103


def _seat(h: Harness) -> None:
    h.emu.add_user(GM, "Мастер", language_code="ru")
    h.emu.add_user(ANNA, "Anna", username="anna_p", language_code="en")
    h.emu.add_user(BORIS, "Boris", username="boris_p", language_code="en")
    h.emu.add_user(CLARA, "Clara", username="clara_p", language_code="en")
    h.emu.add_group(GROUP, "Table", members=[GM, ANNA, BORIS, CLARA], creator=GM)


async def _count(h: Harness, sql: str) -> int:
    return int(await scalar(h, sql))


async def _say_hello(h: Harness, *users: int) -> None:
    """Players the bot has seen (a username is only known once its owner wrote here)."""
    for uid in users:
        sent = h.emu.send_text(uid, GROUP, "/r 1d6")
        await h.emu.wait_bot_message(
            GROUP, contains="№", after=sent.message_id
        )  # the group speaks Russian


async def _cards(h: Harness, command: str, count: int) -> list[object]:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, command)
    await h.emu.wait_for(
        lambda: (
            len([m for m in h.emu.bot_messages(GROUP) if m.message_id > last.message_id]) >= count
        )  # type: ignore[union-attr]
    )
    await h.emu.wait_idle()
    return [m for m in h.emu.bot_messages(GROUP) if m.message_id > last.message_id]  # type: ignore[union-attr]


async def test_mentioned_players_each_get_their_own_card(running: Harness) -> None:
    _seat(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    await _say_hello(running, ANNA, BORIS)
    cards = await _cards(running, "/request @anna_p @boris_p @nobody_here 4dF+2 vs 2", 2)
    assert len(cards) == 2  # the unknown username is left out
    assert "Anna" in cards[0].text and "Boris" in cards[1].text  # type: ignore[attr-defined]
    anna_card, boris_card = cards
    data = buttons(anna_card)[0]["callback_data"]  # type: ignore[arg-type]
    pressed = emu.press(BORIS, GROUP, anna_card.message_id, data)  # type: ignore[attr-defined]
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    pressed = emu.press(ANNA, GROUP, anna_card.message_id, data)  # type: ignore[attr-defined]
    await emu.wait_callback_answer(pressed.callback_query_id)
    data = buttons(boris_card)[0]["callback_data"]  # type: ignore[arg-type]
    pressed = emu.press(BORIS, GROUP, boris_card.message_id, data)  # type: ignore[attr-defined]
    await emu.wait_callback_answer(pressed.callback_query_id)
    assert await _count(running, "SELECT count(*) FROM roll_requests") == 2
    assert await _count(running, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'req:%'") == 2
    owners = await _count(
        running,
        f"SELECT count(DISTINCT target_user_id) FROM roll_requests "
        f"WHERE target_user_id IN ({ANNA}, {BORIS}) AND status = 'rolled'",
    )
    assert owners == 2


async def test_all_means_every_player_with_a_character(running: Harness) -> None:
    _seat(running)
    await create_game(running, "fate", "Хроники")
    for uid, name in ((ANNA, "Аня"), (CLARA, "Клара")):  # Boris has no character
        await insert_character(running, "fate", fate.new_character(name), owner=uid)
    cards = await _cards(running, "/request all 4dF vs 1: прислушаться", 2)
    assert len(cards) == 2 and all("прислушаться" in c.text for c in cards)  # type: ignore[attr-defined]
    targets = await _count(
        running, f"SELECT count(*) FROM roll_requests WHERE target_user_id IN ({ANNA}, {CLARA})"
    )
    assert targets == 2 and await _count(running, "SELECT count(*) FROM roll_requests") == 2


async def test_bad_input_for_several_players_posts_nothing(running: Harness) -> None:
    _seat(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    await _say_hello(running, ANNA, BORIS)
    last = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, "/request @anna_p @boris_p 1001d6")
    refused = await emu.wait_bot_message(GROUP, after=last.message_id)  # type: ignore[union-attr]
    assert not buttons(refused)  # an error in words, not a card
    emu.send_text(GM, GROUP, "/request @anna_p @boris_p")
    usage = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert "/request" in usage.text and "@alice" in usage.text
    emu.send_text(GM, GROUP, "/request @nobody_here 2d6")
    unknown = await emu.wait_bot_message(GROUP, after=usage.message_id)
    assert "/request" in unknown.text
    assert await _count(running, "SELECT count(*) FROM roll_requests") == 0


async def test_a_characters_name_names_its_player(running: Harness) -> None:
    """Issue 36 item 3: a request target by character name (exact, or the one it starts)."""
    _seat(running)
    await create_game(running, "fate", "Хроники")
    await insert_character(running, "fate", fate.new_character("Вереск Тихая"), owner=ANNA)
    await insert_character(running, "fate", fate.new_character("Клара"), owner=CLARA)
    await _say_hello(running, ANNA)
    [card] = await _cards(running, "/request вереск 4dF+2 vs 2: прыжок", 1)
    assert "Anna" in card.text and "прыжок" in card.text  # type: ignore[attr-defined]
    [card] = await _cards(running, "/request Вереск Тихая 4dF vs 1", 1)
    assert "Anna" in card.text  # type: ignore[attr-defined]
    targets = await _count(
        running, f"SELECT count(*) FROM roll_requests WHERE target_user_id = {ANNA}"
    )
    assert targets == 2


async def test_only_unknown_names_say_so_not_the_usage(running: Harness) -> None:
    """«/request @dave Атлетика» for a @name the bot never saw answered with the usage, as if
    the command were miswritten: it names whom it does not know and how it learns them."""
    _seat(running)
    await create_game(running, "fate", "Хроники")
    (said,) = await _cards(running, "/request @nobody_here 4dF+2 vs 2", 1)
    assert "@nobody_here" in said.text and "напишет в этом чате" in said.text  # type: ignore[attr-defined]
    assert await _count(running, "SELECT count(*) FROM roll_requests") == 0
