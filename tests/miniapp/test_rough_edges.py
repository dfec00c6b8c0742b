"""Rough edges of the Mini App a player and a GM met on a phone, over HTTP: a forged request
is answered in the user's words (never a bare status or an English code word) and changes
nothing; the ledger names a player the bot has not met in a chat; a negative roll has a real
minus; empty lists say what fills them; an archived sheet offers no button; a gain that asks
the GM says so on every button that asks."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import text

from bot.services.rolls import roll_logged
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine import formats
from engine.systems import lifegear, matter
from engine.systems.lifegear import ItemState
from engine.systems.matter.sheet import ActiveState
from engine.systems.matter.states import StateId
from tests.games.helpers import ALICE, GROUP, create_game, seat_table
from tests.helpers.table import insert_character, ledger_kinds, stored_sheet
from tests.miniapp.cases import CASES
from tests.miniapp.conftest import MiniApp
from tests.miniapp.test_api import _table, _version

ACT_BUTTON = re.compile(r"<button[^>]*class=\"act[ \"]")


async def test_a_forged_action_is_refused_in_the_users_words(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    version = await _version(mini_app, cid)
    russian = mini_app.init_data(ALICE, language="ru")
    forged = (
        {"version": version, "op": {"kind": "fate_points", "delta": 7}},  # out of range
        {"version": "1", "op": {"kind": "fate_points", "delta": -1}},  # not a version
        {"op": {"kind": "fate_points", "delta": -1}},  # no version at all
        {"version": version, "op": {"kind": "stress", "track": "physical", "box": 99,
                                    "mark": True}},
    )  # fmt: skip
    for body in forged:
        status, answer, res = await mini_app.call(
            f"api/sheet/{cid}/act", init_data=russian, body=body
        )
        assert status == 400 and "application/json" in res.headers["Content-Type"], answer
        assert answer == {"error": "Такой кнопки на странице нет: ничего не изменилось."}
    status, answer, _ = await mini_app.call(f"api/sheet/{cid}/act", user=ALICE, body=forged[0])
    assert answer["error"] == "This is not a button of the page; nothing was changed."
    assert (await stored_sheet(mini_app.h, cid))["fate_points"] == 3
    assert await ledger_kinds(mini_app.h) == []


@pytest.mark.parametrize("path", ["api/sheet/abc", "api/sheet/abc/act"])
async def test_a_path_that_is_no_character_answers_in_words(mini_app: MiniApp, path: str) -> None:
    await _table(mini_app)
    body = {"version": 1, "op": {"kind": "fate_points", "delta": -1}} if "act" in path else None
    status, answer, _ = await mini_app.call(
        path, init_data=mini_app.init_data(ALICE, language="ru"), body=body
    )
    assert (status, answer) == (404, {"error": "Этот персонаж вам недоступен."})


async def test_the_ledger_names_a_player_the_bot_never_met(mini_app: MiniApp) -> None:
    """Alice opens the page before ever writing to the bot: her press is hers by name."""
    cid = await _table(mini_app)
    async with mini_app.h.engine.connect() as conn:
        known = await conn.execute(text("SELECT count(*) FROM users WHERE id = :u"), {"u": ALICE})
        assert known.scalar_one() == 0
    body = {"version": await _version(mini_app, cid), "op": {"kind": "fate_points", "delta": -1}}
    status, answer, _ = await mini_app.call(f"api/sheet/{cid}/act", user=ALICE, body=body)
    assert status == 200, answer
    line = re.search(r"<li data-ledger=[^>]*>(.*?)</li>", answer["html"], re.S)
    assert line is not None and "Alice" in line.group(1), answer["html"]
    assert str(ALICE) not in re.sub(r"<[^>]+>", "", line.group(1))


async def _rolled(app: MiniApp, expression: str) -> str:
    """The page's roll line after Ира rolled ``expression`` in the game's chat."""
    cid = await _table(app)
    async with UnitOfWork(create_session_factory(app.h.engine)) as uow:
        await roll_logged(
            uow, chat_id=GROUP, roll_id="t:1", text=expression, actor="Alice", subject="Ира",
            actor_user_id=ALICE,
        )  # fmt: skip
    status, body, _ = await app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200
    line = re.search(r"<li data-roll=[^>]*>(.*?)</li>", body["html"], re.S)
    assert line is not None, body["html"]
    return line.group(1)


async def test_a_negative_roll_has_a_real_minus(mini_app: MiniApp) -> None:
    shown = re.search(r"<b>([^<]*)</b>", await _rolled(mini_app, "4dF-6"))
    assert shown is not None
    # 4dF−6 is −2 at most: the page's minus is the formatter's, not a hyphen
    assert shown.group(1).startswith(formats.MINUS) and "-" not in shown.group(1)


async def test_empty_lists_say_what_fills_them(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}", init_data=mini_app.init_data(ALICE, language="ru")
    )
    assert status == 200
    assert "здесь появятся нажатия на этой странице и в /res" in body["html"]
    assert "здесь появятся броски персонажа в чате игры" in body["html"]


async def test_an_archived_sheet_offers_no_button(mini_app: MiniApp) -> None:
    cid = await _table(mini_app)
    status, before, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200 and ACT_BUTTON.search(before["html"])
    async with mini_app.h.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200 and not ACT_BUTTON.search(body["html"]), body["html"]
    assert 'class="box marked"' in body["html"]  # the stress boxes are still shown
    # nothing will be pressed here any more: the empty ledger promises nothing
    assert "No changes were recorded." in body["html"] and "/res" not in body["html"]
    status, listed, _ = await mini_app.call("api/characters", user=ALICE)
    assert listed["ui"]["archived"] == "archived" and listed["characters"][0]["archived"]


async def _asks(app: MiniApp, system: str, hero: object) -> str:
    seat_table(app.h)
    await create_game(app.h, system, "Кампания")
    cid = await insert_character(app.h, system, hero, owner=ALICE)  # type: ignore[arg-type]
    status, body, _ = await app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200, body
    return str(body["html"])


async def test_ready_again_says_it_asks(mini_app: MiniApp) -> None:
    """Lifegear's «Ready» is a gain a player asks the GM for, like «+1»: it carries the «🙋»
    and its hint too."""
    bow = lifegear.Item(id="bow", name="Лук", kind=lifegear.ItemKind.WEAPON, state=ItemState.SPENT)
    hero = lifegear.new_character("Лина").model_copy(update={"max_lives": 3, "gear": (bow,)})
    page = await _asks(mini_app, "lifegear", hero)
    assert re.search(r'class="act plus ask"[^>]*title="Ask the GM"[^>]*>🙋 Ready<', page), page


async def test_a_state_off_says_it_asks(mini_app: MiniApp) -> None:
    kai = matter.new_character("Кай").model_copy(
        update={"states": (ActiveState(state=StateId.POISON),)}
    )
    page = await _asks(mini_app, "matter", kai)
    assert re.search(r'class="act minus ask"[^>]*title="Ask the GM"[^>]*>🙋 ✖<', page), page


async def test_a_roll_says_when(mini_app: MiniApp) -> None:
    """A roll's line ends with its moment on the game's clock, as a change's line does."""
    line = await _rolled(mini_app, "2d6")
    assert re.search(r"Ира · \d\d\.\d\d \d\d:\d\d</small>$", line), line


async def test_a_stat_and_its_dice_share_a_row(mini_app: MiniApp) -> None:
    seat_table(mini_app.h)
    await create_game(mini_app.h, "lifegear", "Кампания")
    stats = (lifegear.Stat(name="Сила", dice="1d8+3"), lifegear.Stat(name="Стрельба", dice="1d6"))
    hero = lifegear.new_character("Лина").model_copy(update={"max_lives": 3, "stats": stats})
    cid = await insert_character(mini_app.h, "lifegear", hero, owner=ALICE)
    status, body, _ = await mini_app.call(f"api/sheet/{cid}", user=ALICE)
    assert status == 200
    for name, dice in (("Сила", "1d8\\+3"), ("Стрельба", "1d6")):
        pattern = rf'<span class="label">{name}</span><span class="value"><code>{dice}</code>'
        assert re.search(pattern, body["html"]), body["html"]


DISABLED = re.compile(r'<button [^>]*data-off="([^"]*)" disabled>([^<]*)<')


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        ("fate", [("−1", "Не хватает очков судьбы: нужно 1, есть 0.")]),
        ("storyteller", [("🙋 +1", "Уже максимум.")]),  # Glamour 4/4; Willpower 4/5 is open
        ("cliche", [("🙋 +1", "Уже максимум."), ("🙋 +1", "Уже максимум.")]),
        ("matter", [("🙋 +1", "Уже максимум.")]),
    ],
)
async def test_a_button_that_could_only_refuse_is_drawn_off(
    mini_app: MiniApp, system: str, expected: list[tuple[str, str]]
) -> None:
    """At a pool's top (or with nothing left to spend) its button is disabled and says why in
    the panel's or the engine's words, instead of a press that only answers «Already full»."""
    seat_table(mini_app.h)
    await create_game(mini_app.h, system, "Кампания")
    hero = CASES[system].make()
    if system == "fate":
        hero = hero.model_copy(update={"fate_points": 0})
    cid = await insert_character(mini_app.h, system, hero, owner=ALICE)
    status, body, _ = await mini_app.call(
        f"api/sheet/{cid}", init_data=mini_app.init_data(ALICE, language="ru")
    )
    assert status == 200
    found = [(label, title) for title, label in DISABLED.findall(body["html"])]
    assert [label for label, _ in found] == [label for label, _ in expected], found
    for (_, title), (_, words) in zip(found, expected, strict=True):
        assert title.startswith(words), found
