"""Two players acting at once (issue 24 item 3).

Every button carries the version it was drawn at, and a step is written only at the version it
read (``core.step``). A press made at an older version is not always out of date: when the
steps since only touched other participants (the other duellist rolled, another fighter of
the round rolled), the press still means what it meant. ``require_independent`` compares what
the press depends on (``own``: the participant's slice of the state, and the round it is in)
as it was at the pressed version (the journal's ``state_before`` of the next step) with each
state since. Such a press is applied to the current state; any other is refused with
``Moved``, naming who made the step that changed it. The tracker row is locked while this is
decided, so the two presses still run one after the other.
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


async def require_independent(
    uow: UnitOfWork, tracker: TrackerDTO, version: int, own: Callable[[dict[str, Any]], Any]
) -> None:
    """Nothing when a press drawn at ``version`` depends on nothing the steps since changed;
    else ``Moved`` naming who made the first step that changed it (``STALE`` when the journal
    cannot tell: too far behind, or an undo in between)."""
    if not 0 <= version < tracker.version or tracker.version - version > MAX_BEHIND:
        raise core.TrackerRefused(core.STALE)
    versions = range(version + 1, tracker.version + 1)
    steps = [await uow.trackers.step_at(tracker.id, v) for v in versions]
    found = [s for s in steps if s is not None and s.action != "undo" and not s.undone]
    if len(found) != len(steps):
        raise core.TrackerRefused(core.STALE)  # an undo may have put back anything
    states = [s.state_before for s in found] + [tracker.state]
    shown = own(states[0])
    for step, after in zip(found, states[1:], strict=True):
        if own(after) != shown:
            user = await uow.users.get(step.actor_user_id)
            raise Moved(user.name) if user is not None else core.TrackerRefused(core.STALE)


def recent(tracker: TrackerDTO, version: int) -> None:
    """A set-up toggle drawn at ``version`` (at most ``MAX_BEHIND`` steps back) is taken on the
    current state: its button names what it toggles, so it means the same at any version of the
    set-up, and a GM's quick taps on a keyboard the paced group edit has not redrawn yet (about
    a second) each apply, one step each, instead of being refused as out of date."""
    if not 0 <= version <= tracker.version or tracker.version - version > MAX_BEHIND:
        raise core.TrackerRefused(core.STALE)
