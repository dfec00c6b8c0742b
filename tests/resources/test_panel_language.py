"""/lang in a group relabels its open /res panels: a panel kept the language it was opened
in, so after «/lang en» a grant or a milestone redrew it in Russian again."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import panels as panel_service
from bot.services.settings import set_language
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.systems import cliche

GM, ALICE, GROUP = 1000, 1001, -100901


async def test_a_groups_panels_follow_its_language(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    async with UnitOfWork(factory) as uow:
        game = await uow.games.create(GROUP, "cliche", "Светлячок", GM)
        mal = await uow.characters.add(
            game_id=game.id, owner_user_id=ALICE, is_npc=False, system="cliche", name="Мэл",
            status="active", sheet=cliche.new_character("Мэл").model_dump(mode="json"),
            schema_version=1,
        )  # fmt: skip
        await panel_service.remember(uow, mal, GROUP, 55, "ru")
        await panel_service.remember(uow, mal, ALICE, 7, "ru")  # Alice's own chat: not this one
        await uow.commit()
    async with UnitOfWork(factory) as uow:
        await set_language(uow, GROUP, "supergroup", GM, "en")
    async with UnitOfWork(factory) as uow:
        locales = {p.chat_id: p.locale for p in await uow.panels.of([mal.id])}
    assert locales == {GROUP: "en", ALICE: "ru"}
