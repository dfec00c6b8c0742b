"""/verify: a chat's own log, or an uploaded export file held against the log the bot keeps.

The work (reading the file, the chain, re-rolling revealed epochs) runs in the worker process
(``bot.cpu``) within ``LIMITS``, checked before it starts; a log past them is for the offline
``python -m engine.verify``. A file alone proves only that it is consistent with itself: who
made it, and whether entries were cut off its end, only the bot's own log can tell, so a file
naming a chat the bot keeps a log of is compared with that log entry by entry.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from bot.cpu import CpuPool
from db.uow import UnitOfWork
from engine.dice.verify import (
    Comparison,
    FileCheck,
    FileDigest,
    Reference,
    VerifyLimits,
    VerifyReport,
    check_entry_count,
    check_file,
    compare,
)

LIMITS: Final = VerifyLimits()
VERIFY_SECONDS: Final = 30.0  # the largest file within LIMITS takes a few seconds
MAX_EXPORT_BYTES: Final = 5 * 1024 * 1024
_CHAT: Final = re.compile(r"chat:(-?\d{1,19})")


def game_name(chat_id: int) -> str:
    """How an export names the chat it is the log of."""
    return f"chat:{chat_id}"


class Scope(StrEnum):
    """Against what a file was checked besides itself."""

    COMPARED = "compared"  # the bot's log of the chat the file names
    NO_CHAT = "no_chat"  # the file names no chat: nothing to compare it with
    NOT_SHOWN = "not_shown"  # it names a chat the sender is not in: not compared


@dataclass(frozen=True)
class FileVerdict:
    check: FileCheck
    scope: Scope
    here: bool  # the file names the chat /verify was sent in
    comparison: Comparison | None
    revealed_since: tuple[int, ...] = ()  # epochs secret in the file, revealed in the chat

    @property
    def secret(self) -> tuple[int, ...]:
        """Epochs whose rolls were not re-rolled because their seed is still secret."""
        since = self.revealed_since
        return tuple(e for e in self.check.report.unrevealed_epochs if e not in since)

    @property
    def intact(self) -> bool:
        """The file checks out and is, entry for entry, the log the bot keeps."""
        return self.check.report.ok and self.comparison is not None and self.comparison.identical


def _seeds(text: str) -> dict[int, bytes]:
    """Revealed seeds given after the command as ``EPOCH=HEX`` words; other words are
    ignored, as the command's help shows the form."""
    seeds: dict[int, bytes] = {}
    for word in text.split():
        epoch, _, value = word.partition("=")
        try:
            seeds[int(epoch)] = bytes.fromhex(value)
        except ValueError:
            continue
    return seeds


async def verify_file(
    uow: UnitOfWork,
    cpu: CpuPool,
    content: bytes,
    seeds_text: str,
    *,
    chat_id: int,
    may_see: Callable[[int], Awaitable[bool]],
) -> FileVerdict:
    """Check an uploaded export, then hold it against the log of the chat it names when
    ``may_see`` (that chat's id) allows. Raises ``EngineError`` for a file that is no roll
    log or is past ``LIMITS`` (``VerifyTooLarge``), ``CpuError`` when the work did not end."""
    check = await cpu.run(check_file, content, _seeds(seeds_text), LIMITS, timeout=VERIFY_SECONDS)
    named = _CHAT.fullmatch(check.digest.game)
    if named is None:
        return FileVerdict(check, Scope.NO_CHAT, False, None)
    target = int(named.group(1))
    here = target == chat_id
    if not here and not await may_see(target):
        return FileVerdict(check, Scope.NOT_SHOWN, False, None)
    log_id = await uow.rolls.existing_log_id(target)
    if log_id is None:
        nothing = Reference((), 0, {})  # no rolls there: any entry in the file is not its
        return FileVerdict(check, Scope.COMPARED, here, compare(check.digest, nothing))
    reference = await _reference(uow, log_id, len(check.digest.entries))
    revealed = await uow.rolls.revealed_epochs(log_id)
    since = tuple(e for e in check.report.unrevealed_epochs if e in revealed)
    return FileVerdict(check, Scope.COMPARED, here, compare(check.digest, reference), since)


async def _reference(uow: UnitOfWork, log_id: int, entries: int) -> Reference:
    return Reference(
        await uow.rolls.hashes(log_id, upto=entries),
        await uow.rolls.count(log_id),
        await uow.rolls.commitments(log_id),
    )


async def against_own_log(uow: UnitOfWork, file: FileDigest) -> Comparison | None:
    """A file's log held against the log the bot keeps for the chat it names; None when it
    names no chat or the bot has no log there (nothing to hold it against)."""
    named = _CHAT.fullmatch(file.game)
    if named is None:
        return None
    log_id = await uow.rolls.existing_log_id(int(named.group(1)))
    if log_id is None:
        return None
    return compare(file, await _reference(uow, log_id, len(file.entries)))


async def verify_chat(uow: UnitOfWork, cpu: CpuPool, chat_id: int) -> VerifyReport | None:
    """Verify the chat's own log (None: no rolls yet). A log past ``LIMITS`` raises
    ``VerifyTooLarge``, its size checked before it is read."""
    log_id = await uow.rolls.existing_log_id(chat_id)
    if log_id is None:
        return None
    check_entry_count(await uow.rolls.count(log_id), LIMITS)
    text = await uow.rolls.export_text(log_id, game_name(chat_id))
    check = await cpu.run(check_file, text.encode(), {}, LIMITS, timeout=VERIFY_SECONDS)
    return check.report


async def export_text(uow: UnitOfWork, chat_id: int) -> tuple[bytes, int] | None:
    """The chat's export file and its number of entries; None when it has no rolls."""
    log_id = await uow.rolls.existing_log_id(chat_id)
    if log_id is None:
        return None
    count = await uow.rolls.count(log_id)
    return (await uow.rolls.export_text(log_id, game_name(chat_id))).encode(), count
