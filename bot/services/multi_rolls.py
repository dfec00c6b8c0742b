"""Several rolls of one /r message (roll sets, ``;``): each its own entry of the verifiable log.

The roll ids are derived from the message's (``msg:CHAT:MESSAGE:1``, ``:2``…), so a
redelivered or retried update yields the same ids — and the first logged results.
"""

from __future__ import annotations

from bot.services.rolls import LoggedRoll, roll_logged
from db.uow import UnitOfWork
from engine.dice.errors import RollIdTaken
from engine.dice.request import RollRequest


def part_roll_id(roll_id: str, index: int) -> str:
    """The id of roll ``index`` (0-based) of a message whose single roll would be ``roll_id``."""
    return f"{roll_id}:{index + 1}"


async def roll_many(
    uow: UnitOfWork,
    request: RollRequest,
    *,
    chat_id: int,
    roll_id: str,
    actor: str,
    actor_user_id: int | None,
) -> list[LoggedRoll]:
    """Log every roll of ``request`` in order, then commit once; none of them if one's id holds
    another roll (``RollIdTaken``)."""
    try:
        logged = [
            await roll_logged(
                uow,
                chat_id=chat_id,
                roll_id=part_roll_id(roll_id, i),
                text=text,
                actor=actor,
                subject=actor,
                actor_user_id=actor_user_id,
                commit=False,
            )
            for i, text in enumerate(request.texts)
        ]
    except RollIdTaken:
        await uow.rollback()  # the earlier rolls of the set go too (the claim stays)
        raise
    await uow.commit()
    return logged
