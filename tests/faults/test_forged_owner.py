"""A forged press never changes or redraws what it does not own (the emulator lets a test send
any button's data on any message, as a modified client can):

* read-only buttons (start screens, help, language, /log pages, sheet pages) pressed on a
  sealed /sroll card or a live tracker leave it as it was — the screen comes as a new message
  — and the seal can still be revealed;
* a roll request's 🎲 pressed anywhere but on its own card rolls nothing and redraws nothing;
* a request of an archived game is refused with a word;
* a GM's press on a player's request or multi-roll card asks first, and the card says who
  rolled;
* an old copy of a tracker re-posted by /tracker refuses its buttons; the new copy stays live.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import text

from engine.systems import fate, matter
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import cards_helpers as ch
from tests.trackers import cliche_helpers as clh
from tests.trackers import matter_helpers as mh
from tgemu import CallbackAnswer, ChatMessage


def _shown(h: Harness, message: ChatMessage | int) -> tuple[str, Any]:
    """What a chat member sees of the message now: its text and its keyboard."""
    now = tb.current(h, message)
    return now.html, now.reply_markup


async def _press(h: Harness, user: int, message: ChatMessage | int, data: str) -> CallbackAnswer:
    return await tb.press_data(h, user, message, data)


async def _gm_starts_private_chat(h: Harness) -> None:
    h.emu.send_text(GM, GM, "/start")
    await h.emu.wait_bot_message(GM)
    sql = "SELECT count(*) FROM users WHERE id = :id AND started_private"
    async with asyncio.timeout(tb.WAIT):
        while not await tb.scalar(h, sql, id=GM):
            await asyncio.sleep(0.01)


async def _sroll(h: Harness) -> ChatMessage:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, "/sroll 3d6: засада")
    return await h.emu.wait_bot_message(
        GROUP, contains="#", after=last.message_id if last else 0, timeout=tb.WAIT
    )


async def _request(h: Harness, spec: str = "3d6 vs 10", target: int = ALICE) -> ChatMessage:
    """A /request card for ``target`` (the GM replies to the player's message)."""
    emu = h.emu
    said = emu.send_text(target, GROUP, "Готова")
    sent = emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    card: ChatMessage = await emu.wait_for(
        lambda: next(
            (
                m
                for m in emu.bot_messages(GROUP)
                if m.message_id > sent.message_id
                and any(b.get("callback_data", "").startswith("rq:") for b in buttons(m))
            ),
            None,
        ),
        timeout=tb.WAIT,
    )
    await emu.wait_idle()  # the card's message id is stored once the update is done
    return card


async def _rolls(h: Harness) -> int:
    return int(await tb.scalar(h, "SELECT count(*) FROM rolls"))


async def _matter_table(h: Harness) -> int:
    seat_table(h)
    await create_game(h, "matter", "Пепел")
    asya = matter.new_character("Ася")
    await tb.insert_character(h, "matter", matter.new_character("Гоблин"), owner=None, npc=True)
    return await tb.insert_character(h, "matter", asya, owner=ALICE)


# --- read-only buttons ---------------------------------------------------------------------------


async def test_read_only_presses_leave_a_sealed_card_and_a_tracker_alone(
    running: Harness,
) -> None:
    h = running
    character = await _matter_table(h)
    await _gm_starts_private_chat(h)
    seal = await _sroll(h)
    tracker = await mh.open_scene(h)
    card = await _request(h)
    request_data = tb.button_data(card, "rq:")
    reveal = tb.button_data(seal, "")
    read_only = ("scr:home", "scr:help", "scr:lang", "log:0", f"shp:{character}:0", "lang:en")
    for target in (seal, tracker):
        before = _shown(h, target)
        version = (await tb.tracker_row(h))["version"]
        for user in (GM, ALICE):
            for data in (*read_only, request_data):
                sent = len(h.emu.bot_messages(GROUP))
                answer = await _press(h, user, target, data)
                assert _shown(h, target) == before, (user, data)
                if data.startswith(("scr:home", "scr:help", "log:", "shp:")):
                    # the screen the button asks for comes as a new message
                    assert len(h.emu.bot_messages(GROUP)) == sent + 1, data
                if data == request_data:
                    assert answer.show_alert and answer.text
        assert (await tb.tracker_row(h))["version"] == version
    # Nothing was rolled for the request; the seal still reveals; the tracker still works.
    assert await tb.scalar(h, "SELECT status FROM roll_requests") == "pending"
    answer = await _press(h, GM, seal, reveal)
    assert not answer.show_alert
    revealed = tb.current(h, seal)
    assert revealed.edits == 1 and not revealed.has_keyboard and "засада" in revealed.text
    answer = await _press(h, GM, tracker, tb.labelled_data(tb.current(h, tracker), "Гоблин"))
    assert not answer.show_alert, answer.text
    assert (await tb.tracker_row(h))["version"] == version + 1
    # The player's own press on her card rolls, with no question.
    sent = len(h.emu.bot_messages(GROUP))
    answer = await _press(h, ALICE, card, request_data)
    assert not answer.show_alert, answer.text
    assert await tb.scalar(h, "SELECT status FROM roll_requests") == "rolled"
    assert len(h.emu.bot_messages(GROUP)) == sent and "Alice rolled" in tb.current(h, card).text
    # A read-only button on its own screen still redraws it in place.
    start = await tb.send_and_answer(h, ALICE, "/start")
    sent = len(h.emu.bot_messages(GROUP))
    await _press(h, ALICE, start, "scr:help")
    assert tb.current(h, start).edits == 1 and "/newgame" in tb.current(h, start).text
    assert len(h.emu.bot_messages(GROUP)) == sent


# --- requests ------------------------------------------------------------------------------------


async def test_a_request_of_an_archived_game_is_refused_with_a_word(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Хроники")
    card = await _request(h)
    before = _shown(h, card)
    gid = await tb.game_id(h)
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now() WHERE id = :g"), {"g": gid})
    answer = await _press(h, ALICE, card, tb.button_data(card, "rq:"))
    assert answer.show_alert and answer.text and "в архиве" in answer.text  # the group's
    assert _shown(h, card) == before
    assert await _rolls(h) == 0
    assert await tb.scalar(h, "SELECT status FROM roll_requests") == "pending"


async def test_a_gm_rolls_a_players_request_only_after_confirming(running: Harness) -> None:
    h = running
    seat_table(h)
    await create_game(h, "fate", "Хроники")
    card = await _request(h)
    before = _shown(h, card)
    data = tb.button_data(card, "rq:")

    async def ask() -> ChatMessage:
        sent = len(h.emu.bot_messages(GROUP))
        answer = await _press(h, GM, card, data)
        assert answer.text and "Бросить за игрока?" in answer.text
        assert len(h.emu.bot_messages(GROUP)) == sent + 1
        return h.emu.bot_messages(GROUP)[-1]

    question = await ask()
    assert "Бросить за игрока? (Alice)" in question.text
    assert _shown(h, card) == before and await _rolls(h) == 0
    confirm, drop = tb.button_data(question, "rqf:", "Да"), tb.button_data(question, "rqf:", "Не")
    # Only a GM answers it, and only on the question itself.
    assert (await _press(h, ALICE, question, confirm)).show_alert
    assert (await _press(h, GM, card, confirm)).show_alert
    assert _shown(h, card) == before and await _rolls(h) == 0
    # «Don't roll»: the question goes, nothing is rolled.
    await _press(h, GM, question, drop)
    assert tb.current(h, question).deleted and await _rolls(h) == 0

    question = await ask()
    answer = await _press(h, GM, question, tb.button_data(question, "rqf:", "Да"))
    assert not answer.show_alert, answer.text
    rolled = tb.current(h, card)
    assert await _rolls(h) == 1 and rolled.edits == 1
    assert "Бросок за игрока сделан мастером: Мастер" in rolled.text and "Alice" in rolled.text
    assert tb.current(h, question).deleted
    assert await tb.scalar(h, "SELECT status FROM roll_requests") == "rolled"


async def _fate_cards(h: Harness) -> None:
    await ch.start(h, "fate")
    await tb.insert_character(h, "fate", ch.fate_hero("Алиса", athletics=3), owner=ALICE)
    await tb.insert_character(h, "fate", ch.fate_hero("Боб", athletics=2), owner=BOB)


async def _storyteller_cards(h: Harness) -> None:
    await ch.start(h, "storyteller")
    hero = ch.st_hero("Алиса", {"dexterity": 3}, {"athletics": 2})
    await tb.insert_character(h, "storyteller", hero, owner=ALICE)


CARDS = [
    (_fate_cards, "/opposed Алиса: Атлетика | Боб: Атлетика"),
    (_fate_cards, "/team Алиса: Атлетика | Боб: Атлетика vs Хорошо"),
    (_storyteller_cards, "/extended Алиса: Ловкость+Атлетизм 6 до 5 за 6"),
]


@pytest.mark.parametrize(("setup", "line"), CARDS, ids=["opposed", "team", "extended"])
async def test_a_gm_rolls_a_players_card_slot_only_after_confirming(
    running: Harness, setup: Callable[[Harness], Awaitable[None]], line: str
) -> None:
    h = running
    await setup(h)
    card = await ch.command(h, line)
    before = _shown(h, card)
    alice = tb.button_data(card, "crd:", "Алиса")
    sent = len(h.emu.bot_messages(GROUP))
    answer = await _press(h, GM, card, alice)
    assert answer.text and "Бросить за игрока?" in answer.text
    assert _shown(h, card) == before and await _rolls(h) == 0
    assert len(h.emu.bot_messages(GROUP)) == sent + 1
    question = h.emu.bot_messages(GROUP)[-1]
    assert "Бросить за игрока? (Алиса)" in question.text
    confirm = tb.button_data(question, "cdf:", "Да")
    assert (await _press(h, ALICE, question, confirm)).show_alert
    assert (await _press(h, GM, card, confirm)).show_alert  # only on the question
    assert await _rolls(h) == 0
    answer = await _press(h, GM, question, confirm)
    assert not answer.show_alert and (answer.text or "").startswith("🎲"), answer.text
    await h.emu.wait_idle()
    assert await _rolls(h) == 1
    assert "сделан мастером: Мастер" in tb.current(h, card).text
    assert tb.current(h, question).deleted


# --- re-posted trackers ---------------------------------------------------------------------


async def _matter_next(h: Harness) -> tuple[ChatMessage, str]:
    """A matter scene under way: its «next turn» (mxn:)."""
    await _matter_table(h)
    tracker = await mh.open_scene(h)
    await mh.press(h, GM, tracker, "Гоблин")
    await mh.press(h, GM, tracker, "Начать")
    return tracker, tb.button_data(tb.current(h, tracker), "mxn:")


async def _cliche_roll(h: Harness) -> tuple[ChatMessage, str]:
    """A cliché fight under way: Alice's die (cfr:)."""
    await clh.table(h)
    await clh.insert(h, clh.hero("Alice", ("Солдат", 4)))
    await clh.insert(h, clh.hero("Орк", ("Драчун", 3)), npc=True)
    tracker = await clh.open_fight(h)
    await clh.face_off(h, tracker, "Alice", "Орк")
    await clh.press(h, GM, tracker, "cfg")
    return tracker, clh.find(h, tracker, "cfr", "Alice")


async def _first_button(
    h: Harness, system: str, line: str, prefix: str
) -> tuple[ChatMessage, str]:
    """A tracker just opened (after one character is seated): its first button."""
    seat_table(h)
    await create_game(h, system, "Кампания")
    if system == "fate":
        await tb.insert_character(h, "fate", fate.new_character("Алиса"), owner=ALICE)
    if system == "storyteller":
        hero = ch.st_hero("Алиса", {"dexterity": 3}, {"athletics": 2})
        await tb.insert_character(h, "storyteller", hero, owner=ALICE)
    tracker = await tb.send_for_buttons(h, GM, line, prefix)
    return tracker, str(buttons(tracker)[0]["callback_data"])


async def _fate(h: Harness) -> tuple[ChatMessage, str]:
    return await _first_button(h, "fate", "/conflict Склад: Темно", "fz")


async def _storyteller(h: Harness) -> tuple[ChatMessage, str]:
    return await _first_button(h, "storyteller", "/scene", "zt")


async def _lifegear(h: Harness) -> tuple[ChatMessage, str]:
    return await _first_button(h, "lifegear", "/fight Тролль 12", "lg")


TRACKERS = {
    "matter_next": _matter_next,
    "cliche_roll": _cliche_roll,
    "fate": _fate,
    "storyteller": _storyteller,
    "lifegear": _lifegear,
}


@pytest.mark.parametrize("kind", list(TRACKERS))
async def test_an_old_copy_of_a_reposted_tracker_refuses_its_buttons(
    running: Harness, kind: str
) -> None:
    h = running
    old, data = await TRACKERS[kind](h)
    await h.emu.wait_idle()
    new = await tb.send_for_buttons(h, GM, "/tracker", data.split(":")[0] + ":")
    await h.emu.wait_idle()
    moved, live = _shown(h, old), _shown(h, new)
    assert "Перенесено ниже" in tb.current(h, old).text
    row = await tb.tracker_row(h)
    rolls = await _rolls(h)
    for user in (GM, ALICE):
        answer = await _press(h, user, old, data)
        assert answer.show_alert and answer.text
    assert _shown(h, old) == moved and _shown(h, new) == live
    after = await tb.tracker_row(h)
    assert (after["version"], after["state"]) == (row["version"], row["state"])
    assert await _rolls(h) == rolls
    # The new copy is the live one: the same button works there.
    user = ALICE if kind == "cliche_roll" else GM
    answer = await _press(h, user, new, data)
    assert not answer.show_alert, answer.text
    assert (await tb.tracker_row(h))["version"] == row["version"] + 1
