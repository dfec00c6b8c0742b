"""Fate invokes on a rolled request: +2 or a reroll for an aspect, paid with a fate point.

The fate point goes through the ledger (one entry, GM-undoable); a reroll is a new roll in the
verifiable log (roll id ``req:<id>:re<n>``), so every face ever shown stays checkable. Each
aspect can be paid for once per roll (seed 000, SPEC section 1). The request row is locked for
the whole step, so two presses cannot spend twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import N_
from bot.services import ledger
from bot.services import rolls as roll_service
from bot.services.games import is_gm
from bot.services.requests import RequestRefused, on_card, read_result, roll_subject
from bot.systems import SYSTEMS
from db.repositories.requests import RequestDTO
from db.uow import UnitOfWork
from engine.dice.results import RollResult
from engine.systems import fate
from engine.systems.base import Reading

BONUS = "bonus"
REROLL = "reroll"


@dataclass(frozen=True)
class Invoked:
    request: RequestDTO
    result: RollResult  # the current roll (after a reroll, the new one)
    seq: int
    hash: str
    fate_points: int
    reading: Reading | None = None  # the current roll with every invoke, by the game's system


async def aspects_for(uow: UnitOfWork, request: RequestDTO) -> tuple[str, ...]:
    """The aspect texts the request's player can invoke (their active character's)."""
    game = await uow.games.get(request.game_id)
    if game is None or game.system != fate.SYSTEM_ID:
        return ()
    active = await uow.characters.active_of(game.id, request.target_user_id)
    if active is None:
        return ()
    sheet = SYSTEMS[fate.SYSTEM_ID].load(active.sheet, active.schema_version)
    assert isinstance(sheet, fate.Character)
    return tuple(a.text for a in sheet.aspects)


async def invoke(
    uow: UnitOfWork,
    *,
    request_id: int,
    chat_id: int,
    message_id: int,
    user_id: int,
    user_name: str,
    aspect: int,
    mode: str,
) -> Invoked:
    """Pay a fate point and apply the invoke; raises ``RequestRefused`` or ``EngineError``."""
    request = await uow.requests.get(request_id, for_update=True)
    request = on_card(request, chat_id=chat_id, message_id=message_id)
    if mode not in (BONUS, REROLL):
        raise RequestRefused(N_("This button is no longer active."))
    if request.status != "rolled":
        raise RequestRefused(N_("Roll first, then invoke."))
    game = await uow.games.get(request.game_id)
    assert game is not None
    if user_id != request.target_user_id and not await is_gm(uow, game, user_id):
        raise RequestRefused(N_("This roll is for someone else."))
    active = await uow.characters.active_of(game.id, request.target_user_id)
    texts = await aspects_for(uow, request)
    if active is None or not 0 <= aspect < len(texts):
        raise RequestRefused(N_("This button is no longer active."))
    if any(i.get("aspect") == aspect for i in request.invokes):
        raise RequestRefused(N_("That aspect was already invoked on this roll."))
    changed = await ledger.change_sheets(
        uow, game=game, actor_user_id=user_id, kind="fate.invoke",
        changes={active.id: lambda c: fate.spend_fate_points(c, 1)},
        reason=f"request {request.id}: {texts[aspect]}"[:256],
    )  # fmt: skip
    fate_points = _fate_points(changed[0].after)
    bonus, rerolls = request.bonus, request.rerolls
    if mode == BONUS:
        bonus += 2
    else:
        rerolls += 1
    invokes = [*request.invokes, {"aspect": aspect, "text": texts[aspect], "mode": mode}]
    current = await _current_roll(uow, request, rerolls, user_name)
    await uow.requests.record_invoke(
        request.id, bonus=bonus, rerolls=rerolls, invokes=invokes, roll_seq=current[1]
    )
    await uow.commit()
    updated = await uow.requests.get(request.id)
    assert updated is not None
    reading = read_result(game.system, updated, current[0])
    return Invoked(updated, current[0], current[1], current[2], fate_points, reading)


def _fate_points(sheet: Any) -> int:
    return int(getattr(sheet, "fate_points", 0))


async def _current_roll(
    uow: UnitOfWork, request: RequestDTO, rerolls: int, user_name: str
) -> tuple[RollResult, int, str]:
    """The roll the card shows: a new logged roll after a reroll, else the one already made."""
    if rerolls != request.rerolls:
        target = await uow.users.get(request.target_user_id)
        logged = await roll_service.roll_logged(
            uow, chat_id=request.chat_id, roll_id=f"req:{request.id}:re{rerolls}",
            text=request.expression, actor=user_name,
            subject=roll_subject(request, target),
            actor_user_id=None, stored=True, commit=False,
        )  # fmt: skip
        return logged.result, logged.entry.seq, logged.entry.hash
    current = await roll_service.logged_roll(uow, request.chat_id, request.roll_id)
    assert current is not None  # a rolled request always has its roll in the log
    return current.result, current.entry.seq, current.entry.hash
