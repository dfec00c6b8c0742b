"""Inline rolls: the offers an inline answer made, and the one roll of each sent message."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from db.repositories.rolls import Driver


@dataclass(frozen=True)
class OfferDTO:
    id: str
    user_id: int
    query: str
    game_id: int | None


_ADD_OFFER = "INSERT INTO inline_offers (id, user_id, query, game_id) VALUES ($1, $2, $3, $4)"
_OFFER = "SELECT id, user_id, query, game_id FROM inline_offers WHERE id = $1"
# The message's claim: a second report of it (or a press racing the report) waits here for
# the first one's transaction and then finds the key taken.
_CLAIM = (
    "INSERT INTO inline_rolls (inline_message_id, offer_id, user_id, roll_id) "
    "VALUES ($1, $2, $3, $4) ON CONFLICT (inline_message_id) DO NOTHING RETURNING roll_id"
)
# Offers nobody sent (most: Telegram asks again at every keystroke), once old enough that no
# client still shows them; a sent one stays with its message's roll.
_PRUNE = (
    "DELETE FROM inline_offers o WHERE o.created_at < now() - $1::interval "
    "AND NOT EXISTS (SELECT 1 FROM inline_rolls r WHERE r.offer_id = o.id)"
)
_CLAIMED = "SELECT offer_id, roll_id FROM inline_rolls WHERE inline_message_id = $1"


class InlineRepo:
    def __init__(self, driver: Driver) -> None:
        self._driver = driver

    async def add_offers(self, offers: list[OfferDTO]) -> None:
        conn = await self._driver()
        await conn.executemany(_ADD_OFFER, [(o.id, o.user_id, o.query, o.game_id) for o in offers])

    async def offer(self, offer_id: str) -> OfferDTO | None:
        row = await (await self._driver()).fetchrow(_OFFER, offer_id)
        if row is None:
            return None
        return OfferDTO(row["id"], row["user_id"], row["query"], row["game_id"])

    async def claim(
        self, inline_message_id: str, offer_id: str, user_id: int, roll_id: str
    ) -> bool:
        """True if this message had no roll yet and now has ``roll_id``'s."""
        conn = await self._driver()
        row = await conn.fetchrow(_CLAIM, inline_message_id, offer_id, user_id, roll_id)
        return row is not None

    async def prune(self, older_than: timedelta) -> int:
        """Forget unsent offers older than that; how many were forgotten."""
        status = await (await self._driver()).execute(_PRUNE, older_than)
        return int(status.split()[-1])

    async def claimed(self, inline_message_id: str) -> tuple[str, str] | None:
        """(offer id, roll id) of the message's roll, if it has one."""
        row = await (await self._driver()).fetchrow(_CLAIMED, inline_message_id)
        return None if row is None else (row["offer_id"], row["roll_id"])
