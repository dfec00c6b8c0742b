"""GM secret rolls: the result goes to the GM privately, a sealed placeholder to the group.

The roll is logged in the GM's PRIVATE chat's log (so the group's ``/log export`` does not carry
it) under the roll id ``secret:<group chat id>:<command message id>``. That id alone links the
group's placeholder to its entry, so no table is needed: the reveal finds the entry back from
the GM's log. The placeholder shows the entry's short hash and the revealed card repeats it, so
players can later find the entry in the GM's exported log and recompute it once the GM reveals
that log's seed. The note is the entry's ``subject``: it is hashed with the roll, so what the
roll was for cannot be changed afterwards.

A reveal writes nothing: it re-renders an entry that the database refuses to change, so it is
idempotent by construction; whether it already happened is the placeholder's own state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.services import rolls as roll_service
from db.repositories.rolls import Epoch
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.dice.log import LogEntry, replay
from engine.dice.parser import parse
from engine.dice.results import RollResult

# The note starts at ":" or a spaced dash ("—"), as on /request; "-" belongs to the arithmetic.
_SPEC = re.compile(r"^(?P<expr>[^:—]+?)(?:\s*(?::|\s—)\s*(?P<note>.+))?$", re.S)
NOTE_MAX = 128  # the log's subject column


@dataclass(frozen=True)
class SecretSpec:
    expression: str  # what the dice parser reads (its trailing label, if any, is the note)
    note: str | None


@dataclass(frozen=True)
class SecretRoll:
    entry: LogEntry  # in the GM's private log
    result: RollResult
    opened_epoch: Epoch | None  # the GM's private log had to open a seed epoch for this roll

    @property
    def note(self) -> str | None:
        return self.entry.subject or None


class NoPrivateChat(Exception):
    """The GM never started a private chat with the bot: nothing can be sent, nothing rolled."""


def roll_id(chat_id: int, message_id: int) -> str:
    return f"secret:{chat_id}:{message_id}"


def parse_spec(text: str) -> SecretSpec:
    """``EXPR [: note]``; raises ``EngineError`` for bad notation (before anything is written)."""
    match = _SPEC.match(text.strip())
    if match is None:
        parse(text)  # raises the parser's explanation
        raise AssertionError("unreachable")
    parsed = parse(match["expr"])
    note = " ".join((match["note"] or parsed.label or "").split())[:NOTE_MAX].strip()
    return SecretSpec(match["expr"].strip(), note or None)


async def roll_secret(
    uow: UnitOfWork, *, chat_id: int, message_id: int, gm: UserDTO, text: str
) -> SecretRoll:
    """Roll ``text`` into the GM's private log (commits). Raises ``NoPrivateChat`` or
    ``EngineError`` with nothing written. The same command message always gives the same roll."""
    spec = parse_spec(text)
    if not gm.started_private:
        raise NoPrivateChat
    logged = await roll_service.roll_logged(
        uow,
        chat_id=gm.id,  # the private chat's id is the user's id
        roll_id=roll_id(chat_id, message_id),
        text=spec.expression,
        actor=gm.name,
        subject=spec.note or "",
        actor_user_id=gm.id,
    )
    return SecretRoll(logged.entry, replace(logged.result, label=""), logged.opened_epoch)


async def find(uow: UnitOfWork, *, chat_id: int, gm_id: int, message_id: int) -> SecretRoll | None:
    """The sealed roll of the /sroll message ``message_id`` in ``chat_id``, by ``gm_id``; None
    when there is none (a forged or stale button). Reads only."""
    log_id = await uow.rolls.existing_log_id(gm_id)
    if log_id is None:
        return None
    stored = await uow.rolls.by_roll_id(log_id, roll_id(chat_id, message_id))
    if stored is None or stored.actor_user_id != gm_id:
        return None
    epoch = await uow.rolls.epoch(log_id, stored.entry.epoch)
    if epoch is None:
        return None
    return SecretRoll(stored.entry, replay(stored.entry, epoch.seed), None)
