"""GM roll requests: a card only the named player (or a GM) can roll, exactly once."""

from __future__ import annotations

import asyncio

from engine.dice.odds import distribution
from handlers.views.dice import percent
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import scalar


async def _card(h: Harness, spec: str, target: int = ALICE) -> object:
    emu = h.emu
    said = emu.send_text(target, GROUP, "Я готова")
    last = emu.last_bot_message(GROUP)
    emu.send_text(GM, GROUP, f"/request {spec}", reply_to=said.message_id)
    return await emu.wait_bot_message(GROUP, contains="🎲", after=last.message_id if last else 0)


async def test_card_shows_exact_odds_and_only_the_player_rolls_once(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "fate", "Хроники")
    card = await _card(running, "3d6+2 vs 12: взлом замка")
    # a fate game reads any roll by its ladder: a success is one shift or more (seed 000)
    expected = "успех " + percent(distribution("3d6+2").p_at_least(13), "ru")
    assert expected in card.text and "взлом замка" in card.text  # type: ignore[attr-defined]
    data = buttons(card)[0]["callback_data"]  # type: ignore[arg-type]

    pressed = emu.press(BOB, GROUP, card.message_id, data)  # type: ignore[attr-defined]
    refused = await emu.wait_callback_answer(pressed.callback_query_id)
    assert refused.show_alert and refused.text
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0

    presses = [emu.press(ALICE, GROUP, card.message_id, data) for _ in range(50)]  # type: ignore[attr-defined]
    answers = await asyncio.gather(
        *(emu.wait_callback_answer(p.callback_query_id, timeout=30) for p in presses)
    )
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1
    assert await scalar(running, "SELECT count(*) FROM roll_requests WHERE status = 'rolled'") == 1
    # Every other press is told it already rolled (issue 36 item 8: no refusal is silent), in
    # the group's language: a press's answer speaks as the card it is about.
    rolled = sum(1 for a in answers if a.text == "Уже брошено.")
    assert rolled == 49, [a.text for a in answers]
    result = next(m for m in emu.bot_messages(GROUP) if m.message_id == card.message_id)  # type: ignore[attr-defined]
    # One language per group: the Russian GM's card stays Russian when Alice, who reads
    # English, rolls it (it turned English, and back at the GM's next press).
    assert result.edits == 1 and "№1" in result.text and "сдвигов:" in result.text
    assert "shifts:" not in result.text and "Log #" not in result.text

    # The GM sets the group's language: from now on it is English, whoever writes or presses.
    emu.send_text(GM, GROUP, "/lang en")
    assert (await emu.wait_bot_message(GROUP, after=result.message_id)).text == (
        "Language set: English."
    )
    card = await _card(running, "3d6+2 vs 12: взлом замка")
    assert "success " + percent(distribution("3d6+2").p_at_least(13)) in card.text  # type: ignore[attr-defined]


async def test_forged_presses_change_nothing(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "matter", "Пепел")
    card = await _card(running, "5d10>=7!")
    for forged in ("rq:999999", "rq:-1", "rq:abc", "rq:", "garbage"):
        pressed = emu.press(ALICE, GROUP, card.message_id, forged)  # type: ignore[attr-defined]
        answer = await emu.wait_callback_answer(pressed.callback_query_id)
        assert answer.text and "Traceback" not in answer.text
    # a request of another chat pressed here
    other = -100777
    emu.add_group(other, "Other", members=[GM, ALICE], creator=GM)
    data = buttons(card)[0]["callback_data"]  # type: ignore[arg-type]
    sent = emu.send_text(GM, other, "/r 1d6")
    await emu.wait_bot_message(other)
    pressed = emu.press(ALICE, other, sent.message_id, data)
    assert (await emu.wait_callback_answer(pressed.callback_query_id)).show_alert
    assert await scalar(running, "SELECT count(*) FROM rolls WHERE roll_id LIKE 'req:%'") == 0


async def test_only_the_gm_requests_and_a_reply_is_needed(running: Harness) -> None:
    seat_table(running)
    emu = running.emu
    await create_game(running, "cliche", "Серенити")
    said = emu.send_text(ALICE, GROUP, "hi")
    last = emu.last_bot_message(GROUP)
    emu.send_text(BOB, GROUP, "/request 3d6", reply_to=said.message_id)
    refused = await emu.wait_bot_message(GROUP, after=last.message_id)  # type: ignore[union-attr]
    assert refused.text == "Это может только мастер."  # the group's language, not Bob's
    emu.send_text(GM, GROUP, "/request 3d6")
    usage = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert "/request" in usage.text
    emu.send_text(GM, GROUP, "/request 1001d6", reply_to=said.message_id)
    bad = await emu.wait_bot_message(GROUP, after=usage.message_id)
    assert "1000" in bad.text
    assert await scalar(running, "SELECT count(*) FROM roll_requests") == 0
