"""Two players acting at once (issue 24 item 3).

Every button carries the version it was drawn at, and a step is written only at the version it
read (``core.step``). A press made at an older version is not always out of date: when the
steps since only touched other participants (the other duellist rolled, another fighter of
the round rolled), the press still means what it meant. ``independent`` says so by comparing
what the press depends on (``own``: the participant's slice of the state, and the round it is
in) as it was at the pressed version (the journal's ``state_before`` of the next step) with
what it is now. Such a press is applied to the current state; any other is refused by
``moved``, which names who pressed first. The tracker row is locked while this is decided, so
the two presses still run one after the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bot.i18n import N_
from bot.services.trackers import core
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork

MAX_BEHIND: Final = 8  # versions a press may lag behind and still be judged (else: stale)
MOVED: Final = N_("{name} pressed first and the tracker moved on: check it and press again.")


class Moved(core.TrackerRefused):
    """A press that truly conflicts with the step before it; ``params`` name who made it."""

    def __init__(self, name: str) -> None:
        super().__init__(MOVED)
        self.params = {"name": name}


async def independent(
    uow: UnitOfWork, tracker: TrackerDTO, version: int, own: Callable[[dict[str, Any]], Any]
) -> bool:
    """Whether a press drawn at ``version`` depends on nothing the steps since changed."""
    if not 0 <= version < tracker.version or tracker.version - version > MAX_BEHIND:
        return False
    versions = range(version + 1, tracker.version + 1)
    steps = [await uow.trackers.step_at(tracker.id, v) for v in versions]
    if any(s is None or s.action == "undo" or s.undone for s in steps):
        return False  # an undo may have put back anything
    first = steps[0]
    assert first is not None
    return bool(own(first.state_before) == own(tracker.state))


async def moved(uow: UnitOfWork, tracker: TrackerDTO) -> core.TrackerRefused:
    """The refusal of a conflicting press: who made the step that moved the tracker."""
    last = await uow.trackers.step_at(tracker.id, tracker.version)
    if last is None:
        return core.TrackerRefused(core.STALE)
    user = await uow.users.get(last.actor_user_id)
    return Moved(user.name) if user is not None else core.TrackerRefused(core.STALE)
