"""The verifier online: bounded work (limits checked first, gaps in O(entries)), a file held
against the bot's log (``compare``), format errors that quote the file short."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine.dice.errors import LogFormatError, VerifyTooLarge
from engine.dice.log import entry_hash, export_from_json, loads
from engine.dice.verify import (
    PROBLEMS_KEPT,
    ProblemKind,
    Reference,
    VerifyLimits,
    check_file,
    compare,
    digest,
    verify_export,
)
from tests.engine.dice.test_log_verify import LOG, SEED_2, N, build_log, with_entries


def test_a_gap_of_ten_trillion_is_one_problem_told_at_once() -> None:
    entries = list(LOG.entries[:3])
    jumped = replace(entries[2], seq=10**13)
    entries[2] = replace(jumped, hash=entry_hash(jumped.prev_hash, jumped))
    report = verify_export(with_entries(entries))
    missing = [p for p in report.problems if p.kind is ProblemKind.MISSING]
    assert [(p.index, p.seq) for p in missing] == [(2, 10**13)]
    assert "#3–9999999999999" in missing[0].render("en")


@pytest.mark.parametrize(
    ("limits", "words"),
    [
        (VerifyLimits(entries=N - 1), f"{N} entries, at most {N - 1}"),
        (VerifyLimits(dice_per_entry=3), "has 4 dice, at most 3"),  # 4dF+2, the first
        (VerifyLimits(text=20), "roll expressions of"),
        (VerifyLimits(dice=40), "dice to recompute, at most 40"),
    ],
)
def test_past_a_limit_the_file_is_refused_before_any_work(
    limits: VerifyLimits, words: str
) -> None:
    with pytest.raises(VerifyTooLarge) as refused:
        verify_export(LOG, {2: SEED_2}, limits=limits)
    assert words in refused.value.render("en")
    # within the default limits the same log verifies, and without any (offline) as well
    assert verify_export(LOG, {2: SEED_2}, limits=VerifyLimits()).ok
    assert verify_export(LOG, {2: SEED_2}).ok


def test_only_entries_of_revealed_epochs_count_as_work() -> None:
    # Epoch 2's seed is secret: its rolls are chain-checked, never re-rolled.
    dice_in_epoch_1 = 42  # declared by its ten rolls; the twenty of both epochs declare 77
    verify_export(LOG, limits=VerifyLimits(dice=dice_in_epoch_1))
    with pytest.raises(VerifyTooLarge):
        verify_export(LOG, {2: SEED_2}, limits=VerifyLimits(dice=dice_in_epoch_1))
    with pytest.raises(VerifyTooLarge):
        verify_export(LOG, limits=VerifyLimits(dice=dice_in_epoch_1 - 1))


def _reference(count: int, total: int | None = None) -> Reference:
    hashes = tuple(e.hash for e in LOG.entries[:count])
    commitments = {e.epoch: e.commitment for e in LOG.epochs}
    return Reference(hashes, count if total is None else total, commitments)


def test_compare_tells_the_whole_log_from_its_beginning_and_from_a_forgery() -> None:
    whole = digest(LOG, verify_export(LOG))
    assert compare(whole, _reference(N)).identical
    # the bot's log went on after this export: no entry differs, but it is not all of it
    more = compare(whole, _reference(N, total=N + 5))
    assert (more.matched, more.differs, more.identical) == (N, False, False)
    # the last entry dropped
    cut = with_entries(list(LOG.entries[:-1]))
    short = compare(digest(cut, verify_export(cut)), _reference(N))
    assert (short.matched, short.differs, short.identical) == (N - 1, False, False)
    # an entry edited with its hash kept: the file's own check catches it, and so does this
    edited = list(LOG.entries)
    edited[4] = replace(edited[4], result=edited[4].result + 1)
    forged = with_entries(edited)
    held = compare(digest(forged, verify_export(forged)), _reference(N))
    assert (held.matched, held.differs, held.extra) == (4, True, False)
    # entries past the end of the bot's log
    longer = compare(whole, _reference(N - 3))
    assert (longer.matched, longer.differs, longer.extra) == (N - 3, True, True)
    # another commitment for an epoch
    other = replace(LOG, epochs=(replace(LOG.epochs[0], commitment="ab" * 32), LOG.epochs[1]))
    assert compare(digest(other, verify_export(other)), _reference(N)).epochs == (1,)


def test_check_file_keeps_the_reply_small() -> None:
    log = build_log(60)
    data = json.loads(log.dumps())
    for entry in data["entries"]:
        entry["faces"] = []  # every entry now edited, and its dice wrong
    checked = check_file(json.dumps(data).encode(), {2: SEED_2}, VerifyLimits())
    assert checked.problems == 120 and len(checked.report.problems) == PROBLEMS_KEPT
    assert len(checked.digest.entries) == 60 and not checked.report.ok
    assert all(hash_ == "" for _, hash_ in checked.digest.entries)  # never the bot's hash


def test_format_errors_quote_the_file_short() -> None:
    data = json.loads(LOG.dumps())
    for i in range(10):
        data["entries"][0][f"<b>{i}" + "x" * 5000] = i
    with pytest.raises(LogFormatError) as bad:
        export_from_json(data)
    text = bad.value.render("en")
    assert "'<b>0xxx" in text and "… +7]" in text and len(text) < 300


def test_numbers_past_what_the_bot_stores_are_a_format_error() -> None:
    data = json.loads(LOG.dumps())
    data["entries"][3]["seq"] = 10**30
    with pytest.raises(LogFormatError, match="out of range"):
        loads(json.dumps(data))
