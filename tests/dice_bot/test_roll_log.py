"""/roll, /log, /reveal, /verify and /odds over the emulator, and the log's guarantees in SQL."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import rolls as roll_service
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.dice.evaluator import roll
from engine.dice.hmac_source import HmacSource, commitment
from engine.dice.log import loads
from engine.dice.odds import fate_check
from engine.dice.verify import verify_export
from handlers.views.dice import percent
from tests.conftest import Harness

GM, ALICE = 1000, 1001
GROUP = -100500


def _setup(h: Harness) -> None:
    h.emu.add_user(GM, "Мастер", language_code="ru")
    h.emu.add_user(ALICE, "Alice", language_code="en")
    h.emu.add_group(GROUP, "Table", members=[GM, ALICE], creator=GM)


async def _count(engine: AsyncEngine, sql: str) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text(sql))).scalar_one())


async def test_roll_posts_commitment_then_result_with_log_number(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    emu.send_text(ALICE, GROUP, "/r 2d6+1 атака")
    committed = await emu.wait_bot_message(GROUP, contains="🔒")
    # one plain line for the table; the commitment itself is behind /log
    assert "/log" in committed.text and not re.search(r"[0-9a-f]{16}", committed.text)
    result = await emu.wait_bot_message(GROUP, contains="Log #1", after=committed.message_id)
    assert "атака" in result.text and "2d6+1" in result.text
    said = emu.send_text(ALICE, GROUP, "/log")
    log = await emu.wait_bot_message(GROUP, contains="Seed epoch 1", after=said.message_id)
    seed_hex = re.search(r"[0-9a-f]{64}", log.text)
    assert seed_hex is not None
    async with running.engine.connect() as conn:
        row = (await conn.execute(text("SELECT seed, commitment FROM seed_epochs"))).one()
        entry = (await conn.execute(text("SELECT faces, result, hash FROM rolls"))).one()
    assert seed_hex.group(0) == row.commitment == commitment(bytes(row.seed))
    # The dice are the HMAC of the seed and the roll id: recompute them independently.
    again = roll("2d6+1", HmacSource(bytes(row.seed), f"msg:{GROUP}:1"))
    assert list(again.faces) == entry.faces and again.total == entry.result
    assert entry.hash[:8] in result.text


async def test_bad_notation_is_explained_and_logs_nothing(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    for bad in ("/r 1001d6", "/r 2d6+", "/r d0"):
        emu.send_text(ALICE, GROUP, bad)
    await emu.wait_for(lambda: len(emu.bot_messages(GROUP)) >= 3)
    texts = [m.text for m in emu.bot_messages(GROUP)]
    assert all(t and "Traceback" not in t for t in texts)
    assert await _count(running.engine, "SELECT count(*) FROM rolls") == 0


async def test_a_label_longer_than_the_log_keeps_is_clipped_not_a_failure(
    running: Harness,
) -> None:
    """A comment of 400 letters after the dice fits the notation's limit but not the log's
    label column: the roll is made, its label cut with «…» (it failed with «Sorry, something
    went wrong»), and a redelivery replays the same entry."""
    _setup(running)
    emu = running.emu
    sent = emu.send_text(ALICE, GROUP, "/r 1d20 " + "a" * 400)
    result = await emu.wait_bot_message(GROUP, contains="Log #1")
    assert "a" * 50 in result.text and "went wrong" not in result.text
    emu.redeliver(sent.update_id)
    await emu.wait_idle()
    async with running.engine.connect() as conn:
        labels = (await conn.execute(text("SELECT label FROM rolls"))).scalars().all()
    assert len(labels) == 1 and len(labels[0]) == roll_service.LABEL_MAX
    assert labels[0].endswith("…")


async def test_a_redelivered_roll_is_not_rolled_again(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    sent = emu.send_text(ALICE, GROUP, "/r 4dF+2")
    await emu.wait_bot_message(GROUP, contains="Log #1")
    emu.redeliver(sent.update_id)
    await emu.wait_idle()
    assert await _count(running.engine, "SELECT count(*) FROM rolls") == 1
    assert sum("Log #" in m.text for m in emu.bot_messages(GROUP)) == 1


async def test_the_same_roll_id_always_gives_the_first_result(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)

    async def once() -> tuple[tuple[int, ...], bool]:
        async with UnitOfWork(factory) as uow:
            logged = await roll_service.roll_logged(
                uow, chat_id=7, roll_id="req:1", text="3d6", actor="a", subject="a",
                actor_user_id=None,
            )  # fmt: skip
            return logged.entry.faces, logged.duplicate

    results = await asyncio.gather(*(once() for _ in range(20)))
    assert len({faces for faces, _ in results}) == 1
    assert sorted(dup for _, dup in results) == [False] + [True] * 19
    assert await _count(clean_db, "SELECT count(*) FROM rolls") == 1


async def test_concurrent_rolls_chain_without_gaps(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)

    async def one(i: int) -> None:
        async with UnitOfWork(factory) as uow:
            await roll_service.roll_logged(
                uow, chat_id=9, roll_id=f"r{i}", text="1d20", actor="a", subject="a",
                actor_user_id=None,
            )  # fmt: skip

    await asyncio.gather(*(one(i) for i in range(25)))
    async with UnitOfWork(factory) as uow:
        exported = await roll_service.export(uow, 9)
    assert exported is not None
    assert [e.seq for e in exported.entries] == list(range(1, 26))
    assert verify_export(exported).ok


async def test_the_database_refuses_to_edit_or_delete_a_roll(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        await roll_service.roll_logged(
            uow, chat_id=5, roll_id="x", text="1d6", actor="a", subject="a", actor_user_id=None
        )
    for statement in ("UPDATE rolls SET result = 6", "DELETE FROM rolls"):
        with pytest.raises(DBAPIError, match="append-only"):
            async with clean_db.begin() as conn:
                await conn.execute(text(statement))
    assert await _count(clean_db, "SELECT count(*) FROM rolls") == 1


async def test_log_pages_with_buttons(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    for i in range(12):
        emu.send_text(ALICE, ALICE, f"/r 1d{i + 2}")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(ALICE)) == 12,
                       timeout=30)  # fmt: skip
    emu.send_text(ALICE, ALICE, "/log")
    page = await emu.wait_bot_message(ALICE, contains="Roll log")
    assert "#12" in page.text and "#3" in page.text and "#2 " not in page.text
    pressed = emu.press_button(ALICE, ALICE, page.message_id, 0)
    await emu.wait_callback_answer(pressed.callback_query_id)
    older = await emu.wait_for(lambda: (m := emu.last_bot_message(ALICE)) and m.edits == 1 and m)
    assert "#2 " in older.text and "#1 " in older.text and "page 2 of 2" in older.text


async def test_export_reveal_and_verify(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    for expr in ("4dF+2", "7d10>=6f1", "5d10>=7!"):
        emu.send_text(ALICE, GROUP, f"/r {expr}")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) == 3)

    emu.send_text(ALICE, GROUP, "/reveal")
    refused = await emu.wait_bot_message(GROUP, contains="admins")
    emu.send_text(GM, GROUP, "/reveal")
    revealed = await emu.wait_bot_message(GROUP, contains="закрыта", after=refused.message_id)
    assert "эпоха зерна 2" in revealed.text.lower()

    emu.send_text(GM, GROUP, "/log export")
    doc_msg = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if m.document), None)
    )
    exported = loads(doc_msg.document.data)  # type: ignore[union-attr]
    report = verify_export(exported)
    assert report.ok and report.recomputed == 3
    assert json.loads(doc_msg.document.data)["epochs"][1]["seed"] is None  # type: ignore[union-attr]

    emu.send_text(ALICE, GROUP, "/verify")
    verdict = await emu.wait_bot_message(GROUP, contains="✅")
    assert "3" in verdict.text


async def test_odds_match_the_engine(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    emu.send_text(ALICE, ALICE, "/odds 4dF+2 vs 3")
    reply = await emu.wait_bot_message(ALICE)
    expected = fate_check(2, 3)  # outside a game a total at or above the target succeeds
    assert f"success: {percent(1 - expected.fail)}" in reply.text
    assert f"failure: {percent(expected.fail)}" in reply.text
    emu.send_text(ALICE, ALICE, "/odds 5d10>=7!")
    pool = await emu.wait_bot_message(ALICE, after=reply.message_id)
    assert "successes: 1 or more" in pool.text


async def test_verify_an_uploaded_export_and_catch_a_forgery(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    for expr in ("3d6", "1d20+2", "4dF"):
        emu.send_text(ALICE, GROUP, f"/r {expr}")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) == 3)
    emu.send_text(GM, GROUP, "/reveal")
    await emu.wait_bot_message(GROUP, contains="закрыта")
    emu.send_text(GM, GROUP, "/log export")
    exported = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if m.document), None)
    )
    content = exported.document.data  # type: ignore[union-attr]

    emu.send_document(ALICE, ALICE, "roll-log.json", content, caption="/verify")
    good = await emu.wait_bot_message(ALICE)
    assert good.text.startswith("✅") and "re-rolled from revealed seeds: 3" in good.text

    forged = json.loads(content)
    forged["entries"][1]["result"] += 1  # someone "improves" the second roll
    sent = emu.send_document(ALICE, ALICE, "forged.json", json.dumps(forged).encode())
    emu.send_text(ALICE, ALICE, "/verify", reply_to=sent.message_id)
    bad = await emu.wait_bot_message(ALICE, after=good.message_id)
    assert bad.text.startswith("❌") and "2" in bad.text

    emu.send_document(ALICE, ALICE, "junk.json", b"not json at all", caption="/verify")
    junk = await emu.wait_bot_message(ALICE, after=bad.message_id)
    assert "Traceback" not in junk.text and not junk.text.startswith("✅")


async def test_a_players_roll_costs_no_chat_member_lookup(running: Harness) -> None:
    # Admin checks ask Telegram; they must not run for every group message (pacing budget).
    _setup(running)
    emu = running.emu
    for _ in range(3):
        emu.send_text(ALICE, GROUP, "/r 1d6")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) == 3)
    assert [c for c in emu.calls if c.method == "getChatMember"] == []
