"""Verifiable randomness: commit–reveal seeds and an HMAC-SHA256 random source.

A game's seed epoch has a 32-byte secret ``seed`` (``new_seed()``); its commitment
``commitment(seed) = hex(SHA-256(seed))`` is posted when the epoch opens, the seed itself when
it closes. Every roll's dice come from ``HmacSource(seed, roll_id)``, so a roll is a pure
function of (seed, roll_id, expression) and anyone holding the revealed seed can recompute it.

Exact byte layout (an outside verifier must reproduce it bit for bit)::

    block(k) = HMAC-SHA256(key = seed, message = UTF-8(roll_id) || uint64_be(k))

``k`` is a counter starting at 0 for each ``HmacSource`` and increasing by one for every
*attempt* (accepted or rejected). ``randint(low, high)`` with ``n = high - low + 1`` outcomes:

1. ``B = max(1, ceil(bit_length(n - 1) / 8))`` bytes are needed; ``R = 256**B``;
   ``limit = R - (R mod n)`` (the largest multiple of ``n`` not above ``R``).
2. Take the next block, read its first ``B`` bytes as a big-endian unsigned integer ``v``
   (``B ≤ 32``, so ``n ≤ 2**256``).
3. If ``v < limit`` the result is ``low + (v mod n)``; otherwise discard the block and repeat
   from step 2 with the next counter (rejection sampling: no modulo bias).

Every call consumes at least one block, including ``n == 1``. A d6 uses one byte per attempt
(limit 252), a d10 one byte (limit 250), a d1000 two bytes (limit 65000).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache
from typing import Any, Final

SEED_BYTES: Final = 32
_MAX_OUTCOMES: Final = 2**256


def new_seed() -> bytes:
    """A fresh 32-byte secret seed from ``secrets``."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: lowercase hex SHA-256 of its bytes."""
    return hashlib.sha256(seed).hexdigest()


def block(seed: bytes, roll_id: str, counter: int) -> bytes:
    """The ``counter``-th HMAC block of a roll (see the module docstring)."""
    return hmac.digest(seed, roll_id.encode("utf-8") + counter.to_bytes(8, "big"), "sha256")


class HmacSource:
    """A ``RandomSource`` drawing from HMAC-SHA256(seed, roll_id ‖ counter) blocks.

    For speed the HMAC inner and outer SHA-256 states are keyed once per source (the standard
    RFC 2104 construction, identical output to ``hmac.digest``).
    """

    __slots__ = ("_counter", "_inner", "_outer", "_prefix", "roll_id")

    def __init__(self, seed: bytes, roll_id: str) -> None:
        if not seed:
            raise ValueError("the seed must not be empty")
        inner, outer = _keyed_states(bytes(seed))
        self.roll_id = roll_id
        self._inner = inner.copy()
        self._inner.update(roll_id.encode("utf-8"))
        self._outer = outer
        self._prefix = roll_id.encode("utf-8")
        self._counter = 0

    @property
    def blocks_used(self) -> int:
        return self._counter

    def randint(self, low: int, high: int) -> int:
        n = high - low + 1
        if n < 1 or n > _MAX_OUTCOMES:
            raise ValueError(f"randint range {low}..{high} is empty or too large")
        size = 1 if n <= 256 else ((n - 1).bit_length() + 7) // 8
        span = 1 << (8 * size)
        limit = span - span % n
        inner, outer = self._inner, self._outer
        while True:
            counter = self._counter
            self._counter = counter + 1
            step = inner.copy()
            step.update(counter.to_bytes(8, "big"))
            final = outer.copy()
            final.update(step.digest())
            data = final.digest()
            value = data[0] if size == 1 else int.from_bytes(data[:size], "big")
            if value < limit:
                return low + value % n


_IPAD = bytes(b ^ 0x36 for b in range(256))  # translation tables: XOR a whole key at once
_OPAD = bytes(b ^ 0x5C for b in range(256))


@lru_cache(maxsize=1024)  # one per chat with an open epoch: a busy bot rolls in many
def _keyed_states(seed: bytes) -> tuple[Any, Any]:
    """SHA-256 states after absorbing ``key XOR ipad`` and ``key XOR opad`` (RFC 2104)."""
    key = hashlib.sha256(seed).digest() if len(seed) > 64 else seed
    key = key.ljust(64, b"\0")
    inner = hashlib.sha256(key.translate(_IPAD))
    outer = hashlib.sha256(key.translate(_OPAD))
    return inner, outer
