"""Rough edges a first cliché session met in the creation wizard."""

from __future__ import annotations

from tests.conftest import Harness
from tests.wizards.cliche.test_cliche_wizard import press, say, to_clichés


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
