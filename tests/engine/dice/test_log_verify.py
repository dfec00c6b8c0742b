"""Roll log chain, export format, verifier round trip, tamper detection at the entry, CLI."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.dice import (
    GENESIS_HASH,
    DiceLimitError,
    EpochRecord,
    LogEntry,
    LogFormatError,
    ProblemKind,
    RollLogExport,
    canonical_json,
    commitment,
    entry_hash,
    parse,
    record_roll,
    replay,
    verify_export,
)
from engine.dice.log import export_from_json, loads
from engine.dice.parser import MAX_LENGTH, MAX_STORED_LENGTH
from engine.verify import main

SEED_1 = bytes.fromhex("11" * 32)
SEED_2 = bytes.fromhex("22" * 32)
EXPRESSIONS = ["4dF+2", "7d10>=6f1", "5d10>=7!", "4d6", "1d8+1d6+3", "3d6kh2+1 атака", "chance"]


def build_log(count: int = 20) -> RollLogExport:
    """~20 rolls over two epochs; epoch 1 revealed in the file, epoch 2 still secret."""
    entries: list[LogEntry] = []
    prev = None
    for i in range(count):
        epoch = 1 if i < count // 2 else 2
        entry, _ = record_roll(
            prev,
            seed=SEED_1 if epoch == 1 else SEED_2,
            roll_id=f"game-7:{1000 + i}",
            epoch=epoch,
            actor="user:42",
            subject="Мими",
            expression=EXPRESSIONS[i % len(EXPRESSIONS)],
            created_at=f"2026-11-29T12:{i:02d}:00+00:00",
            outcome="ok" if i % 2 else None,
        )
        entries.append(entry)
        prev = entry
    epochs = (
        EpochRecord(1, commitment(SEED_1), SEED_1.hex()),
        EpochRecord(2, commitment(SEED_2), None),
    )
    return RollLogExport("game-7", epochs, tuple(entries))


LOG = build_log()
N = len(LOG.entries)


def with_entries(entries: list[LogEntry]) -> RollLogExport:
    return replace(LOG, entries=tuple(entries))


def test_chain_shape() -> None:
    first = LOG.entries[0]
    assert first.seq == 1 and first.prev_hash == GENESIS_HASH
    for before, after in zip(LOG.entries, LOG.entries[1:], strict=False):
        assert after.prev_hash == before.hash
        assert after.seq == before.seq + 1
    payload = json.loads(canonical_json(first.payload()))
    assert "hash" not in payload
    assert canonical_json({"b": 1, "a": "я"}) == '{"a":"я","b":1}'.encode()
    assert first.hash == entry_hash(GENESIS_HASH, first)


def test_export_round_trip_and_format() -> None:
    text = LOG.dumps()
    data = json.loads(text)
    assert data["format"] == "rollog/1"
    assert data["game"] == "game-7"
    assert data["epochs"][1] == {"epoch": 2, "commitment": commitment(SEED_2), "seed": None}
    assert set(data["entries"][0]) == {
        "seq", "roll_id", "epoch", "actor", "subject", "expression", "faces", "result",
        "outcome", "created_at", "prev_hash", "hash",
    }  # fmt: skip
    assert loads(text) == LOG


def test_verify_passes() -> None:
    report = verify_export(LOG)
    assert report.ok, [p.render("en") for p in report.problems]
    assert report.recomputed == N // 2
    assert report.revealed_epochs == (1,)
    assert report.unrevealed_epochs == (2,)
    full = verify_export(LOG, {2: SEED_2})
    assert full.ok and full.recomputed == N


EDITS: dict[str, Any] = {
    "actor": "user:666",
    "subject": "Кто-то",
    "expression": "4dF+4",
    "result": 99,
    "faces": (1, 1, 1),
    "outcome": "crit",
    "created_at": "2026-11-29T12:30:30+00:00",
    "roll_id": "game-7:9999",
    "epoch": 3,
}


@pytest.mark.parametrize("field", sorted(EDITS))
@pytest.mark.parametrize("index", [0, 5, 9, 14, N - 1])
def test_edit_any_field_detected_at_that_entry(field: str, index: int) -> None:
    entries = list(LOG.entries)
    entries[index] = replace(entries[index], **{field: EDITS[field]})
    report = verify_export(with_entries(entries), {2: SEED_2})
    assert not report.ok
    assert ProblemKind.EDITED in {p.kind for p in report.at(index)}
    assert min(p.index for p in report.problems if p.index is not None) == index


def test_edit_with_rewritten_hash_is_caught() -> None:
    # The forger rehashes the edited entry: its own hash is fine, but the dice do not match
    # and the next entry's prev_hash points at the old version.
    entries = list(LOG.entries)
    forged = replace(entries[3], faces=(6, 6, 6, 6), result=6)
    entries[3] = replace(forged, hash=entry_hash(forged.prev_hash, forged))
    report = verify_export(with_entries(entries))
    assert {p.kind for p in report.at(3)} == {ProblemKind.WRONG_DICE}
    assert {p.kind for p in report.at(4)} == {ProblemKind.CHAIN_BROKEN}


@pytest.mark.parametrize("index", [0, 1, 7, 13, N - 2])
def test_deletion_detected_at_that_position(index: int) -> None:
    entries = list(LOG.entries)
    del entries[index]
    report = verify_export(with_entries(entries))
    kinds = [(p.kind, p.index) for p in report.problems]
    assert kinds == [(ProblemKind.MISSING, index)]
    assert f"#{index + 1}" in report.problems[0].render("en")


def test_deleting_the_last_entry_needs_the_published_head() -> None:
    # The chain proves order and content; completeness at the end needs the head hash that
    # the bot posts with every roll.
    truncated = with_entries(list(LOG.entries[:-1]))
    assert verify_export(truncated).ok
    head = LOG.entries[-1].hash
    assert verify_export(LOG, head_hash=head).ok
    report = verify_export(truncated, head_hash=head)
    assert [(p.kind, p.index) for p in report.problems] == [(ProblemKind.HEAD_MISMATCH, N - 2)]


@pytest.mark.parametrize("index", [0, 4, 10, N - 2])
def test_swap_detected_at_those_entries(index: int) -> None:
    entries = list(LOG.entries)
    entries[index], entries[index + 1] = entries[index + 1], entries[index]
    report = verify_export(with_entries(entries))
    assert ProblemKind.REORDERED in {p.kind for p in report.at(index)}
    assert ProblemKind.REORDERED in {p.kind for p in report.at(index + 1)}
    assert {p.index for p in report.problems} == {index, index + 1}


def test_duplicate_entry_detected() -> None:
    entries = list(LOG.entries)
    entries.insert(6, entries[5])
    report = verify_export(with_entries(entries))
    assert ProblemKind.DUPLICATE in {p.kind for p in report.at(6)}


def test_wrong_seed_detected() -> None:
    report = verify_export(LOG, {2: SEED_1})
    assert [(p.kind, p.epoch) for p in report.problems] == [(ProblemKind.WRONG_SEED, 2)]
    bad_file = replace(
        LOG, epochs=(EpochRecord(1, commitment(SEED_1), SEED_2.hex()), LOG.epochs[1])
    )
    report = verify_export(bad_file)
    assert [(p.kind, p.epoch) for p in report.problems] == [(ProblemKind.WRONG_SEED, 1)]


def test_wrong_dice_with_a_valid_seed() -> None:
    # A log whose rolls came from another seed than the committed one.
    entry, _ = record_roll(
        None, seed=SEED_2, roll_id="x", epoch=1, actor="a", subject="b",
        expression="10d10", created_at="2026-11-29T12:00:00+00:00",
    )  # fmt: skip
    report = verify_export(replace(LOG, entries=(entry,)))
    assert [p.kind for p in report.problems] == [ProblemKind.WRONG_DICE]


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"format": "rollog/2", "game": "g", "epochs": [], "entries": []},
        {"format": "rollog/1", "game": "g", "epochs": [], "entries": [{"seq": 1}]},
        {"format": "rollog/1", "game": 5, "epochs": [], "entries": []},
    ],
)
def test_bad_format(data: object) -> None:
    with pytest.raises(LogFormatError):
        export_from_json(data)


def test_bad_json() -> None:
    with pytest.raises(LogFormatError):
        loads("{not json")
    with pytest.raises(LogFormatError):
        loads("[" * 100_000)


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(LOG.dumps(), encoding="utf-8")
    out = io.StringIO()
    assert main([str(good)], out) == 0
    assert "OK" in out.getvalue()
    assert main([str(good), "--seed", f"2={SEED_2.hex()}"], io.StringIO()) == 0
    assert main([str(good), "--head", LOG.entries[-1].hash], io.StringIO()) == 0
    assert main([str(good), "--head", "00" * 32], io.StringIO()) == 1

    out = io.StringIO()
    assert main([str(good), "--seed", f"2={SEED_1.hex()}", "--lang", "ru"], out) == 1
    assert "Эпоха 2" in out.getvalue()

    entries = list(LOG.entries)
    entries[2] = replace(entries[2], result=100)
    bad = tmp_path / "bad.json"
    bad.write_text(with_entries(entries).dumps(), encoding="utf-8")
    out = io.StringIO()
    assert main([str(bad)], out) == 1
    assert "Entry #3" in out.getvalue()

    junk = tmp_path / "junk.json"
    junk.write_text("nonsense", encoding="utf-8")
    assert main([str(junk)], io.StringIO()) == 1
    assert main([str(tmp_path / "absent.json")], io.StringIO()) == 1


def test_canonical_longer_than_the_typed_request_is_logged_and_verified() -> None:
    typed = "+".join(["d%"] * 160) + " урон"  # 484 characters typed
    canonical = parse(typed).canonical
    assert len(typed) <= MAX_LENGTH < len(canonical) <= MAX_STORED_LENGTH
    with pytest.raises(DiceLimitError):
        parse(canonical)  # a user may not type it …
    entry, result = record_roll(
        None, seed=SEED_1, roll_id="long", epoch=1, actor="a", subject="b",
        expression=canonical, created_at="2026-11-29T12:00:00+00:00",
    )  # fmt: skip
    assert replay(entry, SEED_1) == result  # … but the log replays it
    assert verify_export(replace(LOG, entries=(entry,))).ok
