"""Trackers and their step journal. Never commits; the use case does."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import utcnow
from db.tracker_models import Tracker, TrackerStep


@dataclass(frozen=True)
class TrackerDTO:
    id: int
    game_id: int
    chat_id: int
    kind: str
    exclusive: bool
    status: str
    message_id: int | None
    state: dict[str, Any]
    version: int
    created_by: int

    @property
    def is_open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True)
class StepDTO:
    id: int
    tracker_id: int
    version: int
    actor_user_id: int
    action: str
    state_before: dict[str, Any]
    batch: str | None
    undone: bool = False
    created_at: datetime | None = None


def _dto(row: Tracker) -> TrackerDTO:
    assert row.id is not None
    return TrackerDTO(
        row.id, row.game_id, row.chat_id, row.kind, row.exclusive, row.status, row.message_id,
        dict(row.state), row.version, row.created_by,
    )  # fmt: skip


class TrackerRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(
        self,
        *,
        game_id: int,
        chat_id: int,
        kind: str,
        exclusive: bool,
        state: dict[str, Any],
        created_by: int,
    ) -> TrackerDTO | None:
        """Insert an open tracker; None when the game already has an open exclusive one
        (the partial unique index decides, so two concurrent openings cannot both win)."""
        values = dict(
            game_id=game_id, chat_id=chat_id, kind=kind, exclusive=exclusive, state=state,
            created_by=created_by, status="open", version=1,
        )  # fmt: skip
        stmt = insert(Tracker).values(**values)
        if exclusive:
            # The predicate is literal SQL, not a bound parameter: after five executions
            # Postgres switches a prepared statement to a generic plan, where "status = $9"
            # no longer proves the partial index's predicate and the insert fails.
            stmt = stmt.on_conflict_do_nothing(
                index_elements=["game_id"], index_where=text("exclusive AND status = 'open'"),
            )  # fmt: skip
        row = (await self._session.execute(stmt.returning(Tracker))).scalar_one_or_none()
        return _dto(row) if row is not None else None

    async def get(self, tracker_id: int, *, for_update: bool = False) -> TrackerDTO | None:
        stmt = select(Tracker).where(col(Tracker.id) == tracker_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _dto(row) if row is not None else None

    async def open_for_game(self, game_id: int, *, exclusive: bool = True) -> list[TrackerDTO]:
        stmt = (
            select(Tracker)
            .where(
                col(Tracker.game_id) == game_id,
                col(Tracker.status) == "open",
                col(Tracker.exclusive) == exclusive,
            )
            .order_by(col(Tracker.id))
        )
        return [_dto(r) for r in (await self._session.execute(stmt)).scalars()]

    async def advance(
        self,
        tracker_id: int,
        *,
        expected_version: int,
        state: dict[str, Any],
        status: str | None = None,
    ) -> TrackerDTO | None:
        """Write the next state only if nobody moved the tracker since ``expected_version``."""
        values: dict[str, Any] = {
            "state": state, "version": expected_version + 1, "updated_at": utcnow()
        }  # fmt: skip
        if status is not None:
            values["status"] = status
        stmt = (
            update(Tracker)
            .where(
                col(Tracker.id) == tracker_id,
                col(Tracker.version) == expected_version,
                col(Tracker.status) == "open",
            )
            .values(**values)
            .returning(Tracker)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _dto(row) if row is not None else None

    async def set_message(self, tracker_id: int, message_id: int) -> None:
        stmt = update(Tracker).where(col(Tracker.id) == tracker_id).values(message_id=message_id)
        await self._session.execute(stmt)

    async def add_step(
        self,
        *,
        tracker_id: int,
        version: int,
        actor_user_id: int,
        action: str,
        state_before: dict[str, Any],
        batch: str | None,
    ) -> None:
        await self._session.execute(
            insert(TrackerStep).values(
                tracker_id=tracker_id,
                version=version,
                actor_user_id=actor_user_id,
                action=action[:64],
                state_before=state_before,
                batch=batch,
            )
        )

    async def last_undoable(self, tracker_id: int) -> StepDTO | None:
        """The newest action that is not an undo and not undone yet."""
        stmt = (
            select(TrackerStep)
            .where(
                col(TrackerStep.tracker_id) == tracker_id,
                col(TrackerStep.undone).is_(False),
                col(TrackerStep.action) != "undo",
            )
            .order_by(col(TrackerStep.version).desc())
            .limit(1)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _step(row) if row is not None else None

    async def step_at(self, tracker_id: int, version: int) -> StepDTO | None:
        """The step that made ``version`` of the tracker (None for the opening version)."""
        stmt = select(TrackerStep).where(
            col(TrackerStep.tracker_id) == tracker_id, col(TrackerStep.version) == version
        )
        result = await self._session.execute(stmt, execution_options={"populate_existing": True})
        row = result.scalar_one_or_none()
        return _step(row) if row is not None else None

    async def has_batch(self, game_id: int, batch: str) -> bool:
        """Whether a step of one of the game's trackers wrote ledger ``batch``."""
        stmt = (
            select(col(TrackerStep.id))
            .join(Tracker, col(Tracker.id) == col(TrackerStep.tracker_id))
            .where(col(Tracker.game_id) == game_id, col(TrackerStep.batch) == batch)
            .limit(1)
        )
        return (await self._session.execute(stmt)).first() is not None

    async def mark_undone(self, step_id: int) -> bool:
        """Stamp the step undone unless it already is (False then: another undo won)."""
        stmt = (
            update(TrackerStep)
            .where(col(TrackerStep.id) == step_id, col(TrackerStep.undone).is_(False))
            .values(undone=True)
            .returning(col(TrackerStep.id))
        )
        return (await self._session.execute(stmt)).first() is not None


def _step(row: TrackerStep) -> StepDTO:
    assert row.id is not None
    return StepDTO(
        row.id, row.tracker_id, row.version, row.actor_user_id, row.action,
        dict(row.state_before), row.batch, row.undone, row.created_at,
    )  # fmt: skip
