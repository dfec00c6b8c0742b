"""The fate conflict's end against real Postgres: by default stress clears through the ledger
(the GM's undo would bring it back); «keep stress» leaves every box marked."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.i18n import I18n
from bot.services import ledger
from bot.services.trackers import fate as service
from db.database import create_session_factory
from db.repositories.games import GameDTO
from db.uow import UnitOfWork
from engine.systems import fate
from engine.systems.fate.conflict import ConflictState, Participant, SceneAspect, Zone
from engine.systems.fate.models import AspectKind
from handlers.views.trackers.fate import _zones

GM, ALICE = 1000, 1001


async def _conflict(factory, keep: bool) -> list[int]:  # type: ignore[no-untyped-def]
    """A conflict between Ира and an orc; Ира's box 2 gets marked; the GM ends it."""
    async with UnitOfWork(factory) as uow:
        game: GameDTO = await uow.games.create(-100900 - int(keep), "fate", "Конец", GM)
        ids = []
        for name, owner, npc in (("Ира", ALICE, False), ("Орк", GM, True)):
            added = await uow.characters.add(
                game_id=game.id, owner_user_id=owner, is_npc=npc, system="fate", name=name,
                status="active", sheet=fate.new_character(name).model_dump(mode="json"),
                schema_version=1,
            )  # fmt: skip
            ids.append(added.id)
        tracker = await service.open_conflict(uow, game, user_id=GM, text="Склад: Темно")
        tracker = await service.start(uow, game, tracker, v=tracker.version, user_id=GM)
        option = fate.AbsorbOption(fate.TrackKind.PHYSICAL, 2, (), 2, True)
        await ledger.change_sheets(
            uow, game=game, actor_user_id=GM, kind="test",
            changes={ids[0]: lambda c: fate.absorb(c, 2, fate.TrackKind.PHYSICAL, option)[0]},
        )  # fmt: skip
        ended = await service.end(
            uow, game, tracker, v=tracker.version, user_id=GM, keep_stress=keep
        )
        await uow.commit()
        assert not ended.is_open
        conflict = service.conflict_of(ended.state)
        assert conflict is not None and all(not z.aspects for z in conflict.zones)
        sheet = await uow.characters.get(ids[0])
        assert sheet is not None
        return list(sheet.sheet["stress"]["physical"])


async def test_the_end_clears_stress_or_keeps_it(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    assert await _conflict(factory, keep=False) == []
    assert await _conflict(factory, keep=True) == [2]


def test_a_boost_is_named_once_on_the_board() -> None:
    """Issue 36 item 14: «⚡ Усиление: Громила», not «⚡Усиление: Громила [Громила ×1]»; a
    situation aspect still lists who holds its free invokes."""
    t = I18n("ru").translator("ru")
    conflict = ConflictState(
        id="c",
        zones=(
            Zone(
                name="Склад",
                aspects=(
                    SceneAspect(
                        name="Усиление: Громила", kind=AspectKind.BOOST, free_invokes={"2": 1}
                    ),
                    SceneAspect(name="Укрытие", free_invokes={"1": 2}),
                ),
            ),
        ),
        participants=(
            Participant(id="1", name="Ира", side="A"),
            Participant(id="2", name="Громила", side="B"),
        ),
    )
    [line] = _zones(t, conflict)
    assert line == "📍 <b>Склад</b>: ⚡ <i>Усиление: Громила</i> · <i>Укрытие</i> [Ира ×2]"
