"""The flow's optional hooks, on a second toy of their own, over the emulator: the ids a released
wizard's buttons carry, a GM's list described in the text and the picked choice's data kept, a
step's own refusal and extra lines, a refused submission's heading, a wizard that cannot open,
and a wizard stored before its system's port resumed from its old dialog_data."""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest
from aiogram import Router
from aiogram_dialog import DialogManager
from sqlalchemy import text

from engine.common import SheetModel, Violation
from engine.text import msg
from handlers import wizards
from handlers.wizards.flow import Choice, Choose, Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.kinds import kept
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import opener
from tests.wizards.toy.test_flow_kinds import toy  # noqa: F401  (a fixture)
from tests.wizards.toy.toy import ToySheet

CLOSED: list[bool] = []  # the GM has written no mentors yet
FINISHED: list[SheetModel] = []


async def mentors(uow: Any, game_id: int) -> tuple[Choice, ...]:
    return (Choice("0", "Sage", {"title": "Sage of <Toys>", "age": 90}), Choice("1", "Imp", {}))


async def unavailable(uow: Any, game_id: int) -> str | None:
    return "No mentors yet: ask the GM." if CLOSED else None


def taken(raw: str, t: Any, party: Any) -> str | None:
    return f"«{escape(raw)}» is taken." if raw.strip() == "Rex" else None


def build(draft: dict[str, Any], options: Any) -> ToySheet:
    mentor = (draft.get(kept("mentor")) or {}).get("title", "")
    return ToySheet(name=draft.get("name", ""), mentor=mentor)


async def finish(manager: DialogManager, sheet: SheetModel) -> list[Violation]:
    if sheet.name == "Max":  # type: ignore[attr-defined]
        return [Violation("name", msg("toy.name"))]
    FINISHED.append(sheet)
    await manager.done()
    return []


HOOKED = Flow(
    name="hooked",
    steps=(
        Choose(
            "mentor", "Mentor", "Pick a mentor.", required=True, source=mentors,
            describe=lambda c, t: f"• {escape(c.label)}: {c.data.get('age', '?')} years",
        ),
        Text(
            "name", "Name", "What is the toy called?", required=True, check=taken,
            lines=lambda sheet, o, t, locale: f"Taught by {escape(sheet.mentor or '—')}",
        ),
    ),
    options=lambda raw: dict(raw),
    build=build,
    load=lambda sheet, o: dict(sheet or {}),
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: escape(f"{s.name} · {s.mentor}"),
    finish=finish,
    ids={"mentor.c": "m", "name.nx": "go", "name.bk": "back", "preview.j1": "pn",
         "cancel": "__cancel__"},
    refused="Not taken:\n{reasons}",
    unavailable=unavailable,
    upgrade=lambda old, o: {"name": old.get("toy_name", ""), kept("mentor"): {"title": "Old"}},
)  # fmt: skip
STATES = flow_states(HOOKED)


def _routers() -> list[Router]:
    return [opener("hooked", STATES, {}), build_dialog(HOOKED, STATES)]


@pytest.fixture
def hooked_routers(monkeypatch: pytest.MonkeyPatch) -> None:
    real = wizards.create_dialogs
    monkeypatch.setattr(wizards, "create_dialogs", lambda: [*_routers(), *real()])


@pytest.fixture
async def hooked(hooked_routers: None, toy: Player) -> Player:  # noqa: F811
    """The toy's bot and table (``toy``), serving this flow as well."""
    CLOSED.clear()
    FINISHED.clear()
    return toy


async def test_own_ids_a_described_source_kept_data_own_refusal_and_lines(hooked: Player) -> None:
    p = hooked
    await p.say("/hooked")
    assert "Step 1 of 3: Mentor" in p.text and "• Sage: 90 years" in p.text
    assert "• Imp: ? years" in p.text
    assert p.index_of("m:0") >= 0 and p.index_of("__cancel__") >= 0  # the ids kept
    await p.press("m:0")
    assert "Step 2 of 3: Name" in p.text and "Taught by Sage of <Toys>" in p.text  # its data
    assert p.index_of("back") >= 0 and p.index_of("go") >= 0
    await p.say("Rex")
    assert "«Rex» is taken." in p.text and "Step 2 of 3" in p.text  # the step's own refusal
    await p.say("Max")
    assert "Preview" in p.text and "Max · Sage of <Toys>" in p.text
    await p.press("ok")
    assert p.last_answer.show_alert and "Not taken:" in (p.last_answer.text or "")
    assert "Not taken:" in p.text and "A toy needs a name." in p.text
    await p.press("pn")
    await p.say("Ada")
    await p.press("ok")
    assert len(FINISHED) == 1 and FINISHED[0].mentor == "Sage of <Toys>"  # type: ignore[attr-defined]


async def test_a_wizard_that_cannot_open_says_why_and_closes(hooked: Player) -> None:
    p = hooked
    CLOSED.append(True)
    await p.say("/hooked")
    assert "No mentors yet: ask the GM." in p.text and p.labels() == []
    assert "Nothing to cancel" in (await p.say("/cancel")).text


async def test_a_wizard_stored_before_the_port_resumes_from_its_old_data(hooked: Player) -> None:
    p = hooked
    await p.say("/hooked")
    await p.press("m:1")
    old = {"toy_name": "Bob", "error": "an old refusal, a string"}  # no draft
    async with p.h.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE fsm_states SET data = jsonb_set(data, '{dialog_data}', CAST(:d AS jsonb)) "
                "WHERE data->>'state' LIKE 'HookedSG:%'"
            ),
            {"d": json.dumps(old)},
        )
    await p.h.restart()
    await p.press("go")  # the old answers read: the name is there, the step goes on
    assert "Preview" in p.text and "Bob · Old" in p.text


async def test_a_stored_wizard_without_a_draft_starts_empty_at_a_list_row(hooked: Player) -> None:
    """The first press after the upgrade may be a row of a list (a SubManager): no upgrade
    declared (the toy), the draft starts empty and the dot is taken."""
    p = hooked
    await p.say("/toy")
    await p.say("Rex")
    await p.press("nx")
    await p.press("c:h1")
    await p.press("nx")
    assert "Stats" in p.text
    async with p.h.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE fsm_states SET data = jsonb_set(data, '{dialog_data}', '{}'::jsonb) "
                "WHERE data->>'state' = 'ToySG:stats'"
            )
        )
    await p.h.restart()
    await p.press("d:might:p")
    assert "Points left: 4 of 5" in p.text and "Might ●○○" in p.labels()
