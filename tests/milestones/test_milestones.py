"""/milestone end to end: preview equals what is applied, the notice lists it, undo restores,
only GMs press, a stale preview is refused; set-based statements for a big table."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.i18n import I18n
from bot.services import milestones as service
from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.common import Change, SheetModel, name_key
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.text import msg
from handlers.views import milestones as views
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tgemu import ChatMessage


async def _insert(engine: AsyncEngine, game_id: int, system: str, sheet: SheetModel,
                  owner: int | None) -> int:  # fmt: skip
    async with engine.begin() as conn:
        if owner is not None:
            await conn.execute(
                text(
                    "INSERT INTO game_members (game_id, user_id, role) "
                    "VALUES (:g, :u, 'player') ON CONFLICT DO NOTHING"
                ),
                {"g": game_id, "u": owner},
            )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) VALUES (:g, :u, :npc, "
                ":system, :name, :key, 'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": game_id, "u": owner, "npc": owner is None, "system": system,
                "name": getattr(sheet, "name", "") or "Hero", "sheet": sheet.model_dump_json(),
                "key": name_key(getattr(sheet, "name", "") or "Hero"),
                "schema": SYSTEMS[system].schema_version,
            },
        )  # fmt: skip
        return int(row.scalar_one())


async def _sheets(engine: AsyncEngine) -> dict[int, dict[str, Any]]:
    async with engine.connect() as conn:
        rows = await conn.execute(text("SELECT id, sheet FROM characters ORDER BY id"))
        return {r[0]: r[1] for r in rows}


async def _press(h: Harness, user: int, message: ChatMessage, prefix: str) -> Any:
    index = next(
        i for i, b in enumerate(buttons(message)) if b["callback_data"].startswith(prefix)
    )
    pressed = h.emu.press_button(user, GROUP, message.message_id, index)
    return await h.emu.wait_callback_answer(pressed.callback_query_id)


async def _picker(h: Harness) -> ChatMessage:
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(GM, GROUP, "/milestone")
    return await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)


async def _preview(h: Harness, kind: str) -> ChatMessage:
    picker = await _picker(h)
    answer = await _press(h, GM, picker, f"mlk:{kind}")
    assert not answer.show_alert
    return tb.current(h, picker)


def _body(message: ChatMessage) -> list[str]:
    """The per-character lines: between the title and the preview's fingerprint line."""
    lines = message.text.splitlines()[2:]
    return [line for line in lines if line and not line.startswith(("Предпросмотр", "Preview"))]


async def _table(
    h: Harness, system: str, sheets: list[tuple[SheetModel, int | None]]
) -> list[int]:
    seat_table(h)
    await create_game(h, system, "Вехи")
    game_id = await tb.game_id(h)
    return [await _insert(h.engine, game_id, system, s, owner) for s, owner in sheets]


def _fate_table() -> list[tuple[SheetModel, int | None]]:
    moderate = fate.SlotId.MODERATE
    mira = fate.new_character("Мира").model_copy(
        update={
            "fate_points": 1,
            "refresh": 3,
            "stress": fate.StressMarks(physical=(1,)),
            "consequences": (
                fate.Consequence(slot=moderate, text="Сломанная рука", treated=True),
            ),
        }
    )
    boris = fate.new_character("Борис").model_copy(
        update={
            "fate_points": 5,
            "refresh": 3,
            "consequences": (fate.Consequence(slot=moderate, text="Глубокий порез"),),
        }
    )
    npc = fate.new_character("Стражник").model_copy(update={"fate_points": 0})
    return [(mira, ALICE), (boris, BOB), (npc, None)]


async def test_fate_minor_milestone_preview_apply_notice_undo(running: Harness) -> None:
    h = running
    mira, boris, npc = await _table(h, "fate", _fate_table())
    before = await _sheets(h.engine)
    preview = await _preview(h, "minor")
    assert "Мира" in preview.text and "1 → 3" in preview.text
    assert "Сломанная рука" in preview.text and "Глубокий порез" not in preview.text
    assert "Стражник" in preview.text and "0 → 3" in preview.text
    assert await _sheets(h.engine) == before  # the preview writes nothing

    # A player cannot confirm: an alert, nothing changes.
    refused = await _press(h, ALICE, preview, "mlc:")
    assert refused.show_alert
    assert await _sheets(h.engine) == before

    await _press(h, GM, preview, "mlc:")
    notice = tb.current(h, preview)
    assert _body(notice) == _body(preview)  # the notice lists what the preview showed
    after = await _sheets(h.engine)
    assert after[mira]["fate_points"] == 3 and after[mira]["stress"]["physical"] == []
    assert after[mira]["consequences"] == []
    assert after[boris]["fate_points"] == 5  # above refresh: stays
    assert [c["text"] for c in after[boris]["consequences"]] == ["Глубокий порез"]  # untreated
    assert after[npc]["fate_points"] == 3
    # What was applied is exactly the engine's milestone on the previewed sheets.
    for cid in (mira, boris, npc):
        sheet = fate.Character.model_validate(before[cid])
        expected, _ = fate.apply_milestone(sheet, fate.MilestoneKind.MINOR)
        assert after[cid] == json.loads(expected.model_dump_json())
    async with h.engine.connect() as conn:
        batches = (await conn.execute(text("SELECT DISTINCT batch FROM ledger"))).all()
    assert len(batches) == 1  # one batch for the whole table

    refused = await _press(h, BOB, tb.current(h, preview), "mlu:")
    assert refused.show_alert
    assert await _sheets(h.engine) == after
    await _press(h, GM, tb.current(h, preview), "mlu:")
    assert await _sheets(h.engine) == before
    undone = tb.current(h, preview)
    assert "↩️" in undone.text.splitlines()[-1] and not buttons(undone)


async def test_undo_is_refused_after_an_hour_and_after_a_later_change(running: Harness) -> None:
    h = running
    await _table(h, "fate", _fate_table())
    preview = await _preview(h, "minor")
    await _press(h, GM, preview, "mlc:")
    applied = await _sheets(h.engine)
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE ledger SET created_at = created_at - interval '61 min'"))
    assert (await _press(h, GM, tb.current(h, preview), "mlu:")).show_alert
    assert await _sheets(h.engine) == applied
    async with h.engine.begin() as conn:
        await conn.execute(text("UPDATE ledger SET created_at = now()"))
    nothing = await _preview(h, "rest_stop")  # nothing left to clear: no Confirm to press
    assert "ничего не меняется" in nothing.text
    assert [b["callback_data"] for b in buttons(nothing)] == ["mlx"]
    async with h.engine.begin() as conn:  # a later ledger action of another kind
        await conn.execute(text("UPDATE ledger SET batch = 'other' "))
    assert (await _press(h, GM, tb.current(h, preview), "mlu:")).show_alert
    assert await _sheets(h.engine) == applied


async def test_a_stale_preview_is_refused_and_shown_again(running: Harness) -> None:
    h = running
    mira, *_ = await _table(h, "fate", _fate_table())
    preview = await _preview(h, "minor")
    async with h.engine.begin() as conn:  # Mira spends her last point meanwhile
        await conn.execute(
            text(
                "UPDATE characters SET sheet = jsonb_set(sheet, '{fate_points}', '0'), "
                "version = version + 1 WHERE id = :i"
            ),
            {"i": mira},
        )
    before = await _sheets(h.engine)
    answer = await _press(h, GM, preview, "mlc:")
    assert answer.show_alert
    assert await _sheets(h.engine) == before
    fresh = tb.current(h, preview)
    assert "0 → 3" in fresh.text and "1 → 3" not in fresh.text
    await _press(h, GM, fresh, "mlc:")
    assert (await _sheets(h.engine))[mira]["fate_points"] == 3


async def test_a_non_gm_cannot_open_or_pick(running: Harness) -> None:
    h = running
    await _table(h, "fate", _fate_table())
    picker = await _picker(h)
    before = await _sheets(h.engine)
    answer = await _press(h, ALICE, picker, "mlk:minor")
    assert answer.show_alert
    assert tb.current(h, picker).edits == 0 and await _sheets(h.engine) == before
    last = h.emu.last_bot_message(GROUP)
    h.emu.send_text(ALICE, GROUP, "/milestone")
    reply = await h.emu.wait_bot_message(GROUP, after=last.message_id if last else 0)
    assert not buttons(reply)


def _cases() -> list[tuple[str, str, SheetModel, Any]]:
    """(system, kind, a sheet something happens to, the engine's rule for the expected sheet)"""
    return [
        (
            "storyteller", "chapter", storyteller.new_character("Эйлин"),
            lambda s: storyteller.apply_milestone(s, storyteller.MilestoneKind.CHAPTER),
        ),
        (
            "matter", "scene_end",
            matter.new_character("Пепел").model_copy(
                update={"states": (matter.ActiveState(state=matter.StateId.CONFUSION),)}
            ),
            lambda s: matter.apply_milestone(s, matter.MilestoneKind.SCENE_END),
        ),
        (
            "lifegear", "full_rest",
            lifegear.Character(
                name="Ли",
                gear=(
                    lifegear.Item(
                        id="a1", name="Рывок", kind=lifegear.ItemKind.ABILITY,
                        state=lifegear.ItemState.SPENT,
                    ),
                ),
            ),
            lambda s: lifegear.apply_milestone(s, lifegear.MilestoneKind.FULL_REST),
        ),
        (
            "cliche", "recovery",
            cliche.Character(name="Кэп", cliches=(cliche.Cliche(name="Солдат", dice=4, lost=3),)),
            lambda s: cliche.apply_milestone(s, cliche.MilestoneKind.RECOVERY),
        ),
    ]  # fmt: skip


async def test_each_system_applies_what_it_previewed(running: Harness) -> None:
    h = running
    seat_table(h)
    for system, kind, sheet, rule in _cases():
        await create_game(h, system, "Вехи")
        game_id = await tb.game_id(h)
        cid = await _insert(h.engine, game_id, system, sheet, ALICE)
        preview = await _preview(h, kind)
        assert sheet.name in preview.text and "→" in preview.text  # type: ignore[attr-defined]
        await _press(h, GM, preview, "mlc:")
        notice = tb.current(h, preview)
        assert _body(notice) == _body(preview)
        expected, changes = rule(sheet)
        assert changes
        assert (await _sheets(h.engine))[cid] == expected.model_dump(mode="json")
        async with h.engine.begin() as conn:  # next system: this game retires
            await conn.execute(text("UPDATE games SET archived_at = now() WHERE id = :g"),
                               {"g": game_id})  # fmt: skip


async def test_lifegear_item_states_read_in_russian(running: Harness) -> None:
    """A first session: the «Конец боя» preview read «Кожаная куртка: spent → ready» to a
    Russian GM; the states are the sheet's own words, in preview and notice alike."""
    h = running
    coat = lifegear.Item(
        id="coat", name="Кожаная куртка", kind=lifegear.ItemKind.ARMOR,
        state=lifegear.ItemState.SPENT,
    )  # fmt: skip
    await _table(h, "lifegear", [(lifegear.Character(name="Эльза", gear=(coat,)), ALICE)])
    preview = await _preview(h, "fight_end")  # the GM reads Russian
    assert "  • Кожаная куртка: потрачено → годно" in preview.text.splitlines(), preview.text
    assert "spent" not in preview.text and "ready" not in preview.text
    await _press(h, GM, preview, "mlc:")
    notice = tb.current(h, preview)
    assert _body(notice) == _body(preview)


async def test_a_double_press_applies_once_and_keeps_the_notice(running: Harness) -> None:
    h = running
    mira, *_ = await _table(h, "fate", _fate_table())
    preview = await _preview(h, "minor")
    data = next(
        b["callback_data"] for b in buttons(preview) if b["callback_data"].startswith("mlc:")
    )
    first = h.emu.press(GM, GROUP, preview.message_id, data)
    second = h.emu.press(GM, GROUP, preview.message_id, data)  # queued before any edit
    answers = [await h.emu.wait_callback_answer(p.callback_query_id) for p in (first, second)]
    assert sorted(a.show_alert for a in answers) == [False, True]
    async with h.engine.connect() as conn:
        batches = (await conn.execute(text("SELECT count(DISTINCT batch) FROM ledger"))).scalar()
    assert batches == 1
    notice = tb.current(h, preview)
    assert _body(notice) == _body(preview) and any(
        "mlu:" in b["callback_data"] for b in buttons(notice)
    )
    assert (await _sheets(h.engine))[mira]["fate_points"] == 3


async def test_cliche_advancement_rolls_are_logged_and_applied(running: Harness) -> None:
    h = running
    hero = cliche.Character(
        name="Кэп",
        cliches=(
            cliche.Cliche(name="Солдат", dice=2),
            cliche.Cliche(name="Броня", dice=3, armor=True),
            cliche.Cliche(name="Легенда", dice=6),
        ),
    )
    (cid,) = await _table(h, "cliche", [(hero, ALICE)])
    preview = await _preview(h, "end_of_adventure")
    assert "Солдат" in preview.text and "2d6" in preview.text
    assert "Броня" not in preview.text and "Легенда" not in preview.text
    assert "бросок развития «Солдат»: 2d6, все чётные → +1 кость" in preview.text
    confirm = next(b["callback_data"] for b in buttons(preview) if "mlc:" in b["callback_data"])
    await _press(h, GM, preview, "mlc:")
    async with h.engine.connect() as conn:
        rolls = (await conn.execute(text("SELECT roll_id, expression, faces FROM rolls"))).all()
    assert len(rolls) == 1
    roll_id, expression, faces = rolls[0]
    assert roll_id == f"ms:{preview.message_id}:{cid}:Солдат" and expression == "2d6"
    faces = json.loads(faces) if isinstance(faces, str) else faces
    advanced = all(f % 2 == 0 for f in faces)
    sheet = (await _sheets(h.engine))[cid]
    assert sheet["cliches"][0]["dice"] == (3 if advanced else 2)
    notice = tb.current(h, preview)
    assert " ".join(str(f) for f in faces) in notice.text
    # the engine's words for the outcome (all even: +1 die)
    assert ("все чётные, +1 кость" if advanced else "не все чётные") in notice.text
    # A late press of Confirm on the notice rolls nothing more and leaves the notice alone.
    late = h.emu.press(GM, GROUP, preview.message_id, confirm)
    assert (await h.emu.wait_callback_answer(late.callback_query_id)).show_alert
    async with h.engine.connect() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one() == 1
    assert tb.current(h, preview).text == notice.text


async def test_statements_do_not_grow_with_the_table(clean_db: AsyncEngine) -> None:
    factory = create_session_factory(clean_db)
    counts = []
    for chat, size in ((-100901, 3), (-100902, 30)):
        async with UnitOfWork(factory) as uow:
            game = await uow.games.create(chat, "fate", "Big", GM)
            await uow.commit()
        for i in range(size):
            sheet = fate.new_character(f"Герой {i}").model_copy(update={"fate_points": 0})
            await _insert(clean_db, game.id, "fate", sheet, None)
        async with UnitOfWork(factory) as uow:
            plan = await service.preview(uow, game, "minor")
        assert len(plan.characters) == size
        statements: list[str] = []

        def count(*args: Any, seen: list[str] = statements) -> None:
            seen.append(args[2])

        event.listen(clean_db.sync_engine, "before_cursor_execute", count)
        try:
            async with UnitOfWork(factory) as uow:
                applied = await service.apply(
                    uow, game, "minor", fingerprint=plan.fingerprint, actor_user_id=GM,
                    actor_name="GM", preview_message_id=1,
                )  # fmt: skip
        finally:
            event.remove(clean_db.sync_engine, "before_cursor_execute", count)
        assert applied.batch is not None and len(applied.plan.characters) == size
        counts.append(len(statements))
    assert counts[0] == counts[1] and counts[1] <= 10


def test_a_huge_table_fits_one_message() -> None:
    t = I18n("ru").translator("ru")
    change = Change("fate_points", msg("fate.change.fate_points"), 0, 3)
    characters = tuple(
        service.CharacterPlan(i, f"<Герой & {i}>", (change,) * 3) for i in range(300)
    )
    plan = service.Plan("fate", "minor", characters, 0)
    text = views.preview(t, "ru", plan)
    assert len(text) < 4096 - 100 and "&lt;Герой &amp; 0&gt;" in text
    assert text.splitlines()[-1].startswith("… и ещё ")
    assert plan.fingerprint not in text  # the fingerprint rides on the confirm button
    confirm = views.preview_keyboard(t, plan).inline_keyboard[0][0].callback_data
    assert confirm == views.MilestoneConfirmCD(kind="minor", fp=plan.fingerprint).pack()


async def test_history_names_which_milestone(running: Harness) -> None:
    """/history read «веха · Мастер» for any milestone: it names the one applied, as
    /milestone did («веха: Малая веха»)."""
    h = running
    await _table(h, "fate", _fate_table())
    preview = await _preview(h, "minor")
    await _press(h, GM, preview, "mlc:")
    said = await tb.send_and_answer(h, GM, "/history Мира")
    title = I18n("ru").translator("ru")(service.kind_title("fate", "minor"))
    assert f"веха: {title} · " in said.text, said.text
