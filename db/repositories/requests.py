"""Roll requests: created by a GM, rolled once (a conditional update guards the state)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import RollRequest, utcnow
from db.repositories.rolls import Driver


@dataclass(frozen=True)
class RequestDTO:
    id: int
    game_id: int
    chat_id: int
    requested_by: int
    target_user_id: int
    expression: str
    target_number: int | None
    note: str | None
    status: str
    message_id: int | None
    roll_seq: int | None
    bonus: int = 0
    rerolls: int = 0
    invokes: tuple[dict[str, Any], ...] = ()
    deadline: datetime | None = None
    trait: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def shown_at(self, chat_id: int, message_id: int | None) -> bool:
        """Whether the message is this request's own card (a button forged onto any other
        message, or naming a request whose card was never posted, is not)."""
        return (
            self.chat_id == chat_id
            and self.message_id is not None
            and (self.message_id == message_id)
        )

    @property
    def roll_id(self) -> str:
        """The log's roll id of the current (latest) roll of this request."""
        return f"req:{self.id}" if self.rerolls == 0 else f"req:{self.id}:re{self.rerolls}"


_FIELDS = (
    "id", "game_id", "chat_id", "requested_by", "target_user_id", "expression",
    "target_number", "note", "status", "message_id", "roll_seq", "bonus", "rerolls", "invokes",
    "deadline", "trait", "options",
)  # fmt: skip


def _request(get: Callable[[str], Any]) -> RequestDTO:
    values = {name: get(name) for name in _FIELDS}
    values["invokes"] = tuple(values["invokes"])
    values["options"] = dict(values["options"] or {})
    return RequestDTO(**values)


def _dto(row: RollRequest) -> RequestDTO:
    assert row.id is not None
    return _request(lambda name: getattr(row, name))


# A press reads the request and marks it rolled on the driver connection of the unit of work
# (``UnitOfWork.driver``): as ORM statements they were a third of the press handler's CPU, and the
# second runs while the chat's log is locked (``make bench``: roll-button presses/second).
# jsonb columns arrive decoded (SQLAlchemy's codec on its connections).
_GET = f"SELECT {', '.join(_FIELDS)} FROM roll_requests WHERE id = $1"
_MARK_ROLLED = (
    "UPDATE roll_requests SET status = 'rolled', roll_seq = $2, rolled_at = $3 "
    f"WHERE id = $1 AND status = 'pending' RETURNING {', '.join(_FIELDS)}"
)


class RequestRepo:
    def __init__(self, session: AsyncSession, driver: Driver) -> None:
        self._session = session
        self._driver = driver

    async def add(
        self,
        *,
        game_id: int,
        chat_id: int,
        requested_by: int,
        target_user_id: int,
        expression: str,
        target_number: int | None,
        note: str | None,
        deadline: datetime | None = None,
        trait: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> RequestDTO:
        row = RollRequest(
            game_id=game_id, chat_id=chat_id, requested_by=requested_by,
            target_user_id=target_user_id, expression=expression, target_number=target_number,
            note=note, deadline=deadline, trait=trait, options=options or {},
        )  # fmt: skip
        self._session.add(row)
        await self._session.flush()
        return _dto(row)

    async def get(self, request_id: int, *, for_update: bool = False) -> RequestDTO | None:
        conn = await self._driver()
        row = await conn.fetchrow(_GET + (" FOR UPDATE" if for_update else ""), request_id)
        return _request(row.__getitem__) if row is not None else None

    async def record_invoke(
        self, request_id: int, *, bonus: int, rerolls: int, invokes: list[dict[str, Any]],
        roll_seq: int,
    ) -> None:  # fmt: skip
        stmt = (
            update(RollRequest)
            .where(col(RollRequest.id) == request_id)
            .values(bonus=bonus, rerolls=rerolls, invokes=invokes, roll_seq=roll_seq)
        )
        await self._session.execute(stmt)

    async def set_options(
        self, request_id: int, *, expression: str, options: dict[str, Any], trait: str | None
    ) -> bool:
        """A pending request's options and the expression they make (before the roll)."""
        stmt = (
            update(RollRequest)
            .where(col(RollRequest.id) == request_id, col(RollRequest.status) == "pending")
            .values(expression=expression, options=options, trait=trait)
            .returning(col(RollRequest.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def set_message(self, request_id: int, message_id: int) -> None:
        await self._session.execute(
            update(RollRequest)
            .where(col(RollRequest.id) == request_id)
            .values(message_id=message_id)
        )

    async def mark_rolled(self, request_id: int, roll_seq: int) -> RequestDTO | None:
        """pending → rolled, once: the updated request, or None when it was not pending."""
        conn = await self._driver()
        row = await conn.fetchrow(_MARK_ROLLED, request_id, roll_seq, utcnow())
        return _request(row.__getitem__) if row is not None else None

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        stmt = (
            update(RollRequest)
            .where(col(RollRequest.chat_id) == old_chat_id)
            .values(chat_id=new_chat_id)
        )
        await self._session.execute(stmt)

    async def set_willpower(self, request_id: int) -> bool:
        """Mark a pending request as boosted by Willpower, once."""
        stmt = (
            update(RollRequest)
            .where(
                col(RollRequest.id) == request_id,
                col(RollRequest.status) == "pending",
                col(RollRequest.bonus) == 0,
            )
            .values(bonus=1, invokes=[{"mode": "willpower"}])
            .returning(col(RollRequest.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def claim_nudges(self, now: datetime, before: timedelta) -> list[RequestDTO]:
        """Pending requests whose deadline is within ``before``: marked nudged, once."""
        stmt = (
            update(RollRequest)
            .where(
                col(RollRequest.status) == "pending",
                col(RollRequest.nudged_at).is_(None),
                col(RollRequest.deadline).is_not(None),
                col(RollRequest.deadline) > now,
                col(RollRequest.deadline) <= now + before,
            )
            .values(nudged_at=now)
            .returning(RollRequest)
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def claim_overdue(self, now: datetime) -> list[RequestDTO]:
        """Pending requests past their deadline: marked overdue, once."""
        stmt = (
            update(RollRequest)
            .where(
                col(RollRequest.status) == "pending",
                col(RollRequest.overdue_at).is_(None),
                col(RollRequest.deadline).is_not(None),
                col(RollRequest.deadline) <= now,
            )
            .values(overdue_at=now)
            .returning(RollRequest)
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def by_message(self, chat_id: int, message_id: int) -> RequestDTO | None:
        """The request whose card is this message (any status)."""
        stmt = select(RollRequest).where(
            col(RollRequest.chat_id) == chat_id, col(RollRequest.message_id) == message_id
        )
        row = (await self._session.execute(stmt)).scalars().first()
        return _dto(row) if row else None

    async def pending_for(self, game_id: int) -> list[RequestDTO]:
        stmt = (
            select(RollRequest)
            .where(col(RollRequest.game_id) == game_id, col(RollRequest.status) == "pending")
            .order_by(col(RollRequest.id))
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]
