"""Independent verification of an exported roll log (pure; the CLI is ``engine.verify``).

Checks, in this order, and reports each problem at the entry where it shows:

* seeds: every revealed seed (from the file or given by the caller) must hash to its epoch's
  commitment (``wrong_seed``); rolls of an epoch with a wrong seed are not recomputed;
* sequence: ``seq`` runs 1, 2, 3… in file order — a gap is ``missing`` (an entry was deleted),
  a number that shows up later or earlier is ``reordered``, a repeated one ``duplicate``;
* hashes: each entry's ``hash`` must equal ``entry_hash(prev_hash, entry)`` (``edited``) and its
  ``prev_hash`` the hash of the entry before it (``chain_broken``: the previous entry was
  rewritten together with its hash, or an entry was inserted);
* dice: for every entry of a revealed epoch, ``roll(expression, HmacSource(seed, roll_id))``
  must give the stored ``faces`` (``wrong_dice``) and ``result`` (``wrong_result``);
* timestamps must not go backwards (``reordered``); a repeated ``roll_id`` is ``duplicate``.

Entries of epochs whose seed is still secret are chain-checked only; the report lists those
epochs in ``unrevealed_epochs``.

Online, with ``limits`` (``VerifyLimits``), the size of the work is checked before any of it
(entries, dice per entry, the length of the expressions to re-roll, the dice they declare) and
a file past them is refused with ``VerifyTooLarge``; every check is O(entries), whatever the
numbers in the file. A file alone cannot show that it is the whole log, nor whose log it is:
``compare`` holds it against the log the bot keeps (``Reference``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import Final

from engine.dice.errors import VerifyTooLarge
from engine.dice.hmac_source import commitment
from engine.dice.log import GENESIS_HASH, LogEntry, RollLogExport, entry_hash, loads, replay
from engine.dice.parser import MAX_DICE, parse
from engine.errors import EngineError
from engine.text import Msg, ParamValue, msg, register_messages


class ProblemKind(StrEnum):
    WRONG_SEED = "wrong_seed"
    BAD_SEED_HEX = "bad_seed_hex"
    UNKNOWN_EPOCH = "unknown_epoch"
    EDITED = "edited"
    CHAIN_BROKEN = "chain_broken"
    MISSING = "missing"
    REORDERED = "reordered"
    DUPLICATE = "duplicate"
    WRONG_DICE = "wrong_dice"
    WRONG_RESULT = "wrong_result"
    BAD_EXPRESSION = "bad_expression"
    HEAD_MISMATCH = "head_mismatch"


register_messages(
    {
        "dice.verify.wrong_seed": {
            "ru": "Эпоха {epoch}: сид не совпадает с опубликованным хешем (обязательством).",
            "en": "Epoch {epoch}: the seed does not match its published commitment.",
        },
        "dice.verify.bad_seed_hex": {
            "ru": "Эпоха {epoch}: сид не является шестнадцатеричной строкой.",
            "en": "Epoch {epoch}: the seed is not a hex string.",
        },
        "dice.verify.unknown_epoch": {
            "ru": "Запись №{seq}: эпоха {epoch} не описана в файле.",
            "en": "Entry #{seq}: epoch {epoch} is not listed in the file.",
        },
        "dice.verify.edited": {
            "ru": "Запись №{seq}: содержимое изменено (хеш не совпадает).",
            "en": "Entry #{seq}: its content was edited (the hash does not match).",
        },
        "dice.verify.chain_broken": {
            "ru": "Запись №{seq}: цепочка разорвана — предыдущая запись (№{prev_seq}) "
            "переписана вместе с хешем или вставлена.",
            "en": "Entry #{seq}: the chain is broken — the previous entry (#{prev_seq}) was "
            "rewritten with its hash, or inserted.",
        },
        "dice.verify.missing": {
            "ru": "Перед записью №{seq} пропали записи №{first}–{last} (удалены).",
            "en": "Entries #{first}–{last} are missing before entry #{seq} (deleted).",
        },
        "dice.verify.reordered": {
            "ru": "Позиция {position}: запись №{seq} стоит не на своём месте "
            "(ожидалась №{expected}) — записи переставлены.",
            "en": "Position {position}: entry #{seq} is out of place (expected #{expected}) — "
            "entries were reordered.",
        },
        "dice.verify.time_reordered": {
            "ru": "Запись №{seq}: время раньше, чем у предыдущей записи — порядок нарушен.",
            "en": "Entry #{seq}: its time is before the previous entry's — order was changed.",
        },
        "dice.verify.duplicate": {
            "ru": "Запись №{seq}: повтор ({what}).",
            "en": "Entry #{seq}: a duplicate ({what}).",
        },
        "dice.verify.wrong_dice": {
            "ru": "Запись №{seq}: кубики {stored} не совпадают с пересчитанными {expected}.",
            "en": "Entry #{seq}: dice {stored} differ from the recomputed {expected}.",
        },
        "dice.verify.wrong_result": {
            "ru": "Запись №{seq}: результат {stored}, а по кубикам выходит {expected}.",
            "en": "Entry #{seq}: result {stored}, but the dice give {expected}.",
        },
        "dice.verify.head_mismatch": {
            "ru": "Журнал кончается записью №{seq}, но её хеш не совпадает с опубликованным "
            "последним хешем: записи в конце удалены или последняя изменена.",
            "en": "The log ends at entry #{seq}, but its hash differs from the published head "
            "hash: entries at the end were removed or the last one was changed.",
        },
        "dice.verify.bad_expression": {
            "ru": "Запись №{seq}: выражение не удаётся пересчитать: {error}",
            "en": "Entry #{seq}: the expression cannot be recomputed: {error}",
        },
    }
)


@dataclass(frozen=True, slots=True)
class VerifyLimits:
    """How much an online check takes on. ``text`` is the length of the expressions to
    re-roll (reading a long one costs more than rolling its dice); ``dice`` the dice they
    declare. Explosions and rerolls may roll more than declared: the check stops (too large)
    past twice ``dice`` rolled."""

    entries: int = 20_000
    dice_per_entry: int = MAX_DICE
    text: int = 200_000
    dice: int = 200_000


def _too_large(what: str, count: int, limit: int, **params: ParamValue) -> VerifyTooLarge:
    key = f"dice.verify.too_large.{what}"
    return VerifyTooLarge(msg(key, count=count, limit=limit, **params))


def check_entry_count(count: int, limits: VerifyLimits) -> None:
    """Raise ``VerifyTooLarge`` for a log of more than ``limits.entries`` entries."""
    if count > limits.entries:
        raise _too_large("entries", count, limits.entries)


def check_bounds(export: RollLogExport, seeds: Mapping[int, bytes], limits: VerifyLimits) -> None:
    """Raise ``VerifyTooLarge`` when verifying ``export`` with ``seeds`` (the valid ones by
    epoch) would pass ``limits``; cheap next to the work it spares."""
    entries = export.entries
    check_entry_count(len(entries), limits)
    for entry in entries:
        if len(entry.faces) > limits.dice_per_entry:
            count, limit = len(entry.faces), limits.dice_per_entry
            raise _too_large("faces", count, limit, seq=entry.seq)
    rerolled = [e.expression for e in entries if e.epoch in seeds]
    text = sum(map(len, rerolled))
    if text > limits.text:
        raise _too_large("text", text, limits.text)
    declared: dict[str, int] = {}
    dice = 0
    for expression in rerolled:
        if expression not in declared:
            try:
                declared[expression] = parse(expression, stored=True).dice_count
            except EngineError:
                declared[expression] = 0  # reported at the entry (bad_expression)
        dice += declared[expression]
    if dice > limits.dice:
        raise _too_large("dice", dice, limits.dice)


@dataclass(frozen=True, slots=True)
class Problem:
    """One failed check. ``index`` is the 0-based position in the file (None for epochs)."""

    kind: ProblemKind
    msg: Msg
    index: int | None = None
    seq: int | None = None
    roll_id: str | None = None
    epoch: int | None = None

    def render(self, locale: str) -> str:
        return self.msg.render(locale)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What the verifier found; ``ok`` is true when there is no problem at all."""

    game: str
    entries: int
    recomputed: int
    revealed_epochs: tuple[int, ...]
    unrevealed_epochs: tuple[int, ...]
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    def at(self, index: int) -> tuple[Problem, ...]:
        """Problems found at the entry in file position ``index``."""
        return tuple(p for p in self.problems if p.index == index)


def _seeds(
    export: RollLogExport, extra: Mapping[int, bytes]
) -> tuple[dict[int, bytes], list[Problem]]:
    """Valid seeds by epoch, and problems with the given ones."""
    known = {e.epoch: e for e in export.epochs}
    candidates: dict[int, bytes] = {}
    problems: list[Problem] = []
    for record in export.epochs:
        if record.seed is None:
            continue
        try:
            candidates[record.epoch] = bytes.fromhex(record.seed)
        except ValueError:
            problems.append(_epoch_problem(ProblemKind.BAD_SEED_HEX, record.epoch))
    candidates.update(extra)
    seeds: dict[int, bytes] = {}
    for epoch, seed in candidates.items():
        known_record = known.get(epoch)
        if known_record is None:
            problems.append(_epoch_problem(ProblemKind.UNKNOWN_EPOCH, epoch, seq="—"))
        elif commitment(seed) != known_record.commitment.lower():
            problems.append(_epoch_problem(ProblemKind.WRONG_SEED, epoch))
        else:
            seeds[epoch] = seed
    return seeds, problems


def _epoch_problem(kind: ProblemKind, epoch: int, **params: ParamValue) -> Problem:
    return Problem(kind, msg(f"dice.verify.{kind.value}", epoch=epoch, **params), epoch=epoch)


class _Checker:
    def __init__(
        self, export: RollLogExport, seeds: Mapping[int, bytes], dice_budget: int | None = None
    ) -> None:
        self.entries = export.entries
        self.epochs = {e.epoch for e in export.epochs}
        self.seeds = seeds
        self.problems: list[Problem] = []
        self.recomputed = 0
        self.dice_budget = dice_budget
        self.dice_rolled = 0
        self.by_seq: dict[int, LogEntry] = {}
        for entry in reversed(self.entries):
            self.by_seq[entry.seq] = entry  # the first occurrence wins

    def add(
        self, kind: ProblemKind, index: int, entry: LogEntry, key: str = "", **params: ParamValue
    ) -> None:
        text = msg(f"dice.verify.{key or kind.value}", seq=entry.seq, **params)
        self.problems.append(Problem(kind, text, index, entry.seq, entry.roll_id, entry.epoch))

    def run(self) -> None:
        seen_seq: set[int] = set()
        seen_ids: set[str] = set()
        every_seq = sorted({e.seq for e in self.entries})
        prev: LogEntry | None = None
        expected = 1
        for index, entry in enumerate(self.entries):
            self.check_seq(index, entry, expected, seen_seq, every_seq)
            self.check_hashes(index, entry)
            self.check_other(index, entry, prev, seen_ids)
            self.check_dice(index, entry)
            seen_seq.add(entry.seq)
            seen_ids.add(entry.roll_id)
            expected = max(expected, entry.seq + 1)
            prev = entry

    def check_seq(
        self, index: int, entry: LogEntry, expected: int, seen: set[int], every_seq: list[int]
    ) -> bool:
        """True when the entry is where its seq says; reports the problem otherwise.

        ``every_seq``: the file's seqs, sorted. Every seq seen so far is below ``expected``,
        so an entry skipping ahead was reordered when some entry numbered ``expected`` up to
        its own seq is still to come (one bisection, however wide the gap), else the ones in
        between are missing."""
        seq = entry.seq
        if seq == expected:
            return True
        if seq in seen:
            self.add(ProblemKind.DUPLICATE, index, entry, what="seq")
        elif seq < expected:
            self.add(ProblemKind.REORDERED, index, entry, position=index + 1, expected=expected)
        elif every_seq[bisect_left(every_seq, expected)] < seq:  # seq itself is in the list
            self.add(ProblemKind.REORDERED, index, entry, position=index + 1, expected=expected)
        else:
            self.add(ProblemKind.MISSING, index, entry, first=expected, last=seq - 1)
        return False

    def check_hashes(self, index: int, entry: LogEntry) -> None:
        if entry_hash(entry.prev_hash, entry) != entry.hash:
            self.add(ProblemKind.EDITED, index, entry)
        # The predecessor is the entry numbered seq - 1 wherever it stands, so a swap is
        # reported once (as reordered) and a deletion once (as missing).
        if entry.seq == 1:
            want = GENESIS_HASH
        else:
            before = self.by_seq.get(entry.seq - 1)
            if before is None:
                return
            want = before.hash
        if entry.prev_hash != want:
            self.add(ProblemKind.CHAIN_BROKEN, index, entry, prev_seq=entry.seq - 1)

    def check_other(
        self, index: int, entry: LogEntry, prev: LogEntry | None, ids: set[str]
    ) -> None:
        if entry.roll_id in ids:
            self.add(ProblemKind.DUPLICATE, index, entry, what="roll_id")
        if entry.epoch not in self.epochs:
            self.add(ProblemKind.UNKNOWN_EPOCH, index, entry, epoch=entry.epoch)
        if prev is not None and _time(entry.created_at) < _time(prev.created_at):
            self.add(ProblemKind.REORDERED, index, entry, key="time_reordered")

    def check_dice(self, index: int, entry: LogEntry) -> None:
        seed = self.seeds.get(entry.epoch)
        if seed is None:
            return
        try:
            result = replay(entry, seed)
        except EngineError as exc:
            error = exc.render("en")
            error = error if len(error) <= 120 else error[:119] + "…"
            self.add(ProblemKind.BAD_EXPRESSION, index, entry, error=error)
            return
        self.recomputed += 1
        self.dice_rolled += len(result.faces)
        if self.dice_budget is not None and self.dice_rolled > self.dice_budget:
            raise _too_large("dice", self.dice_rolled, self.dice_budget // 2)
        if result.faces != entry.faces:
            stored, expected = _faces(entry.faces), _faces(result.faces)
            self.add(ProblemKind.WRONG_DICE, index, entry, stored=stored, expected=expected)
        elif result.total != entry.result:
            self.add(
                ProblemKind.WRONG_RESULT, index, entry, stored=entry.result, expected=result.total
            )


def _faces(faces: tuple[int, ...]) -> str:
    text = ",".join(map(str, faces))
    return f"[{text[:60]}…]" if len(text) > 60 else f"[{text}]"


def _time(text: str) -> float:
    """Seconds since the epoch for comparison; unparsable times compare as equal (0)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return 0.0
    if moment.tzinfo is None:
        return moment.timestamp() if moment.year > 1970 else 0.0
    return moment.timestamp()


def verify_export(
    export: RollLogExport,
    seeds: Mapping[int, bytes] | None = None,
    *,
    head_hash: str | None = None,
    limits: VerifyLimits | None = None,
) -> VerifyReport:
    """Verify an export; ``seeds`` adds or overrides revealed seeds by epoch number.

    ``head_hash``, the latest hash published in the chat, also catches entries removed from
    the end (the chain alone cannot: a shorter chain is still a valid chain). With ``limits``
    a file past them raises ``VerifyTooLarge``, before any work.
    """
    valid, problems = _seeds(export, seeds or {})
    if limits is not None:
        check_bounds(export, valid, limits)
    checker = _Checker(export, valid, None if limits is None else 2 * limits.dice)
    checker.run()
    if head_hash is not None:
        last = export.entries[-1] if export.entries else None
        if last is None or last.hash != head_hash.lower():
            seq = 0 if last is None else last.seq
            index = None if last is None else len(export.entries) - 1
            text = msg("dice.verify.head_mismatch", seq=seq)
            checker.problems.append(Problem(ProblemKind.HEAD_MISMATCH, text, index, seq))
    used = {e.epoch for e in export.entries}
    return VerifyReport(
        game=export.game,
        entries=len(export.entries),
        recomputed=checker.recomputed,
        revealed_epochs=tuple(sorted(valid)),
        unrevealed_epochs=tuple(sorted(used - set(valid) - {p.epoch for p in problems})),
        problems=(*problems, *checker.problems),
    )


# -- against the log the bot keeps ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FileDigest:
    """What comparing a verified file needs, small enough to hand around: per entry in file
    order its seq and hash ("" when the hash is not its content's, ``edited``), and the
    file's epochs with their commitments."""

    game: str
    entries: tuple[tuple[int, str], ...]
    commitments: tuple[tuple[int, str], ...]


def digest(export: RollLogExport, report: VerifyReport) -> FileDigest:
    edited = {p.index for p in report.problems if p.kind is ProblemKind.EDITED}
    return FileDigest(
        export.game,
        tuple((e.seq, "" if i in edited else e.hash) for i, e in enumerate(export.entries)),
        tuple((e.epoch, e.commitment.lower()) for e in export.epochs),
    )


@dataclass(frozen=True, slots=True)
class Reference:
    """The log the bot keeps for the chat a file names: the hashes of its first entries
    (``hashes[i]`` is entry ``i + 1``'s; at least as many as the file has, when the log has
    them), how many entries it has, and every epoch's commitment."""

    hashes: tuple[str, ...]
    total: int
    commitments: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class Comparison:
    """A file held against the bot's log. ``matched``: the file's first entries that are the
    log's entries 1…matched, exactly (each hash covers every field and the one before it).
    ``differs``: an entry after those is not the log's (changed, made up, out of place, or
    past the log's end: ``extra``). ``total``: entries in the log, so ``matched < total``
    with nothing differing means the file stops early. ``epochs``: the file's epochs whose
    commitment is not the log's."""

    matched: int
    file_entries: int
    total: int
    differs: bool
    extra: bool
    epochs: tuple[int, ...]

    @property
    def identical(self) -> bool:
        """The file is the whole log as the bot keeps it."""
        return not self.differs and not self.epochs and self.matched == self.total


def compare(file: FileDigest, reference: Reference) -> Comparison:
    """Hold a file (``digest``) against the bot's log; O(entries)."""
    matched = 0
    for position, (seq, hash_) in enumerate(file.entries):
        if (
            seq != position + 1
            or position >= len(reference.hashes)
            or not hash_
            or hash_ != reference.hashes[position]
        ):
            break
        matched += 1
    count = len(file.entries)
    epochs = tuple(
        epoch for epoch, value in file.commitments if reference.commitments.get(epoch) != value
    )
    return Comparison(
        matched=matched,
        file_entries=count,
        total=reference.total,
        differs=matched < count,
        extra=matched < count and matched >= reference.total,
        epochs=epochs,
    )


PROBLEMS_KEPT: Final = 50  # a file can have a problem at every entry; a reply shows ten


@dataclass(frozen=True, slots=True)
class FileCheck:
    """``check_file``'s answer: the report (its first ``PROBLEMS_KEPT`` problems), how many
    problems there were, and the file's ``digest`` to hold against the bot's log."""

    report: VerifyReport
    problems: int
    digest: FileDigest


def check_file(
    content: bytes, seeds: Mapping[int, bytes], limits: VerifyLimits | None
) -> FileCheck:
    """Read and verify an export file: what the bot runs in its worker process. Raises
    ``LogFormatError`` for a file that is no roll log, ``VerifyTooLarge`` past ``limits``."""
    export = loads(content)
    report = verify_export(export, seeds, limits=limits)
    kept = replace(report, problems=report.problems[:PROBLEMS_KEPT])
    return FileCheck(kept, len(report.problems), digest(export, report))
