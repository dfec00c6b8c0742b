"""A second toy flow, worded as a system released before the flow would be: its own heads and
button words, a step it draws itself (``Custom``), a start hook and an older stored shape."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from aiogram.types import CallbackQuery
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Button
from aiogram_dialog.widgets.text import Const
from sqlalchemy import text

from engine.common import SheetModel
from handlers.wizards.flow import Flow, Text
from handlers.wizards.flow.custom import Custom, Shown, step_fine, step_refused
from handlers.wizards.flow.custom import draft as draft_of
from handlers.wizards.flow.wording import Wording
from tests.conftest import Harness
from tests.wizards.toy.toy import ToySheet


async def _less(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    draft = draft_of(manager)
    if int(draft.get("tally", 0)) <= 0:
        step_refused(manager, escape("No <tally> to take back."))
        return
    draft["tally"] = int(draft["tally"]) - 1
    step_fine(manager)


async def _more(callback: CallbackQuery, widget: Any, manager: DialogManager) -> None:
    draft_of(manager)["tally"] = int(draft_of(manager).get("tally", 0)) + 1
    step_fine(manager)


async def _tally(shown: Shown) -> dict[str, Any]:
    draft = draft_of(shown.manager)
    return {"lines": [f"Tally: {draft.get('tally', 0)} ({draft.get('origin', '?')})"], "n": 7}


def _render(sheet: SheetModel, t: Any, locale: str) -> str:
    assert isinstance(sheet, ToySheet)
    return escape(f"{sheet.name} counted {sheet.stats.get('tally')}")


async def _started(manager: DialogManager) -> None:
    draft_of(manager)["origin"] = "started"


WORDED = Flow(
    name="worded",
    steps=(
        Text("name", "✏️ The name", "Step 1 of 2. What is it called?", required=True,
             unfit="One line, at most {limit}."),
        Custom(
            "tally", "✏️ The tally", "Step 2 of 2. Count for {name}, up to {n}.",
            widgets=lambda: [Button(Const("less"), id="ls", on_click=_less),
                             Button(Const("more"), id="mr", on_click=_more)],
            data=_tally,
        ),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("name", ""), stats={"tally": int(d.get("tally", 0))}),
    load=lambda sheet, o: {"name": (sheet or {}).get("name", ""), "tally": 0},
    validate=lambda sheet, o: [],
    render=_render,
    wording=Wording(
        nav=("◀️ Back", "Next ▶️", "Skip ▶️"), now="\nNow: <i>{current}</i>", jump="{title}",
        not_text="Text, or /cancel.",
        buttons_only="Buttons only here.", own_heads=True, preview_head="<b>Look</b> it over.\n",
    ),
    started=_started,
    upgrade=lambda old, o: {"name": old.get("title", ""), "tally": old.get("count", 0)},
)  # fmt: skip


async def store_older_shape(h: Harness, state: str, old: dict[str, Any]) -> None:
    """The open wizard at ``state`` gets ``old`` as its ``dialog_data``: what a hand-written
    wizard stored before its system used the flow (no ``draft``)."""
    swap = "jsonb_set(data, '{dialog_data}', CAST(:old AS jsonb))"
    async with h.engine.begin() as conn:
        changed = await conn.execute(
            text(f"UPDATE fsm_states SET data = {swap} WHERE data->>'state' = :state"),
            {"old": json.dumps(old), "state": state},
        )
        assert changed.rowcount == 1
