"""/verify of an uploaded file over the emulator: bounded work off the event loop, the verdict
held against the log the bot keeps, format errors escaped and short; /odds off the loop too."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot.services import rolls as roll_service
from bot.services import verify as verify_service
from bot.services.verify import LIMITS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.dice.hmac_source import commitment
from engine.dice.log import (
    EpochRecord,
    LogEntry,
    RollLogExport,
    entry_hash,
    loads,
    new_entry,
    record_roll,
)
from engine.dice.verify import VerifyLimits
from tests.conftest import Harness

GM, ALICE, BOB, CAROL = 1000, 1001, 1002, 1003
GROUP, OTHER = -100500, -100600
SEED = bytes.fromhex("42" * 32)
OFFLINE = "python -m engine.verify"


def _setup(h: Harness) -> None:
    h.emu.add_user(GM, "Мастер", language_code="ru")
    h.emu.add_user(ALICE, "Alice", language_code="en")
    h.emu.add_user(BOB, "Bob", language_code="en")
    h.emu.add_user(CAROL, "Carol", language_code="en")
    h.emu.add_group(GROUP, "Table", members=[GM, ALICE], creator=GM)
    h.emu.add_group(OTHER, "Other table", members=[BOB], creator=BOB)


def _chain(expressions: list[str], *, game: str) -> RollLogExport:
    """A log in an epoch whose seed the uploader chose (revealed in the file), its faces left
    empty: cheap to build, and the verifier still re-rolls every entry."""
    entries: list[LogEntry] = []
    prev = None
    for i, expression in enumerate(expressions):
        entry = new_entry(
            prev, roll_id=f"fake:{i}", epoch=1, actor="Alice", subject="Alice",
            expression=expression, faces=[], result=0,
            created_at=f"2026-12-01T10:00:{i % 60:02d}+00:00",
        )  # fmt: skip
        entries.append(entry)
        prev = entry
    epochs = (EpochRecord(1, commitment(SEED), SEED.hex()),)
    return RollLogExport(game, epochs, tuple(entries))


def _rehash(entry: LogEntry) -> LogEntry:
    return replace(entry, hash=entry_hash(entry.prev_hash, entry))


def _rechain(entries: list[LogEntry]) -> list[LogEntry]:
    """Recompute every hash after an edit, as a forger who knows the format would."""
    out: list[LogEntry] = []
    for entry in entries:
        prev_hash = out[-1].hash if out else entry.prev_hash
        out.append(_rehash(replace(entry, prev_hash=prev_hash)))
    return out


async def _export(h: Harness, rolls: int, *, reveal: bool) -> bytes:
    emu = h.emu
    for i in range(rolls):
        emu.send_text(ALICE, GROUP, f"/r 1d{i + 6}")
    await emu.wait_for(lambda: sum("Log #" in m.text for m in emu.bot_messages(GROUP)) == rolls)
    if reveal:
        emu.send_text(GM, GROUP, "/reveal")
        await emu.wait_bot_message(GROUP, contains="закрыта")
    emu.send_text(GM, GROUP, "/log export")
    doc = await emu.wait_for(
        lambda: next((m for m in emu.bot_messages(GROUP) if m.document), None)
    )
    return doc.document.data  # type: ignore[union-attr]


async def _upload(h: Harness, user: int, chat: int, content: bytes, timeout: float = 10.0) -> str:
    before = h.emu.last_bot_message(chat)
    h.emu.send_document(user, chat, "roll-log.json", content, caption="/verify")
    after = before.message_id if before else 0
    reply = await h.emu.wait_bot_message(chat, after=after, timeout=timeout)
    return reply.text


async def test_a_seq_gap_of_ten_trillion_is_answered_at_once(running: Harness) -> None:
    _setup(running)
    log = _chain(["1d6", "1d6"], game="chat:777")
    jump = replace(log.entries[1], seq=10**13)  # the old verifier walked every number between
    content = replace(log, entries=(log.entries[0], _rehash(jump))).dumps().encode()
    text = await _upload(running, ALICE, ALICE, content)
    assert text.startswith("❌")
    assert "Entries #2–9999999999999 are missing before entry #10000000000000" in text


async def test_an_upload_past_the_limits_gets_the_offline_command(running: Harness) -> None:
    _setup(running)
    # 7,000 rolls of 1000d1000 in an epoch whose seed the uploader chose: 7 million dice.
    content = _chain(["1000d1000"] * 7000, game="chat:777").dumps().encode()
    assert len(content) < verify_service.MAX_EXPORT_BYTES
    text = await _upload(running, ALICE, ALICE, content)
    assert "Too large to verify here" in text and OFFLINE in text
    assert f"7000000 dice to recompute, at most {LIMITS.dice}" in text


async def test_other_chats_are_answered_while_the_largest_upload_is_verified(
    running: Harness,
) -> None:
    _setup(running)
    emu = running.emu
    # Within every limit: 190,000 dice in 190 rolls, plus 9,800 small rolls to chain-check.
    heavy = 190 * ["1000d1000"] + 9800 * ["1d6"]
    content = _chain(heavy, game="chat:777").dumps().encode()
    emu.send_document(ALICE, ALICE, "roll-log.json", content, caption="/verify")
    # The bot has the file once it asked for it: on the old code it then verified it on the
    # event loop, and nothing else was answered until it was done.
    await emu.wait_for(lambda: any(c.method == "getFile" for c in emu.calls))
    emu.send_text(BOB, BOB, "/help")
    emu.send_text(BOB, OTHER, "/r 2d6")
    helped = await emu.wait_bot_message(BOB, timeout=30)
    rolled = await emu.wait_bot_message(OTHER, contains="Log #1", timeout=30)
    verdict = await emu.wait_bot_message(ALICE, timeout=60)
    assert (
        "differ from the recomputed" in verdict.text
    )  # verified (its faces were left out), not refused
    assert helped.sent_at < verdict.sent_at and rolled.sent_at < verdict.sent_at


async def test_an_honest_export_is_this_chats_log(running: Harness) -> None:
    _setup(running)
    content = await _export(running, 3, reveal=True)
    text = await _upload(running, ALICE, ALICE, content)
    assert text.startswith("✅ The file is the roll log exactly as the bot keeps it.")
    assert "Matches the chat's log up to entry #3." in text
    assert "Rolls re-rolled from revealed seeds: 3." in text
    # the file the server built is the log as the repository reads it
    async with UnitOfWork(create_session_factory(running.engine)) as uow:
        assert loads(content) == await roll_service.export(uow, GROUP)
    # /verify of the chat's own log, now run by the worker too
    running.emu.send_text(ALICE, GROUP, "/verify")
    own = await running.emu.wait_bot_message(GROUP, contains="✅")
    assert "3" in own.text


async def test_doctored_files_never_get_the_tick(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    content = await _export(running, 3, reveal=False)  # the epoch's seed is still secret
    honest = loads(content)

    # The bot's own export with the last entry dropped.
    cut = replace(honest, entries=honest.entries[:-1]).dumps().encode()
    text = await _upload(running, ALICE, ALICE, cut)
    assert "✅" not in text and text.startswith("⚠️")
    assert "Matches the chat's log up to entry #2." in text
    assert "past the end of the file: entries #3" in text
    assert "unproven until /reveal" in text

    # The first result changed and the chain recomputed while the epoch is secret.
    first = replace(honest.entries[0], result=honest.entries[0].result + 5)
    forged = replace(honest, entries=tuple(_rechain([first, *honest.entries[1:]])))
    text = await _upload(running, ALICE, ALICE, forged.dumps().encode())
    assert "✅" not in text and text.startswith("❌")
    assert "Entry #1 of the file differs from the chat's log" in text
    assert "cannot be re-rolled: their results are unproven until /reveal" in text

    # A log made up from scratch, claiming this very chat, consistent in itself.
    made_up = _chain(["1d20", "1d20"], game=f"chat:{GROUP}")
    made_up = replace(made_up, entries=tuple(_recomputed(made_up)))
    emu.send_document(ALICE, GROUP, "roll-log.json", made_up.dumps().encode(), caption="/verify")
    reply = await emu.wait_bot_message(GROUP, contains="Compared with this chat's roll log")
    assert "✅" not in reply.text and reply.text.startswith("❌")
    assert "Entry #1 of the file differs" in reply.text

    # The same file for a chat its sender is not in: not compared, and said so.
    text = await _upload(running, CAROL, CAROL, made_up.dumps().encode())
    assert "✅" not in text and text.startswith("⚠️")
    assert "names a chat you are not in" in text
    assert "A file alone cannot show that entries were cut off the end." in text


def _recomputed(log: RollLogExport) -> list[LogEntry]:
    """The made-up log's dice as its own seed gives them: it then checks out in itself."""
    out: list[LogEntry] = []
    for entry in log.entries:
        made, _ = record_roll(
            out[-1] if out else None, seed=SEED, roll_id=entry.roll_id, epoch=1,
            actor=entry.actor, subject=entry.subject, expression=entry.expression,
            created_at=entry.created_at,
        )  # fmt: skip
        out.append(made)
    return out


async def test_format_errors_are_escaped_and_short(running: Harness) -> None:
    _setup(running)
    data = json.loads(_chain(["1d6"], game="chat:777").dumps())
    data["entries"][0]["<b>"] = 1
    data["entries"][0]["x" * 5000] = 2
    text = await _upload(running, ALICE, ALICE, json.dumps(data).encode())
    assert "malformed" in text and "'<b>'" in text  # shown as typed: escaped, not bold
    assert "x" * 40 not in text and len(text) < 300


async def test_odds_errors_are_escaped_and_large_pools_answered(running: Harness) -> None:
    _setup(running)
    emu = running.emu
    emu.send_text(ALICE, ALICE, "/odds <b>2d6")
    refused = await emu.wait_bot_message(ALICE)
    assert "<" in refused.text and "Position 1" in refused.text
    emu.send_text(ALICE, ALICE, "/odds 17d1000")
    pool = await emu.wait_bot_message(ALICE, after=refused.message_id, timeout=30)
    assert "17d1000" in pool.text and "average: 8508.5\n" in pool.text  # a mean, not a %
    assert running.runtime is not None
    worker = running.runtime.dispatcher["cpu"]
    assert worker.alive
    await running.stop()  # the dispatcher's shutdown ends the worker process
    assert not worker.alive


async def test_an_export_from_before_a_reveal_says_how_to_check_its_rolls(
    running: Harness,
) -> None:
    _setup(running)
    content = await _export(running, 2, reveal=False)
    running.emu.send_text(GM, GROUP, "/reveal")
    await running.emu.wait_bot_message(GROUP, contains="закрыта")
    text = await _upload(running, ALICE, ALICE, content)
    assert text.startswith("✅")  # entries, hashes and commitments are the chat's own
    assert "Matches the chat's log up to entry #2." in text
    assert "revealed after this export: 1" in text and "/log export" in text
    assert "still secret" not in text  # it is not: the chat published it


async def test_a_chats_own_log_past_the_limits_gets_the_offline_command(
    running: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    _setup(running)
    await _export(running, 3, reveal=False)
    # three entries stand in for twenty thousand: the limit is the same check
    monkeypatch.setattr(verify_service, "LIMITS", VerifyLimits(entries=2))
    running.emu.send_text(ALICE, GROUP, "/verify")
    reply = await running.emu.wait_bot_message(GROUP, contains="Too large")
    assert "3 entries, at most 2" in reply.text and OFFLINE in reply.text
