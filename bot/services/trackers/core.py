"""The shared tracker use case: open, take a step, undo the GM's last step, end.

Every action names the version it was shown (the buttons carry it): the step is written by a
conditional update on that version plus a journal row unique per (tracker, version), so two
concurrent presses, a stale button or a redelivered update produce one step, never two. A step
that changes sheets passes the ledger batch it wrote; undoing the step undoes that batch (only
while no later change touched those sheets, within an hour). Each undo button names its step
through the version it was drawn at, so a double press or an old button undoes nothing more
(the GM may still walk a fight back step by step, each time with the fresh button). Rolls stay
in the log: the log is append-only, an undone step's roll is simply no longer counted. Nothing
here commits; the caller does, once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.i18n import N_
from bot.services import ledger
from bot.services.games import is_gm
from db.models import utcnow
from db.repositories.games import GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork


class TrackerRefused(Exception):
    """A refused tracker action; ``reason`` is a msgid shown to the user as is."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


STALE = N_("That button is out of date: the tracker has moved on. Use the current buttons.")
ELSEWHERE = N_("This is not the tracker's current message: /tracker shows it.")


class NotItsMessage(TrackerRefused):
    """A press on a message that is not the tracker's current one: an old copy left by
    /tracker, or any other message a forged button was sent on. What the step wrote is undone."""

    def __init__(self) -> None:
        super().__init__(ELSEWHERE)


def shown_on(tracker: TrackerDTO, *, chat_id: int, message_id: int) -> bool:
    """Whether the message is the tracker's current one (the only one whose presses count)."""
    return tracker.chat_id == chat_id and tracker.message_id == message_id


async def open_tracker(
    uow: UnitOfWork,
    game: GameDTO,
    *,
    kind: str,
    state: dict[str, Any],
    actor_user_id: int,
    exclusive: bool = True,
) -> TrackerDTO:
    """Open a tracker in the game's chat. An exclusive one (a fight, a conflict, a scene) is
    refused while another is open; the database's partial unique index decides races."""
    tracker = await uow.trackers.add(
        game_id=game.id, chat_id=game.chat_id, kind=kind, exclusive=exclusive, state=state,
        created_by=actor_user_id,
    )  # fmt: skip
    if tracker is None:
        raise TrackerRefused(N_("A fight or scene is already going on here: /tracker shows it."))
    return tracker


async def load(
    uow: UnitOfWork, tracker_id: int, *, chat_id: int, kind: str | None = None,
    message_id: int | None = None,
) -> TrackerDTO:  # fmt: skip
    """The tracker, locked for this transaction; refused when it belongs to another chat (a
    forged button), is of another kind, or is over; with ``message_id`` (the pressed message)
    also unless that is the tracker's current message (``NotItsMessage``). Presses that take a
    step are checked after it instead, by ``handlers.trackers.common.step_on``."""
    tracker = await uow.trackers.get(tracker_id, for_update=True)
    if tracker is None or tracker.chat_id != chat_id or (kind and tracker.kind != kind):
        raise TrackerRefused(N_("This tracker is not here."))
    if message_id is not None and not shown_on(tracker, chat_id=chat_id, message_id=message_id):
        raise NotItsMessage()
    if not tracker.is_open:
        raise TrackerRefused(N_("This is over."))
    return tracker


async def may_end(
    uow: UnitOfWork, game: GameDTO, tracker_id: int, *, chat_id: int, message_id: int,
    kind: str | tuple[str, ...], shown: int, user_id: int,
    also: Callable[[TrackerDTO], Awaitable[bool]] | None = None,
) -> TrackerDTO:  # fmt: skip
    """The tracker a GM's first «End» press would end, for the question «Yes, end it» /
    «Cancel» (an end has no undo: the ended tracker keeps no buttons); refused as the end
    itself would be — not the GM (nor one ``also`` lets end it, e.g. a duellist), not here,
    not of ``kind`` (one or several), over, or moved on since ``shown``. Writes nothing."""
    tracker = await load(uow, tracker_id, chat_id=chat_id, message_id=message_id)
    if tracker.kind not in ((kind,) if isinstance(kind, str) else kind):
        raise TrackerRefused(N_("This tracker is not here."))
    allowed = also is not None and await also(tracker)
    if not allowed and not await is_gm(uow, game, user_id):
        raise TrackerRefused(N_("Only the GM can do that."))
    if tracker.version != shown:
        raise TrackerRefused(STALE)
    return tracker


async def current(uow: UnitOfWork, game: GameDTO) -> TrackerDTO | None:
    """The game's open fight, conflict or scene, if any."""
    found = await uow.trackers.open_for_game(game.id, exclusive=True)
    return found[0] if found else None


async def step(
    uow: UnitOfWork,
    tracker: TrackerDTO,
    *,
    expected_version: int,
    actor_user_id: int,
    action: str,
    state: dict[str, Any],
    batch: str | None = None,
    end: bool = False,
) -> TrackerDTO:
    """Write the next state if the tracker is still at ``expected_version``; raises
    ``TrackerRefused(STALE)`` otherwise. ``batch`` is the ledger batch this step wrote."""
    if tracker.version != expected_version:
        raise TrackerRefused(STALE)
    moved = await uow.trackers.advance(
        tracker.id, expected_version=expected_version, state=state,
        status="ended" if end else None,
    )  # fmt: skip
    if moved is None:
        raise TrackerRefused(STALE)
    await uow.trackers.add_step(
        tracker_id=tracker.id, version=moved.version, actor_user_id=actor_user_id,
        action=action, state_before=tracker.state, batch=batch,
    )  # fmt: skip
    return moved


async def undo(
    uow: UnitOfWork, game: GameDTO, tracker: TrackerDTO, *, actor_user_id: int, shown: int
) -> tuple[TrackerDTO, str]:
    """The GM takes back the step the pressed button names: the newest step not undone yet as
    the tracker stood at version ``shown`` (the version the button was drawn at; the journal is
    unique per version, so that is one step). The state before it comes back and its ledger
    batch is undone. Refused when the tracker moved on since (that step already undone, or
    another step taken), or the step is older than ``ledger.UNDO_WINDOW``. Returns the tracker
    and the undone step's action name. A refusal may follow writes: the caller rolls back."""
    if not await is_gm(uow, game, actor_user_id):
        raise TrackerRefused(N_("Only the GM can do that."))
    if tracker.version != shown:
        named = await uow.trackers.step_at(tracker.id, shown)
        if named is not None and named.undone:
            raise TrackerRefused(ledger.ALREADY_UNDONE)
        raise TrackerRefused(STALE)
    last = await uow.trackers.last_undoable(tracker.id)
    if last is None:
        raise TrackerRefused(N_("Nothing to undo."))
    if last.created_at is not None and utcnow() - last.created_at > ledger.UNDO_WINDOW:
        raise TrackerRefused(ledger.TOO_OLD)
    if last.batch is not None:
        try:
            await ledger.undo_batch(uow, game=game, batch=last.batch, actor_user_id=actor_user_id)
        except ledger.LedgerError as error:
            if error.reason != ledger.ALREADY_UNDONE:  # undone elsewhere: the sheets are back
                raise TrackerRefused(error.reason) from error
    if not await uow.trackers.mark_undone(last.id):
        raise TrackerRefused(ledger.ALREADY_UNDONE)
    moved = await uow.trackers.advance(
        tracker.id, expected_version=tracker.version, state=last.state_before
    )
    if moved is None:
        raise TrackerRefused(STALE)
    await uow.trackers.add_step(
        tracker_id=tracker.id, version=moved.version, actor_user_id=actor_user_id,
        action="undo", state_before=tracker.state, batch=None,
    )  # fmt: skip
    return moved, last.action


async def attach_message(uow: UnitOfWork, tracker: TrackerDTO, message_id: int) -> None:
    await uow.trackers.set_message(tracker.id, message_id)
