"""Players' requests for resource gains, and the games that let players gain without asking."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlmodel.ext.asyncio.session import AsyncSession


@dataclass(frozen=True)
class GrantDTO:
    id: int
    game_id: int
    character_id: int
    asked_by: int
    op: dict[str, Any]
    status: str  # open, granted, refused
    decided_by: int | None


_COLUMNS = "id, game_id, character_id, asked_by, op, status, decided_by"


def _dto(row: Any) -> GrantDTO:
    op = row.op if isinstance(row.op, dict) else json.loads(row.op)
    return GrantDTO(
        row.id, row.game_id, row.character_id, row.asked_by, op, row.status, row.decided_by
    )


class GrantRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def ask(
        self, game_id: int, character_id: int, asked_by: int, op: dict[str, Any], op_key: str
    ) -> int | None:
        """A new open request; None when the same one is open already (a double press)."""
        result = await self._session.execute(
            text(
                "INSERT INTO resource_grants (game_id, character_id, asked_by, op, op_key) "
                "VALUES (:g, :c, :a, CAST(:op AS jsonb), :k) "
                "ON CONFLICT (character_id, op_key) WHERE status = 'open' DO NOTHING "
                "RETURNING id"
            ),
            {"g": game_id, "c": character_id, "a": asked_by, "op": json.dumps(op), "k": op_key},
        )
        found = result.scalar_one_or_none()
        return int(found) if found is not None else None

    async def get(self, grant_id: int) -> GrantDTO | None:
        result = await self._session.execute(
            text(f"SELECT {_COLUMNS} FROM resource_grants WHERE id = :i"), {"i": grant_id}
        )
        row = result.one_or_none()
        return _dto(row) if row is not None else None

    async def decide(
        self, grant_id: int, game_id: int, status: str, decided_by: int
    ) -> GrantDTO | None:
        """Close an open request (once: a second press finds it decided and gets None)."""
        result = await self._session.execute(
            text(
                "UPDATE resource_grants SET status = :s, decided_by = :d, decided_at = now() "
                "WHERE id = :i AND game_id = :g AND status = 'open' "
                f"RETURNING {_COLUMNS}"
            ),
            {"s": status, "d": decided_by, "i": grant_id, "g": game_id},
        )
        row = result.one_or_none()
        return _dto(row) if row is not None else None

    async def trusted(self, game_id: int) -> bool:
        result = await self._session.execute(
            text("SELECT 1 FROM grant_trust WHERE game_id = :g"), {"g": game_id}
        )
        return result.scalar_one_or_none() is not None

    async def set_trusted(self, game_id: int, trusted: bool, by: int) -> None:
        if trusted:
            await self._session.execute(
                text(
                    "INSERT INTO grant_trust (game_id, set_by) VALUES (:g, :b) "
                    "ON CONFLICT (game_id) DO NOTHING"
                ),
                {"g": game_id, "b": by},
            )
        else:
            await self._session.execute(
                text("DELETE FROM grant_trust WHERE game_id = :g"), {"g": game_id}
            )
