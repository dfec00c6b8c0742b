"""Rolling through the verifiable log: one use case every roll in the bot goes through."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from db.repositories.rolls import Epoch, StoredRoll
from db.uow import UnitOfWork
from engine.dice.errors import RollIdTaken
from engine.dice.hmac_source import commitment, new_seed
from engine.dice.log import LogEntry, RollLogExport, record_roll, replay
from engine.dice.parser import parse
from engine.dice.results import RollResult

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoggedRoll:
    """A roll as stored: the chain entry, the evaluated result, and what is new about it."""

    entry: LogEntry
    result: RollResult
    label: str | None
    duplicate: bool  # the roll id was already logged: this is the same, first result
    opened_epoch: Epoch | None  # the epoch this roll had to open (its commitment is news)


@dataclass(frozen=True)
class Revealed:
    closed: Epoch
    opened: Epoch


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def current_epoch(uow: UnitOfWork, log_id: int) -> tuple[Epoch, bool]:
    epoch = await uow.rolls.open_epoch(log_id)
    if epoch is not None:
        return epoch, False
    return await _new_epoch(uow, log_id), True


async def _new_epoch(uow: UnitOfWork, log_id: int) -> Epoch:
    seed = new_seed()
    return await uow.rolls.add_epoch(log_id, seed, commitment(seed))


async def roll_logged(
    uow: UnitOfWork,
    *,
    chat_id: int,
    roll_id: str,
    text: str,
    actor: str,
    subject: str,
    actor_user_id: int | None,
    outcome: str | None = None,
    stored: bool = False,
    commit: bool = True,
) -> LoggedRoll:
    """Parse ``text`` (raises ``EngineError`` on bad notation), roll it once, log it, commit.

    The same ``roll_id`` always yields the first logged result: the dice are a pure function
    of the epoch's seed and the roll id, and the log's unique key refuses a second entry. Only
    for the same roll, though: a logged entry under ``roll_id`` with another expression or
    label is another roll (a message id met again: a restarted emulator numbered from 1), and
    ``RollIdTaken`` is raised with nothing written — never the other roll's result.
    """
    parsed = parse(text, stored=stored)  # before any write: bad input changes nothing
    label = clip_label(parsed.label)
    while True:  # twice at most: a head read without the lock may have moved (``append``)
        head = await uow.rolls.head_for_append(chat_id, roll_id)
        if head.existing is not None:
            if not _same_roll(head.existing, parsed.canonical, label):
                logger.warning(
                    "roll id %s already logged for %r, asked %r: refused",
                    roll_id, head.existing.entry.expression, parsed.canonical,
                )  # fmt: skip
                raise RollIdTaken.of(head.existing.entry.expression)
            return await _replay(uow, head.log_id, head.existing)
        opened = head.epoch is None
        epoch = head.epoch or await _new_epoch(uow, head.log_id)
        entry, result = record_roll(
            head.last,
            seed=epoch.seed,
            roll_id=roll_id,
            epoch=epoch.epoch,
            actor=actor[:128],
            subject=subject[:128],
            expression=parsed.canonical,
            created_at=_now(),
            outcome=outcome,
        )
        if await uow.rolls.append(head.log_id, entry, actor_user_id=actor_user_id, label=label):
            break
    if commit:
        await uow.commit()
    return LoggedRoll(entry, _labelled(result, label), label, False, epoch if opened else None)


LABEL_MAX = 256  # the log's label column; the notation allows longer text after the dice


def clip_label(label: str) -> str | None:
    """A roll's label as the log stores it: a text past the column's size is cut with «…»
    (a long comment after the dice is still a roll, not a failure)."""
    if len(label) <= LABEL_MAX:
        return label or None
    return label[: LABEL_MAX - 1].rstrip() + "…"


def _same_roll(stored: StoredRoll, expression: str, label: str | None) -> bool:
    return stored.entry.expression == expression and (stored.label or None) == label


async def logged_roll(uow: UnitOfWork, chat_id: int, roll_id: str) -> LoggedRoll | None:
    """A roll already in the chat's log, recomputed from its epoch's seed; None if absent."""
    log_id = await uow.rolls.existing_log_id(chat_id)
    stored = await uow.rolls.by_roll_id(log_id, roll_id) if log_id is not None else None
    return await _replay(uow, log_id, stored) if log_id is not None and stored else None


async def _replay(uow: UnitOfWork, log_id: int, stored: StoredRoll) -> LoggedRoll:
    epoch = await uow.rolls.epoch(log_id, stored.entry.epoch)
    assert epoch is not None
    result = replay(stored.entry, epoch.seed)
    return LoggedRoll(stored.entry, _labelled(result, stored.label), stored.label, True, None)


def _labelled(result: RollResult, label: str | None) -> RollResult:
    label = label or ""
    return result if result.label == label else replace(result, label=label)


async def reveal(uow: UnitOfWork, chat_id: int) -> Revealed:
    """Publish the current epoch's seed and open the next one."""
    log_id = await uow.rolls.log_id(chat_id)
    await uow.rolls.lock(log_id)
    closed, _ = await current_epoch(uow, log_id)
    await uow.rolls.reveal(log_id, closed.epoch)
    seed = new_seed()
    opened = await uow.rolls.add_epoch(log_id, seed, commitment(seed))
    await uow.commit()
    return Revealed(closed, opened)


async def recent(
    uow: UnitOfWork, chat_id: int, *, page: int, per_page: int
) -> tuple[list[StoredRoll], int]:
    log_id = await uow.rolls.existing_log_id(chat_id)
    if log_id is None:
        return [], 0
    total = await uow.rolls.count(log_id)
    return await uow.rolls.recent(log_id, offset=page * per_page, limit=per_page), total


async def sealed_epoch(uow: UnitOfWork, chat_id: int) -> Epoch | None:
    """The chat's open seed epoch (its commitment is what /log shows), if any."""
    log_id = await uow.rolls.existing_log_id(chat_id)
    return None if log_id is None else await uow.rolls.open_epoch(log_id)


async def export(uow: UnitOfWork, chat_id: int) -> RollLogExport | None:
    log_id = await uow.rolls.existing_log_id(chat_id)
    if log_id is None:
        return None
    return await uow.rolls.export(log_id, game=f"chat:{chat_id}")
