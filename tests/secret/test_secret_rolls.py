"""GM secret rolls end to end: /sroll seals a roll in the group, the GM alone sees it, the GM
reveals it with a button; the roll lives in the GM's private log and checks out there."""

from __future__ import annotations

import asyncio
import json

from sqlalchemy import text

from engine.dice.log import loads
from engine.dice.verify import verify_export
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import scalar
from tgemu import ChatMessage


async def _rolls_in(h: Harness, chat_id: int) -> int:
    sql = (
        "SELECT count(*) FROM rolls r JOIN roll_logs l ON l.id = r.log_id WHERE l.chat_id = :chat"
    )
    return int(str(await scalar(h, sql, chat=chat_id)))


async def _entry(h: Harness, roll_id: str) -> dict[str, object]:
    async with h.engine.connect() as conn:
        row = await conn.execute(
            text(
                "SELECT r.seq, r.hash, r.result, r.subject, l.chat_id FROM rolls r "
                "JOIN roll_logs l ON l.id = r.log_id WHERE r.roll_id = :id"
            ),
            {"id": roll_id},
        )
        return dict(row.mappings().one())


async def _gm_starts_private_chat(h: Harness) -> None:
    """The GM's /start in the private chat, and its commit: the bot replies before the update's
    transaction commits, so the reply alone does not mean the bot will know it."""
    h.emu.send_text(GM, GM, "/start")
    await h.emu.wait_bot_message(GM)
    sql = "SELECT count(*) FROM users WHERE id = :id AND started_private"
    async with asyncio.timeout(5):
        while not await scalar(h, sql, id=GM):
            await asyncio.sleep(0.01)


async def _table(h: Harness, *, gm_started: bool = True) -> None:
    seat_table(h)
    await create_game(h, "fate", "Тени")
    if gm_started:
        await _gm_starts_private_chat(h)


def _latest(h: Harness, chat_id: int) -> int:
    last = h.emu.last_bot_message(chat_id)
    return last.message_id if last else 0


async def _sroll(h: Harness, args: str) -> tuple[int, ChatMessage, ChatMessage]:
    """The GM's /sroll: (command message id, the GM's private result, the group's seal)."""
    emu = h.emu
    private_after, group_after = _latest(h, GM), _latest(h, GROUP)
    sent = emu.send_text(GM, GROUP, f"/sroll {args}")
    seal = await emu.wait_bot_message(GROUP, contains="#", after=group_after)
    private = await emu.wait_bot_message(GM, contains="🤫", after=private_after)
    return sent.message_id, private, seal


def _message(h: Harness, chat_id: int, message_id: int) -> ChatMessage:
    return next(m for m in h.emu.chat_messages(chat_id) if m.message_id == message_id)


async def _press(h: Harness, user: int, chat: int, message_id: int, data: str) -> object:
    pressed = h.emu.press(user, chat, message_id, data)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def test_sealed_in_the_group_private_to_the_gm_then_revealed(running: Harness) -> None:
    await _table(running)
    emu = running.emu
    command_id, private, seal = await _sroll(running, "3d6+2: стража замечает вора? <&>")
    entry = await _entry(running, f"secret:{GROUP}:{command_id}")
    short = str(entry["hash"])[:8]

    # The roll is in the GM's private log, not in the group's.
    assert entry["chat_id"] == GM and entry["subject"] == "стража замечает вора? <&>"
    assert await _rolls_in(running, GROUP) == 0
    # The group sees the note, the number and the hash — no dice, no total.
    assert "стража замечает вора? <&>" in seal.text and f"#{entry['seq']}" in seal.text
    assert short in seal.text and str(entry["result"]) not in seal.text.replace(short, "")
    assert "🔓" in buttons(seal)[0]["text"]
    # The GM sees everything privately: faces, total, log number, hash.
    assert f"<b>{entry['result']}</b>" in private.html and short in private.text
    assert f"#{entry['seq']}" in private.text and "3d6+2" in private.text
    # The command (which shows the expression) is gone from the group.
    assert _message(running, GROUP, command_id).deleted

    data = buttons(seal)[0]["callback_data"]
    answer = await _press(running, ALICE, GROUP, seal.message_id, data)
    assert answer.show_alert and answer.text  # type: ignore[attr-defined]
    assert _message(running, GROUP, seal.message_id).edits == 0

    answer = await _press(running, GM, GROUP, seal.message_id, data)
    assert not answer.show_alert  # type: ignore[attr-defined]
    card = _message(running, GROUP, seal.message_id)
    assert card.edits == 1 and not card.has_keyboard
    assert f"<b>{entry['result']}</b>" in card.html and short in card.text
    assert "стража замечает вора? <&>" in card.text and "3d6+2" in card.text

    again = await _press(running, GM, GROUP, seal.message_id, data)
    assert again.text and not again.show_alert  # type: ignore[attr-defined]
    assert again.text != answer.text  # type: ignore[attr-defined]
    assert _message(running, GROUP, seal.message_id).edits == 1

    # Players can check it: the GM exports the private log, reveals its seed, it verifies.
    emu.send_text(GM, GM, "/log export")
    exported = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GM) if m.document), None)
    )
    log = loads(exported.document.data)  # type: ignore[union-attr]
    (logged,) = [e for e in log.entries if e.roll_id == f"secret:{GROUP}:{command_id}"]
    assert logged.hash[:8] == short and logged.result == entry["result"]
    emu.send_text(GM, GM, "/reveal")
    revealed = await emu.wait_bot_message(GM, contains="🔓", after=exported.message_id)
    emu.send_text(GM, GM, "/log export")
    full = await emu.wait_for(
        lambda: next(
            (m for m in emu.bot_messages(GM) if m.document and m.message_id > revealed.message_id),
            None,
        )
    )
    report = verify_export(loads(full.document.data))  # type: ignore[union-attr]
    assert report.ok and report.recomputed == 1
    assert json.loads(full.document.data)["epochs"][0]["seed"]  # type: ignore[union-attr]


async def test_racing_reveal_presses_reveal_once(running: Harness) -> None:
    await _table(running)
    _, _, seal = await _sroll(running, "4dF+1")
    data = buttons(seal)[0]["callback_data"]
    presses = [running.emu.press(GM, GROUP, seal.message_id, data) for _ in range(8)]
    answers = await asyncio.gather(
        *(running.emu.wait_callback_answer(p.callback_query_id, timeout=15) for p in presses)
    )
    texts = [a.text for a in answers]
    assert len(set(texts)) == 2 and all(texts)
    assert min(texts.count(x) for x in set(texts)) == 1  # one "revealed", the rest "already"
    assert _message(running, GROUP, seal.message_id).edits == 1


async def test_only_the_gm_rolls_secretly(running: Harness) -> None:
    await _table(running)
    emu = running.emu
    after = _latest(running, GROUP)
    emu.send_text(ALICE, GROUP, "/sroll 1d20")
    refused = await emu.wait_bot_message(GROUP, after=after)
    # in the group's language (its GM's Russian), not Alice's English
    assert "мастер" in refused.text and "/r" in refused.text and not refused.has_keyboard
    emu.send_text(GM, GROUP, "/sroll")
    usage = await emu.wait_bot_message(GROUP, after=refused.message_id)
    assert "/sroll" in usage.text
    emu.send_text(GM, GROUP, "/sroll 1001d6: слишком много")
    bad = await emu.wait_bot_message(GROUP, after=usage.message_id)
    assert "1000" in bad.text
    emu.send_text(GM, GM, "/sroll 1d6")
    hint = await emu.wait_bot_message(GM, contains="/sroll")
    assert not hint.has_keyboard
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0

    other = -100900
    emu.add_group(other, "No game", members=[GM], creator=GM)
    emu.send_text(GM, other, "/sroll 1d6")
    assert "/newgame" in (await emu.wait_bot_message(other)).text
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_a_gm_without_a_private_chat_is_told_and_nothing_is_rolled(
    running: Harness,
) -> None:
    await _table(running, gm_started=False)
    emu = running.emu
    after = _latest(running, GROUP)
    emu.send_text(GM, GROUP, "/sroll 2d6: засада")
    told = await emu.wait_bot_message(GROUP, after=after)
    assert "/sroll" in told.text and any("url" in b for b in buttons(told))
    assert not any("callback_data" in b for b in buttons(told))
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    assert emu.bot_messages(GM) == []

    await _gm_starts_private_chat(running)
    command_id, _, seal = await _sroll(running, "2d6: засада")
    assert "засада" in seal.text and buttons(seal)
    assert (await _entry(running, f"secret:{GROUP}:{command_id}"))["chat_id"] == GM


async def test_a_gm_who_blocked_the_bot_gets_no_seal(running: Harness) -> None:
    await _table(running)
    emu = running.emu
    emu.block_bot(GM)
    after = _latest(running, GROUP)
    emu.send_text(GM, GROUP, "/sroll 1d20")
    told = await emu.wait_bot_message(GROUP, after=after)
    assert "/sroll" in told.text and not told.has_keyboard
    await emu.wait_idle()
    assert [m for m in emu.bot_messages(GROUP) if m.message_id > after] == [told]


async def test_forged_and_misplaced_presses_change_nothing(running: Harness) -> None:
    await _table(running)
    emu = running.emu
    first_cmd, _, first = await _sroll(running, "1d20: первый")
    _, _, second = await _sroll(running, "1d20: второй")
    first_data = buttons(first)[0]["callback_data"]
    for forged in ("srv:abc:1", f"srv:{GM}:999999", f"srv:{BOB}:{first_cmd}", "srv:", "srv"):
        answer = await _press(running, GM, GROUP, first.message_id, forged)
        assert answer.text and "Traceback" not in answer.text  # type: ignore[attr-defined]
    # the first roll's button pressed on the second seal: neither changes
    answer = await _press(running, GM, GROUP, second.message_id, first_data)
    assert answer.show_alert  # type: ignore[attr-defined]
    # a real roll's button pressed in another game's chat
    other = -100901
    emu.add_group(other, "Other table", members=[GM, ALICE], creator=GM)
    emu.send_text(GM, other, "/newgame Другая")
    picker = await emu.wait_bot_message(other, contains="FATE")
    answer = await _press(running, GM, other, picker.message_id, first_data)
    assert answer.show_alert  # type: ignore[attr-defined]
    for seal in (first, second):
        assert _message(running, GROUP, seal.message_id).edits == 0
    assert _message(running, other, picker.message_id).edits == 0


async def test_english_group_and_second_seal_numbers(running: Harness) -> None:
    await _table(running)
    async with running.engine.begin() as conn:
        await conn.execute(text("UPDATE chats SET locale = 'en' WHERE id = :c"), {"c": GROUP})
    _, _, one = await _sroll(running, "2d6")
    _, _, two = await _sroll(running, "2d6 perception")
    assert "The GM rolled secretly — sealed #1" in one.text
    assert "The GM rolled secretly (perception) — sealed #2" in two.text
    answer = await _press(running, GM, GROUP, two.message_id, buttons(two)[0]["callback_data"])
    assert answer.text == "Revealed."  # type: ignore[attr-defined]  # the chat speaks English
    card = _message(running, GROUP, two.message_id)
    assert "secret roll (perception) — sealed #2, revealed" in card.text


async def test_a_huge_roll_with_a_long_note_still_fits(running: Harness) -> None:
    await _table(running)
    note = "<&>\"' " * 40  # escapes grow it; the note is capped at 128 characters
    command_id, private, seal = await _sroll(running, f"999d10>=6f1: {note}")
    data = buttons(seal)[0]["callback_data"]
    answer = await _press(running, GM, GROUP, seal.message_id, data)
    assert not answer.show_alert  # type: ignore[attr-defined]
    card = _message(running, GROUP, seal.message_id)
    assert card.edits == 1 and len(card.text) <= 4096 and len(private.text) <= 4096
    entry = await _entry(running, f"secret:{GROUP}:{command_id}")
    assert len(str(entry["subject"])) == 128 and str(entry["hash"])[:8] in card.text
