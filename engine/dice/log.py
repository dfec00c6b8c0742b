"""The roll log chain and its export file (pure; the database stores exactly these fields).

Each entry is hashed together with the previous entry's hash::

    canonical_json(entry) = JSON of every field except "hash", keys sorted, separators
                            (",", ":"), non-ASCII kept as is (ensure_ascii=False), UTF-8 bytes
    entry_hash(prev_hash, entry) = hex SHA-256( ASCII(prev_hash) || canonical_json(entry) )

The first entry of a game has ``seq = 1`` and ``prev_hash = GENESIS_HASH`` (64 zeros); entry
``n + 1`` has ``prev_hash`` = entry ``n``'s ``hash``. ``faces`` is a JSON array of integers,
``outcome`` a short string or null, ``created_at`` an ISO-8601 string.

Export file (``format = "rollog/1"``), UTF-8 JSON::

    {"format": "rollog/1", "game": "<id>",
     "epochs": [{"epoch": 1, "commitment": "<hex sha256 of seed>", "seed": "<hex>" | null}],
     "entries": [<entry with all fields including "hash">, ...]}
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.dice.errors import LogFormatError
from engine.dice.evaluator import roll
from engine.dice.hmac_source import HmacSource
from engine.dice.results import RollResult
from engine.text import msg

FORMAT: Final = "rollog/1"
GENESIS_HASH: Final = "0" * 64

JsonValue = str | int | None | list[int]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One logged roll; ``hash`` covers every other field and the previous hash."""

    seq: int
    roll_id: str
    epoch: int
    actor: str
    subject: str
    expression: str
    faces: tuple[int, ...]
    result: int
    outcome: str | None
    created_at: str
    prev_hash: str
    hash: str

    def payload(self) -> dict[str, JsonValue]:
        """Every field except ``hash``, as JSON values (what the hash covers)."""
        return {
            "seq": self.seq,
            "roll_id": self.roll_id,
            "epoch": self.epoch,
            "actor": self.actor,
            "subject": self.subject,
            "expression": self.expression,
            "faces": list(self.faces),
            "result": self.result,
            "outcome": self.outcome,
            "created_at": self.created_at,
            "prev_hash": self.prev_hash,
        }

    def to_json(self) -> dict[str, JsonValue]:
        return {**self.payload(), "hash": self.hash}


@dataclass(frozen=True, slots=True)
class EpochRecord:
    """A seed epoch: its commitment, and the seed (hex) once revealed."""

    epoch: int
    commitment: str
    seed: str | None = None

    def to_json(self) -> dict[str, str | int | None]:
        return {"epoch": self.epoch, "commitment": self.commitment, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class RollLogExport:
    """The content of an export file."""

    game: str
    epochs: tuple[EpochRecord, ...]
    entries: tuple[LogEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "epochs": [e.to_json() for e in self.epochs],
            "entries": [e.to_json() for e in self.entries],
        }

    def dumps(self) -> str:
        """The export file text (pretty-printed; the hashes do not depend on the layout)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1, sort_keys=True)


def canonical_json(data: Mapping[str, object]) -> bytes:
    """Sorted keys, no spaces, UTF-8."""
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def entry_hash(prev_hash: str, entry: LogEntry | Mapping[str, object]) -> str:
    """hex SHA-256(prev_hash ‖ canonical_json(entry without "hash"))."""
    payload = entry.payload() if isinstance(entry, LogEntry) else dict(entry)
    payload.pop("hash", None)
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json(payload)).hexdigest()


def new_entry(
    prev: LogEntry | None,
    *,
    roll_id: str,
    epoch: int,
    actor: str,
    subject: str,
    expression: str,
    faces: Sequence[int],
    result: int,
    created_at: str,
    outcome: str | None = None,
) -> LogEntry:
    """The next entry of the chain after ``prev`` (None for the first), hash included."""
    seq = 1 if prev is None else prev.seq + 1
    prev_hash = GENESIS_HASH if prev is None else prev.hash
    fields = (
        seq, roll_id, epoch, actor, subject, expression, tuple(faces), result, outcome,
        created_at, prev_hash,
    )  # fmt: skip
    draft = LogEntry(*fields, "")
    return LogEntry(*fields, entry_hash(prev_hash, draft))  # not replace(): a tenth the cost


def record_roll(
    prev: LogEntry | None,
    *,
    seed: bytes,
    roll_id: str,
    epoch: int,
    actor: str,
    subject: str,
    expression: str,
    created_at: str,
    outcome: str | None = None,
) -> tuple[LogEntry, RollResult]:
    """Roll ``expression`` with ``HmacSource(seed, roll_id)`` and chain the log entry.

    Store the canonical notation (``parse(text).canonical``) or a system's notation; it may be
    longer than a typed request, so it is parsed with the stored-notation length limit.
    """
    result = roll(expression, HmacSource(seed, roll_id), stored=True)
    entry = new_entry(
        prev, roll_id=roll_id, epoch=epoch, actor=actor, subject=subject,
        expression=expression, faces=result.faces, result=result.total,
        created_at=created_at, outcome=outcome,
    )  # fmt: skip
    return entry, result


def replay(entry: LogEntry, seed: bytes) -> RollResult:
    """Recompute a logged roll from its epoch's seed (a repeated press shows this result)."""
    return roll(entry.expression, HmacSource(seed, entry.roll_id), stored=True)


# -- reading an export -------------------------------------------------------------------------
_ENTRY_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "seq": int, "roll_id": str, "epoch": int, "actor": str, "subject": str,
    "expression": str, "faces": list, "result": int, "outcome": (str, type(None)),
    "created_at": str, "prev_hash": str, "hash": str,
}  # fmt: skip


# A field name or value from the file is repeated in an error only this long, and a list of
# them only this many: the error goes back to whoever sent the file, in one short message.
ECHO_CHARS: Final = 40
ECHO_ITEMS: Final = 3
# Integers are what the bot's database holds (BIGINT): a larger one is no logged roll, and a
# number of thousands of digits would only make every message about it too long.
MAX_INT: Final = 2**63 - 1


def _bad(problem: str) -> LogFormatError:
    return LogFormatError(msg("dice.log.bad_format", problem=problem))


def echo(value: object) -> str:
    """A value from the file, clipped to ``ECHO_CHARS`` for an error message (not escaped:
    the message is plain text, escaped where it is rendered as HTML)."""
    text = value if isinstance(value, str) else repr(value)
    return repr(text if len(text) <= ECHO_CHARS else text[: ECHO_CHARS - 1] + "…")


def _names(names: Sequence[str]) -> str:
    shown = [echo(n) for n in names[:ECHO_ITEMS]]
    more = len(names) - len(shown)
    return "[" + ", ".join(shown) + (f", … +{more}" if more > 0 else "") + "]"


def _is(value: object, kind: type | tuple[type, ...]) -> bool:
    return isinstance(value, kind) and not isinstance(value, bool)


def entry_from_json(data: object, where: str = "entry") -> LogEntry:
    """Read one entry, checking every field's type; raises ``LogFormatError``."""
    if not isinstance(data, dict):
        raise _bad(f"{where} is not an object")
    if set(data) != set(_ENTRY_FIELDS):
        missing = sorted(set(_ENTRY_FIELDS) - set(data))
        extra = sorted(set(data) - set(_ENTRY_FIELDS))
        raise _bad(f"{where}: missing fields {_names(missing)}, unknown fields {_names(extra)}")
    for name, kind in _ENTRY_FIELDS.items():
        if not _is(data[name], kind):
            raise _bad(f"{where}: field {name!r} has the wrong type")
    if not all(_is(f, int) for f in data["faces"]):
        raise _bad(f"{where}: faces must be integers")
    numbers = (data["seq"], data["epoch"], data["result"], *data["faces"])
    if not all(-MAX_INT <= n <= MAX_INT for n in numbers):
        raise _bad(f"{where}: a number is out of range")
    return LogEntry(
        data["seq"], data["roll_id"], data["epoch"], data["actor"], data["subject"],
        data["expression"], tuple(data["faces"]), data["result"], data["outcome"],
        data["created_at"], data["prev_hash"], data["hash"],
    )  # fmt: skip


def _epoch_from_json(data: object, where: str) -> EpochRecord:
    if not isinstance(data, dict) or set(data) != {"epoch", "commitment", "seed"}:
        raise _bad(f"{where} must have exactly epoch, commitment, seed")
    if not _is(data["epoch"], int) or not _is(data["commitment"], str):
        raise _bad(f"{where}: wrong field types")
    if not -MAX_INT <= data["epoch"] <= MAX_INT:
        raise _bad(f"{where}: a number is out of range")
    if not _is(data["seed"], (str, type(None))):
        raise _bad(f"{where}: seed must be a hex string or null")
    return EpochRecord(data["epoch"], data["commitment"], data["seed"])


def export_from_json(data: object) -> RollLogExport:
    """Read a parsed export file; raises ``LogFormatError`` naming the bad part."""
    if not isinstance(data, dict):
        raise _bad("the file is not a JSON object")
    if data.get("format") != FORMAT:
        raise _bad(f"format must be {FORMAT!r}")
    game, epochs, entries = data.get("game"), data.get("epochs"), data.get("entries")
    if not isinstance(game, str) or not isinstance(epochs, list) or not isinstance(entries, list):
        raise _bad("game must be a string, epochs and entries lists")
    return RollLogExport(
        game,
        tuple(_epoch_from_json(e, f"epoch #{i + 1}") for i, e in enumerate(epochs)),
        tuple(entry_from_json(e, f"entry #{i + 1}") for i, e in enumerate(entries)),
    )


def loads(text: str | bytes) -> RollLogExport:
    """Parse export file text; raises ``LogFormatError``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _bad(f"not valid JSON ({exc.__class__.__name__})") from None
    return export_from_json(data)
