"""The ``cliche`` sheet renderer: escaped, compact, within Telegram's 4,096 characters."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.cliche import Attributes, Character, Cliche, ClicheOptions, Tool, ToolEffect
from engine.systems.cliche.allocation import MAX_CLICHES
from handlers.views.sheets import render_sheet
from handlers.wizards import cliche as cliche_wizard
from handlers.wizards import cliche_draft as draft
from handlers.wizards.cliche import create_dialogs


def _character(text: str, cliches: int = 2) -> Character:
    items = tuple(
        Cliche(
            name=f"<Cliché {i}>",
            dice=3,
            description=text,
            tools=(Tool(name="vest & co", when_missing=ToolEffect.HALF),),
        )
        for i in range(cliches)
    )
    return Character(
        name="Kaylee <Frye>",
        attributes=Attributes(physical=2, mental=4, social=3),
        cliches=items,
        hooks=(text,) * 10,
        backstory=text,
        gm_bonus_dice=2,
    )


def test_sheet_escapes_and_reads_in_russian() -> None:
    t = I18n("ru").translator("ru")
    html = render_sheet("cliche", _character("Чинит всё & вся"), t, "ru")
    assert html.startswith("<b>Kaylee &lt;Frye&gt;</b>")
    assert "&lt;Cliché 0&gt;</b> (3/3) — Чинит всё &amp; вся" in html
    assert "vest &amp; co (без него: половина костей)" in html
    assert "Физический 2" in html and "Бонусные кости от мастера: 2" in html


def test_longest_sheet_fits_one_message() -> None:
    t = I18n("en").translator("en")
    html = render_sheet("cliche", _character("x" * 500, cliches=MAX_CLICHES), t, "en")
    assert len(html) <= 4096 and "<Cliché" not in html


def test_draft_round_trip_and_dialogs_build() -> None:
    sheet = _character("text").model_dump(mode="json")
    options = ClicheOptions()
    restored = draft.character(draft.from_sheet(sheet, options))
    assert restored.model_dump(mode="json") == sheet
    assert draft.from_sheet({"broken": True}, options) == draft.fresh(options)
    assert len(create_dialogs()) == 1


def test_a_wizard_stored_before_the_flow_reads_its_flat_draft() -> None:
    """A wizard in progress stored its draft beside its state in ``dialog_data``; after the
    port the draft lives under ``draft``: the flow's ``upgrade`` reads the old shape into it
    (``flow.upgrade``, when an own window first asks for the draft)."""
    options = ClicheOptions()
    old = {**draft.from_sheet(_character("text").model_dump(mode="json"), options), "cur": 1}
    assert cliche_wizard.FLOW.upgrade is not None
    moved = cliche_wizard.FLOW.upgrade(dict(old))
    assert draft.character(moved) == _character("text")
    assert "cur" not in moved
