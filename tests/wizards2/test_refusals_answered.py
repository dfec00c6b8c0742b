"""Issue 36 item 8: a wizard's refusal of a press is said in the press's own answer (an alert),
not only as a «⛔» line in the message — in every system's wizard."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, create_game, open_wizard, seat_table
from tests.wizards.storyteller.driver import Player


async def _open(h: Harness, system: str, user: int = ALICE) -> Player:
    seat_table(h)
    announcement = await create_game(h, system, "Refusals")
    p = Player(h, user)
    p.message = await open_wizard(h, user, announcement)
    await p.settled()
    return p


async def test_cliche_attribute_refusal_is_in_the_answer(running: Harness) -> None:
    p = await _open(running, "cliche")
    await p.say("Mal")
    await p.press("a0p", 3)  # physical 1 → 4, the most an attribute may have
    await p.press("a0p")
    assert p.last_answer.show_alert and "4" in (p.last_answer.text or "")
    assert "⛔" in p.text and (p.last_answer.text or "").strip("⛔ ") in p.text


async def test_fate_crossings_refusal_is_in_the_answer(running: Harness) -> None:
    p = await _open(running, "fate")
    for answer in ("Ada", "Court alchemist", "Owes the guild", "Burnt the tower"):
        await p.say(answer)
    assert "Crossings" in p.text
    await p.press("nx")  # no crossing yet
    assert p.last_answer.show_alert and p.last_answer.text, p.last_answer
    assert "Crossings" in p.text and "⛔" in p.text


async def test_storyteller_refused_submission_is_in_the_answer(running: Harness) -> None:
    p = await _open(running, "storyteller")
    await p.say("Lily")
    while "Preview" not in p.text:
        await p.press("nx")
    await p.press("ok")  # nothing spent: the engine refuses it
    assert p.last_answer.show_alert and p.last_answer.text, p.last_answer
    assert "⛔" in p.text


async def test_lifegear_roles_refusal_is_in_the_answer(running: Harness) -> None:
    seat_table(running)
    await create_game(running, "lifegear", "Пустоши")
    p = Player(running, GM)
    await p.say("/roles")
    await p.press("new")
    await p.say("Стрелок")
    await p.say("5")
    await p.press("sn")  # no stat written yet
    assert p.last_answer.show_alert  # the GM's chat is in Russian
    assert p.last_answer.text == "Сначала добавьте хотя бы один параметр."
    assert p.last_answer.text in p.text
