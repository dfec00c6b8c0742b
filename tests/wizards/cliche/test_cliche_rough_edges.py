"""Rough edges a first cliché session met in the creation wizard."""

from __future__ import annotations

from bot.i18n import I18n
from engine.systems.cliche import Attributes, Character, Cliche
from handlers.views.sheets import render_sheet
from tests.conftest import Harness
from tests.wizards.cliche.test_cliche_wizard import add_cliche, press, say, to_clichés


async def test_one_die_is_one_die(running: Harness) -> None:
    """A new cliché starts at one die, and its dice step read ««Soldier»: 1 dice»."""
    await to_clichés(running)
    await press(running, "Add a cliché")
    view = await say(running, "Soldier")
    assert "«Soldier»: 1 die" in view.text and "1 dice" not in view.text
    view = await press(running, "➕")
    assert "«Soldier»: 2 dice" in view.text


def test_one_die_in_russian(running: Harness) -> None:
    t = running.runtime.dispatcher["i18n"].translator("ru") if running.runtime else None
    assert t is not None
    words = {
        n: t.plural("«{cliche}»: <b>{n}</b> die", "«{cliche}»: <b>{n}</b> dice", n, cliche="Пилот")
        for n in (1, 3, 5)
    }
    assert words == {
        1: "«Пилот»: <b>1</b> кость",
        3: "«Пилот»: <b>3</b> кости",
        5: "«Пилот»: <b>5</b> костей",
    }


def test_a_quick_npc_sheet_has_no_zero_attributes_and_one_die_reads_one_die() -> None:
    """``/npc Ривер: Дикарь 1`` showed «💪 Физический 0 · 🧠 Ментальный 0 · 🗣 Социальный 0»
    (a quick NPC has no attributes) and, in English, «Clichés (1 dice)»."""
    npc = Character(name="River", cliches=(Cliche(name="Feral", dice=1),))
    en = render_sheet("cliche", npc, I18n("ru").translator("en"), "en")
    assert "Physical" not in en and "🎲 Clichés (1 die):" in en
    ru = render_sheet("cliche", npc, I18n("ru").translator("ru"), "ru")
    assert "Физический" not in ru and "🎲 Клише (костей: 1):" in ru
    pc = npc.model_copy(update={"attributes": Attributes(physical=4, mental=3, social=2)})
    two = pc.model_copy(update={"cliches": (Cliche(name="Feral", dice=2),)})
    en = render_sheet("cliche", two, I18n("ru").translator("en"), "en")
    assert "💪 Physical 4 · 🧠 Mental 3 · 🗣 Social 2" in en and "Clichés (2 dice):" in en


async def test_the_clichés_step_shows_its_warnings(running: Harness) -> None:
    """The list's warnings line never showed: the engine files its warnings as the GM's notes
    (``note.cliches``), and the step looked for ``cliches`` only."""
    await to_clichés(running, base_dice=11)
    for i in range(10):
        view = await add_cliche(running, f"C{i}", 1, None)
    assert "looks odd" not in view.text
    view = await add_cliche(running, "C10", 1, None)
    assert "⚠️ More than 10 clichés (11) looks odd." in view.text
