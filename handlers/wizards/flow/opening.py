"""A wizard that cannot open now (``Flow.unavailable``) says why and closes at once, instead of
showing a step nobody can answer (lifegear before the GM wrote any role)."""

from __future__ import annotations

from aiogram import Bot
from aiogram_dialog import DialogManager

from handlers.wizards.common import WizardStart
from handlers.wizards.flow.kinds import Flow


async def closed_at_start(flow: Flow, manager: DialogManager) -> bool:
    if flow.unavailable is None:
        return False
    data = manager.middleware_data
    reason = await flow.unavailable(data["uow"], WizardStart.of(manager).game_id)
    if not reason:
        return False
    bot: Bot = data["bot"]
    await bot.send_message(data["event_chat"].id, data["t"](reason))
    await manager.done()
    return True
