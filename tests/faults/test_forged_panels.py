"""A forged press of a panel's button (/options, /game's archive and co-GM buttons, /milestone,
/schedule, /res) on a message that is not that panel — a sealed /sroll card, a live tracker, a
/game card — is refused: the message stays as it was (text and keyboard) and nothing is written.
The same button on its own panel still works. The GM (who may press all of these) forges the
presses, and for /res the character's owner too."""

from __future__ import annotations

from sqlalchemy import text

from engine.systems import matter
from handlers.callbacks import ArchiveCD, CogmRemoveCD
from handlers.views import milestones as milestone_views
from handlers.views import resources as res_views
from handlers.views import schedules as schedule_views
from tests.conftest import Harness
from tests.faults.test_forged_owner import _gm_starts_private_chat, _press, _shown, _sroll
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tests.trackers import matter_helpers as mh
from tgemu import ChatMessage

# What a forged press could change: each table's rows, in a stable order.
TABLES = (
    "games", "game_members", "characters", "character_versions", "ledger", "schedules",
    "trackers", "rolls", "roll_requests", "fsm_states",
)  # fmt: skip


async def _database(h: Harness) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    async with h.engine.connect() as conn:
        for table in TABLES:
            rows = await conn.execute(text(f"SELECT x::text FROM {table} x ORDER BY 1"))
            found[table] = [r[0] for r in rows]
    return found


async def _table(h: Harness) -> tuple[int, ChatMessage, ChatMessage]:
    """A matter game: Alice's character (in a state a scene's end clears) and an NPC, a sealed
    /sroll card and a live scene tracker. Returns the character's id, the seal, the tracker."""
    seat_table(h)
    await create_game(h, "matter", "Пепел")
    confused = (matter.ActiveState(state=matter.StateId.CONFUSION),)
    asya = matter.new_character("Ася").model_copy(update={"states": confused})
    await tb.insert_character(h, "matter", matter.new_character("Гоблин"), owner=None, npc=True)
    character = await tb.insert_character(h, "matter", asya, owner=ALICE)
    await _gm_starts_private_chat(h)
    seal = await _sroll(h)
    tracker = await mh.open_scene(h)
    await h.emu.wait_idle()
    return character, seal, tracker


async def _forged(
    h: Harness, targets: tuple[ChatMessage, ...], presses: list[tuple[int, str]]
) -> None:
    """Each press on each target is refused in words; no target changes, nothing is written."""
    for target in targets:
        before = _shown(h, target)
        stored = await _database(h)
        for user, data in presses:
            answer = await _press(h, user, target, data)
            assert _shown(h, target) == before, (user, data)
            assert answer.show_alert and answer.text, (user, data, answer)
        await h.emu.wait_idle()
        assert await _database(h) == stored, target.text


def _data(message: ChatMessage, prefix: str) -> list[str]:
    shown = [str(b.get("callback_data", "")) for b in buttons(message)]
    return [data for data in shown if data.startswith(prefix)]


async def test_game_buttons_act_only_on_their_own_message(running: Harness) -> None:
    h = running
    _, seal, tracker = await _table(h)
    said = h.emu.send_text(BOB, GROUP, "Помогу вести")
    h.emu.send_text(GM, GROUP, "/cogm", reply_to=said.message_id)
    await h.emu.wait_bot_message(GROUP, contains="со-мастер", after=said.message_id)
    options = await tb.send_for_buttons(h, GM, "/options", "go:")
    card = await tb.send_for_buttons(h, GM, "/game", "arc:")
    gid = await tb.game_id(h)
    remove = CogmRemoveCD(game_id=gid, user_id=BOB).pack()
    archive = ArchiveCD(game_id=gid, confirm=True).pack()
    assert remove in _data(card, "cgr:")
    forged = [(GM, data) for data in (*_data(options, "go:"), archive, remove)]
    await _forged(h, (seal, tracker), forged)
    # A button of one panel on another panel is refused too.
    await _forged(h, (options,), [(GM, archive), (GM, remove)])
    await _forged(h, (card,), [(GM, data) for data in _data(options, "go:")])

    # On their own messages the same buttons work.
    before = await tb.scalar(h, "SELECT options::text FROM games")
    answer = await _press(h, GM, options, _data(options, "go:")[-1])
    assert not answer.show_alert, answer.text
    assert await tb.scalar(h, "SELECT options::text FROM games") != before
    assert tb.current(h, options).edits == 1
    assert not (await _press(h, GM, card, remove)).show_alert
    assert (
        await tb.scalar(h, "SELECT role FROM game_members WHERE user_id = :u", u=BOB) == "player"
    )
    asked = len(h.emu.bot_messages(GROUP))
    await _press(h, GM, card, ArchiveCD(game_id=gid, confirm=False).pack())
    question = h.emu.bot_messages(GROUP)[asked]
    assert not (await _press(h, GM, question, archive)).show_alert
    assert await tb.scalar(h, "SELECT archived_at IS NOT NULL FROM games")
    assert tb.current(h, question).edits == 1


async def test_milestone_buttons_act_only_on_their_own_message(running: Harness) -> None:
    h = running
    character, seal, tracker = await _table(h)
    picker = await tb.send_for_buttons(h, GM, "/milestone", "mlk:")
    kind = "scene_end"
    show = milestone_views.MilestoneKindCD(kind=kind).pack()
    confirm = milestone_views.MilestoneConfirmCD(kind=kind, fp="0" * 8).pack()
    cancel = milestone_views.MilestoneCancelCD().pack()
    await _forged(h, (seal, tracker), [(GM, show), (GM, confirm), (GM, cancel)])

    # The genuine flow: preview, confirm; then the notice's undo is forged elsewhere.
    assert not (await _press(h, GM, picker, show)).show_alert
    preview = tb.current(h, picker)
    confirm = next(b["callback_data"] for b in buttons(preview) if "mlc:" in b["callback_data"])
    assert not (await _press(h, GM, preview, confirm)).show_alert
    notice = tb.current(h, picker)
    assert (await tb.stored_sheet(h, character))["states"] == []
    (undo,) = _data(notice, "mlu:")
    await _forged(h, (seal, tracker), [(GM, undo), (GM, confirm)])
    assert (await tb.stored_sheet(h, character))["states"] == []
    assert not (await _press(h, GM, notice, undo)).show_alert
    assert (await tb.stored_sheet(h, character))["states"] != []
    assert tb.current(h, notice).edits == 3
    # «Cancel» (a button without fields) closes its own picker.
    picker = await tb.send_for_buttons(h, GM, "/milestone", "mlk:")
    assert not (await _press(h, GM, picker, cancel)).show_alert
    assert tb.current(h, picker).edits == 1 and not tb.current(h, picker).has_keyboard


async def test_schedule_buttons_act_only_on_their_own_message(running: Harness) -> None:
    h = running
    _, seal, tracker = await _table(h)
    panel = await tb.send_for_buttons(h, GM, "/schedule", "sca")
    steps = [
        schedule_views.ScheduleAddCD().pack(),
        schedule_views.ScheduleKindCD(kind="rest").pack(),
        schedule_views.ScheduleDayCD(kind="rest", day=6).pack(),
        schedule_views.ScheduleTimeCD(kind="rest", day=6, minute=1260).pack(),
        schedule_views.ScheduleSaveCD(kind="rest", day=6, minute=1260, remind=60).pack(),
    ]
    close = schedule_views.ScheduleCloseCD().pack()
    await _forged(h, (seal, tracker), [(GM, data) for data in (*steps, close)])
    assert await tb.scalar(h, "SELECT count(*) FROM schedules") == 0

    # The genuine flow saves one; its delete button is then forged elsewhere.
    for data in steps:
        assert not (await _press(h, GM, panel, data)).show_alert, data
    assert await tb.scalar(h, "SELECT count(*) FROM schedules") == 1
    (delete,) = _data(tb.current(h, panel), "scx:")
    await _forged(h, (seal, tracker), [(GM, delete)])
    assert await tb.scalar(h, "SELECT count(*) FROM schedules") == 1
    assert not (await _press(h, GM, panel, delete)).show_alert
    assert await tb.scalar(h, "SELECT count(*) FROM schedules") == 0
    assert not (await _press(h, GM, panel, close)).show_alert
    assert not tb.current(h, panel).has_keyboard


async def test_resource_buttons_act_only_on_their_character_panel(running: Harness) -> None:
    h = running
    character, seal, tracker = await _table(h)
    card = await tb.send_for_buttons(h, GM, "/game", "arc:")
    panel = await tb.send_for_buttons(h, ALICE, "/res", "run:")
    (undo,) = _data(panel, "run:")
    forged = [
        res_views.MatterHealthCD(character_id=character, delta=-1).pack(),
        res_views.MatterStateCD(
            character_id=character, state=matter.StateId.CONFUSION, on=False
        ).pack(),
        res_views.ResViewCD(character_id=character, view=res_views.PanelView.STATES).pack(),
        undo,
    ]
    presses = [(user, data) for user in (ALICE, GM) for data in forged]
    await _forged(h, (seal, tracker, card), presses)

    # The panel's own button works; its undo is then forged elsewhere, and works at home.
    version = await tb.scalar(h, "SELECT version FROM characters WHERE id = :c", c=character)
    assert not (await _press(h, ALICE, panel, forged[0])).show_alert
    assert await tb.scalar(h, "SELECT version FROM characters WHERE id = :c", c=character) == (
        version + 1
    )
    (undo,) = _data(tb.current(h, panel), "run:")
    await _forged(h, (seal, tracker, card), [(GM, undo)])
    assert not (await _press(h, GM, panel, undo)).show_alert
    assert await tb.scalar(h, "SELECT version FROM characters WHERE id = :c", c=character) == (
        version + 2
    )
    assert tb.current(h, panel).edits == 2
