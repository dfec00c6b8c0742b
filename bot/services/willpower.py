"""Storyteller: a Willpower point spent before a requested roll buys one automatic success
that the 1s cannot cancel (so the roll cannot botch) — engine.systems.storyteller.evaluate."""

from __future__ import annotations

from bot.i18n import N_
from bot.services import ledger
from bot.services.games import is_gm
from bot.services.requests import RequestRefused, check_live, on_card
from bot.systems import rules_for
from db.repositories.requests import RequestDTO
from db.uow import UnitOfWork
from engine.systems import storyteller


def offered(system: str, expression: str) -> bool:
    """The game's rules let a Willpower point buy this roll an automatic success."""
    return rules_for(system).takes_willpower(expression)


async def spend(
    uow: UnitOfWork, *, request_id: int, chat_id: int, message_id: int, user_id: int
) -> RequestDTO:
    """Pay one Willpower of the request's player (ledger) and mark the request; commits.
    Raises ``RequestRefused`` or the engine's ``EngineError`` (no Willpower left)."""
    request = await uow.requests.get(request_id, for_update=True)
    request = on_card(request, chat_id=chat_id, message_id=message_id)
    if request.status != "pending":
        raise RequestRefused(N_("Already rolled."))
    if request.bonus:
        raise RequestRefused(N_("Willpower is already spent on this roll."))
    game = await uow.games.get(request.game_id)
    check_live(game)
    assert game is not None
    if not offered(game.system, request.expression):
        raise RequestRefused(N_("This button is no longer active."))
    if user_id != request.target_user_id and not await is_gm(uow, game, user_id):
        raise RequestRefused(N_("This roll is for someone else."))
    active = await uow.characters.active_of(game.id, request.target_user_id)
    if active is None:
        raise RequestRefused(N_("The player has no active character here."))
    await ledger.change_sheets(
        uow, game=game, actor_user_id=user_id, kind="storyteller.wp.spend",
        changes={active.id: lambda c: storyteller.spend_willpower(c, 1)[0]},
        reason=f"request {request.id}",
    )  # fmt: skip
    await uow.requests.set_willpower(request.id)
    await uow.commit()
    updated = await uow.requests.get(request.id)
    assert updated is not None
    return updated
