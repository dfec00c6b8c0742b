"""A flow that keeps a record of its own rather than a character (a GM's template, lifegear's
roles): a typed choice refused in the step's own words (``Choose.check``), a drawn step that
says what it needs at «Next» (``Custom.needs``), the submit under its released id and more
buttons beside it (``Flow.ids["preview.ok"]``, ``Flow.preview_widgets``), and ``Flow.finish``
storing the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from aiogram_dialog import DialogManager
from aiogram_dialog.widgets.kbd import Button
from aiogram_dialog.widgets.text import Const

from engine.common import SheetModel, Violation
from handlers.wizards.flow import Choice, Choose, Custom, Flow, flow_states
from handlers.wizards.flow.custom import draft, step_fine
from tests.conftest import Harness
from tests.wizards.toy.driven import play
from tests.wizards.toy.toy import ToySheet

KEPT: dict[str, tuple[str, ...]] = {}  # the records kept: size → tags


def _digit(raw: str, t: Any, party: Sequence[str]) -> str | None:
    return None if raw.strip() in set("123456789") else "One digit, please."


async def _tag(callback: Any, widget: Any, manager: DialogManager) -> None:
    draft(manager)["tags"] = ["red"]
    step_fine(manager)


async def _keep(manager: DialogManager, sheet: SheetModel) -> list[Violation]:
    assert isinstance(sheet, ToySheet)
    KEPT[sheet.name] = sheet.gifts
    await manager.done()
    return []


RECORD = Flow(
    name="record",
    steps=(
        Choose(
            "size", "Size", "How big?", (Choice("1", "1"), Choice("2", "2")), required=True,
            typed=True, check=_digit,
        ),
        Custom(
            "tags", "Tags", "Tag it.",
            widgets=lambda: [Button(Const("tag"), id="tg", on_click=_tag)],
            data=lambda shown: {"lines": [", ".join(draft(shown.manager).get("tags") or [])]},
            needs="Tag it first.",
        ),
    ),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("size", ""), gifts=tuple(d.get("tags") or ())),
    load=lambda sheet, o: {},
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: f"size {s.name}",  # type: ignore[attr-defined]
    submit_label="Keep",
    finish=_keep,
    ids={"preview.ok": "keep"},
    preview_widgets=lambda: [Button(Const("Drop"), id="drop")],
)  # fmt: skip


async def test_a_record_is_kept_through_its_own_checks_and_buttons(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = await play(harness, monkeypatch, RECORD, flow_states(RECORD))
    await p.say("/record")
    await p.say("12")
    assert "Step 1 of 3: Size" in p.text and "One digit, please." in p.text
    await p.say("7")
    assert "Step 2 of 3: Tags" in p.text
    await p.press("nx")
    assert p.last_answer.show_alert and p.last_answer.text == "Tag it first."
    assert "Tag it first." in p.text
    await p.press("tg")
    await p.press("nx")
    assert "size 7" in p.text and {"Keep", "Drop"} <= set(p.labels())
    KEPT.clear()
    await p.press("keep")
    assert KEPT == {"7": ("red",)}
