"""``/r <trait>`` in a game's chat, end to end over the emulator and Postgres.

The wiring these tests expect in ``handlers/dice.py`` (done by the lead): when the text after
``/r`` is not valid dice notation — or ``prefers_sheet_roll(game.system, text)`` says it is a
sheet shorthand (matter's ``/r 5``, ``/r шанс``) — and the chat has a live game in which the
sender has an ACTIVE character, ``plan_sheet_roll`` builds the roll; ``plan.notation`` is rolled
through ``roll_logged``; the reply is the usual roll message with ``plan.title`` as its first
line and ``outcome_words(...)`` as its last. ``EngineError`` is replied in plain words.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from bot.services.sheet_rolls import SheetRoll, outcome_words, plan_sheet_roll
from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.hmac_source import HmacSource
from engine.dice.parser import parse
from engine.dice.source import ScriptedSource
from engine.errors import EngineError
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.storyteller.sheet import AbilityDots, Attributes
from engine.systems.storyteller.traits import AbilityGroup
from handlers.dice import message_roll_id
from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, create_game, seat_table
from tests.helpers.table import insert_character, scalar
from tgemu import ChatMessage

LOCALES = ("ru", "en")


async def _start(h: Harness, system: str, character: SheetModel | None) -> None:
    seat_table(h)
    await create_game(h, system, "Кампания")
    if character is not None:
        await insert_character(h, system, character, owner=ALICE)


async def _reply_to(h: Harness, sender: int, command: str) -> ChatMessage:
    """Send ``command`` to the group and return the bot's reply to it."""
    emu = h.emu
    sent = emu.send_text(sender, GROUP, command)
    found: ChatMessage = await emu.wait_for(
        lambda: next(
            (
                m
                for m in emu.bot_messages(GROUP)
                if m.message_id > sent.message_id and m.reply_to == sent.message_id
            ),
            None,
        ),
        timeout=10,
    )
    return found


async def _last_roll(h: Harness) -> Any:
    async with h.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT expression, faces, result FROM rolls ORDER BY id DESC LIMIT 1")
        )
        return rows.one()


async def _check_sheet_roll(
    h: Harness, system: str, character: SheetModel, command: str
) -> tuple[ChatMessage, SheetRoll]:
    """Roll ``command`` as ALICE; the reply has the plan's title first, its words last, and
    exactly the logged faces behind those words."""
    before = await scalar(h, "SELECT count(*) FROM rolls")
    reply = await _reply_to(h, ALICE, command)
    assert await scalar(h, "SELECT count(*) FROM rolls") == before + 1
    stored = await _last_roll(h)
    args = command.split(maxsplit=1)[1]
    plans = {loc: plan_sheet_roll(system, character, args, loc) for loc in LOCALES}
    assert stored.expression == parse(plans["ru"].notation).canonical
    result = roll(stored.expression, ScriptedSource(stored.faces))
    assert result.total == stored.result
    lines = [line for line in (reply.text or "").splitlines() if line.strip()]
    # the outcome's words under the dice, then the log entry as the footer (issue 36: a new
    # GM read «Хорошо» below «Журнал №1» as a line of its own)
    assert any(
        lines[0].strip() == plans[loc].title
        and lines[-2].strip() == outcome_words(plans[loc], result, loc)
        and lines[-1].startswith(("Log #", "Журнал №"))
        for loc in LOCALES
    ), reply.text
    assert "Traceback" not in (reply.text or "")
    return reply, plans["ru"]


# --- one sheet roll per system ----------------------------------------------------------------


def _fate_hero() -> fate.Character:
    return fate.new_character("Ира").model_copy(update={"skills": {fate.Skill.ATHLETICS: 3}})


async def test_fate_skill_roll_with_difficulty(running: Harness) -> None:
    hero = _fate_hero()
    await _start(running, "fate", hero)
    _, plan = await _check_sheet_roll(running, "fate", hero, "/r Атлетика vs 2")
    assert plan.notation == "4dF+3" and plan.target == 2
    # the English name, a modifier, no difficulty: the ladder name only
    await _check_sheet_roll(running, "fate", hero, "/r athletics +1")


async def test_storyteller_pool_and_difficulty(running: Harness) -> None:
    hero = storyteller.new_character("Эйлин").model_copy(
        update={
            "attributes": Attributes(dexterity=3),
            "abilities": (AbilityDots(key="athletics", group=AbilityGroup.TALENTS, dots=2),),
        }
    )
    await _start(running, "storyteller", hero)
    _, plan = await _check_sheet_roll(running, "storyteller", hero, "/r Ловкость+Атлетизм 7")
    assert plan.notation == "5d10>=7f1"
    # a Willpower roll: the permanent rating's pool (it read «На листе нет «Воля»»)
    _, plan = await _check_sheet_roll(running, "storyteller", hero, "/r Воля 8")
    assert plan.notation == "1d10>=8f1" and plan.title == "Воля (1)"


async def test_matter_skill_pool(running: Harness) -> None:
    hero = matter.new_character("Пепел").model_copy(
        update={"skills": {s.value: 0 for s in matter.Skill} | {"brutality": 3}}
    )
    await _start(running, "matter", hero)
    _, plan = await _check_sheet_roll(running, "matter", hero, "/r Жестокость +1")
    assert plan.notation == "4d10>=7!"


async def test_matter_number_and_chance_are_sheet_rolls(running: Harness) -> None:
    """Needs ``prefers_sheet_roll``: ``5`` and ``шанс`` are valid notation on their own."""
    hero = matter.new_character("Пепел")
    await _start(running, "matter", hero)
    _, plan = await _check_sheet_roll(running, "matter", hero, "/r 5")
    assert plan.notation == "5d10>=7!"
    _, plan = await _check_sheet_roll(running, "matter", hero, "/r шанс")
    assert plan.notation == "chance"


async def test_cliche_roll_against_a_target_number(running: Harness) -> None:
    hero = cliche.Character(
        name="Мэл",
        cliches=(cliche.Cliche(name="Солдат", dice=4), cliche.Cliche(name="Пилот", dice=2)),
    )
    await _start(running, "cliche", hero)
    reply, plan = await _check_sheet_roll(running, "cliche", hero, "/r Солдат vs 10")
    assert plan.notation == "4d6" and plan.target == 10
    assert "10" in (reply.text or "").splitlines()[-2]  # the words, above the log entry


async def test_lifegear_stat_against_a_defence(running: Harness) -> None:
    hero = lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+1d6+3"),))
    await _start(running, "lifegear", hero)
    _, plan = await _check_sheet_roll(running, "lifegear", hero, "/r Стрельба vs 10")
    assert plan.notation == "1d8+1d6+3"


# --- refusals -------------------------------------------------------------------------------


async def test_unknown_name_lists_closest_matches_and_logs_nothing(running: Harness) -> None:
    await _start(running, "fate", _fate_hero())
    reply = await _reply_to(running, ALICE, "/r Атлетка vs 2")
    assert "Атлетика" in (reply.text or "") and "Traceback" not in (reply.text or "")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_rule_refusal_is_plain_words_and_logs_nothing(running: Harness) -> None:
    hero = storyteller.new_character("Эйлин")
    await _start(running, "storyteller", hero)
    reply = await _reply_to(running, ALICE, "/r Ловкость 11")
    try:
        plan_sheet_roll("storyteller", hero, "Ловкость 11", "ru")
    except EngineError as error:
        assert any(error.render(loc) == (reply.text or "").strip() for loc in LOCALES)
    else:
        raise AssertionError("difficulty 11 must be refused")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


def _notation_errors(args: str) -> set[str]:
    try:
        parse(args)
    except EngineError as error:
        return {error.render(loc) for loc in LOCALES}
    raise AssertionError(f"{args!r} parses")


async def test_without_an_active_character_a_trait_roll_says_why(running: Harness) -> None:
    """Issue 36: a player whose sheet is not approved yet typed «/r Жестокость» and got
    «Позиция 1: ожидалось число…»; the answer says a trait needs a character, dice do not."""
    await _start(running, "fate", None)
    # BOB has no character at all; a pending one does not count either
    pending = _fate_hero()
    await insert_character(running, "fate", pending, owner=ALICE, status="pending")
    for sender in (BOB, ALICE):
        reply = await _reply_to(running, sender, "/r Атлетика")
        said = (reply.text or "").strip()
        assert said.startswith(("A roll by a trait («Атлетика»)", "Бросок по черте («Атлетика»)"))
        assert "/r 2" in said and "Позиция" not in said and "Position" not in said
    # notation stays notation, errors included
    reply = await _reply_to(running, BOB, "/r 2d6 +")
    assert (reply.text or "").strip() in _notation_errors("2d6 +")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_plain_notation_is_still_plain_in_a_game(running: Harness) -> None:
    await _start(running, "fate", _fate_hero())
    reply = await _reply_to(running, ALICE, "/r 2d6+1")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1
    assert "2d6+1" in (reply.text or "") and "Атлетика" not in (reply.text or "")


async def test_no_game_no_sheet_roll(running: Harness) -> None:
    seat_table(running)
    reply = await _reply_to(running, GM, "/r Атлетика")
    assert (reply.text or "").strip() in _notation_errors("Атлетика")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_a_dangling_operator_is_a_notation_error_not_a_trait(running: Harness) -> None:
    """Issue 36 item 15: «2d6 +» is notation cut short, shown at its «+», not a trait the
    sheet lacks."""
    await _start(running, "fate", _fate_hero())
    reply = await _reply_to(running, ALICE, "/r 2d6 +")
    assert (reply.text or "").strip() in _notation_errors("2d6 +")
    assert "5" in (reply.text or "") and "+" in (reply.text or "")
    # «vs» with no number: it rolled 2d6 labelled «vs»
    reply = await _reply_to(running, ALICE, "/r 2d6 vs")
    assert (reply.text or "").strip() in _notation_errors("2d6 vs")
    assert "2d6>=4" in (reply.text or "")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_a_die_without_sides_is_a_notation_error_not_a_trait(running: Harness) -> None:
    """A first session: a player typed «/r 2d» in a lifegear game and read «На листе нет «2d».
    Есть: Стрельба…», as if «2d» were a trait; the answer is the notation's own (the sides are
    missing after «d»)."""
    hero = lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+3"),))
    await _start(running, "lifegear", hero)
    for typed in ("2d", "3к+1"):
        reply = await _reply_to(running, ALICE, f"/r {typed}")
        said = (reply.text or "").strip()
        assert said in _notation_errors(typed), said
        assert "На листе нет" not in said and "Стрельба" not in said
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_a_bare_die_letter_is_a_notation_error_not_a_trait(running: Harness) -> None:
    """«/r d» (a die with neither count nor sides) read «На листе нет «d». Есть: Стрельба…»;
    it is notation cut short, answered as such."""
    hero = lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+3"),))
    await _start(running, "lifegear", hero)
    for typed in ("d", "д", "к+2"):
        said = ((await _reply_to(running, ALICE, f"/r {typed}")).text or "").strip()
        assert said in _notation_errors(typed), said
        assert "На листе нет" not in said
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


def _ranger() -> lifegear.Character:
    return lifegear.Character(
        name="Эльза",
        stats=(
            lifegear.Stat(name="Стрельба", dice="1d8+3"),
            lifegear.Stat(name="Ловкость", dice="1d6"),
        ),
        gear=(
            lifegear.Item(
                id="bow",
                name="Лук",
                kind=lifegear.ItemKind.WEAPON,
                stats=("Ловкость",),
                dice="1d6",
            ),
            lifegear.Item(id="sword", name="Меч", kind=lifegear.ItemKind.WEAPON, dice="1d4"),
            lifegear.Item(
                id="axe",
                name="Топор",
                kind=lifegear.ItemKind.WEAPON,
                dice="1d4",
                state=lifegear.ItemState.BROKEN,
            ),
            lifegear.Item(id="coat", name="Кожаная куртка", kind=lifegear.ItemKind.ARMOR),
        ),
    )


async def test_lifegear_weapon_rolls_with_its_stat(running: Harness) -> None:
    """A first session: «/r Лук» answered «На листе нет «Лук»» while the bow was on the sheet.
    A weapon rolls with its stat (the seed's «Ловкость или Стрельба + 1d6»)."""
    hero = _ranger()
    await _start(running, "lifegear", hero)
    _, plan = await _check_sheet_roll(running, "lifegear", hero, "/r лук vs 8")
    assert (plan.notation, plan.title, plan.target) == ("1d6+1d6", "Лук: Ловкость (1d6+1d6)", 8)
    # a weapon open to every stat takes the one named after it
    _, plan = await _check_sheet_roll(running, "lifegear", hero, "/r Меч Стрельба vs 5")
    assert plan.notation == "1d8+1d4+3"


async def test_lifegear_gear_that_is_not_rolled_says_so_in_russian(running: Harness) -> None:
    """A broken weapon's refusal read «(состояние: broken)» in Russian; armor was «not on the
    sheet». Each says what to roll instead, in the reader's language."""
    hero = _ranger()
    await _start(running, "lifegear", hero)
    expected = {
        "Меч": (
            "«Меч» бросают с параметром: /r Меч Стрельба, /r Меч Ловкость.",
            "“Меч” is rolled with a stat: /r Меч Стрельба, /r Меч Ловкость.",
        ),
        "Топор": (
            "«Топор» сейчас нельзя использовать (состояние: сломано).",
            "“Топор” cannot be used now (state: broken).",
        ),
        "Кожаная куртка": (
            "«Кожаная куртка» не бросают отдельно. Бросьте параметр: /r Стрельба, /r Ловкость.",
            "“Кожаная куртка” is not rolled on its own. Roll a stat: /r Стрельба, /r Ловкость.",
        ),
    }
    for typed, (ru, en) in expected.items():
        try:
            plan_sheet_roll("lifegear", hero, typed, "ru")
        except EngineError as error:
            assert (error.render("ru"), error.render("en")) == (ru, en)
        else:
            raise AssertionError(f"{typed} must be refused")
        # Alice reads English; the group speaks its GM's Russian
        reply = await _reply_to(running, ALICE, f"/r {typed}")
        assert (reply.text or "").strip() == ru
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0


async def test_a_critical_failure_is_said_once(running: Harness) -> None:
    """A first session: «/r шанс» that failed critically read «Критический провал!» and, on
    the next line, «Критический провал» (the dice's line and the system's words). It is said
    once: the system's words, above the log entry."""
    hero = matter.new_character("Пепел")
    await _start(running, "matter", hero)
    first = await _reply_to(running, ALICE, "/r шанс")  # opens the chat's seed epoch
    await running.emu.wait_idle()
    async with running.engine.connect() as conn:
        seed = bytes((await conn.execute(text("SELECT seed FROM seed_epochs"))).scalar_one())
    following = first.message_id + 1
    crit = next(
        n
        for n in range(following, following + 500)
        if roll("chance", HmacSource(seed, message_roll_id(GROUP, n))).critical_failure
    )
    for _ in range(crit - following):  # table talk, until the roll lands on that message
        running.emu.send_text(BOB, GROUP, "…")
    sent = running.emu.send_text(ALICE, GROUP, "/r шанс")
    assert sent.message_id == crit
    reply = await running.emu.wait_for(
        lambda: next((m for m in running.emu.bot_messages(GROUP) if m.reply_to == crit), None)
    )
    lines = [line.strip() for line in (reply.text or "").splitlines() if line.strip()]
    said = [line for line in lines if line.rstrip("!").casefold() == "критический провал"]
    assert said == ["Критический провал"] and lines[-2] == "Критический провал", reply.text


async def test_odds_of_a_trait_without_a_character_say_why(running: Harness) -> None:
    """A first session: Bob, with no character yet, asked «/odds Жестокость» and read
    «Position 1: expected a number, a die (e.g. 2d6) or “(”…». /odds says what /r says: a
    trait needs a character, dice do not."""
    await _start(running, "fate", _fate_hero())
    reply = await _reply_to(running, BOB, "/odds Атлетика")  # in the group's Russian
    said = (reply.text or "").strip()
    assert said.startswith("Шансы по черте («Атлетика») — для персонажа"), said
    assert "/odds 2к6+1 vs 8" in said and "Позиция" not in said
    reply = await _reply_to(running, GM, "/odds Атлетика vs 2")  # the GM reads Russian
    said = (reply.text or "").strip()
    assert said.startswith("Шансы по черте («Атлетика vs 2») — для персонажа"), said
    # notation stays notation, errors included
    reply = await _reply_to(running, BOB, "/odds 2d6 +")
    assert (reply.text or "").strip() in _notation_errors("2d6 +")


async def test_a_trait_roll_in_an_archived_game_says_it_is_archived(running: Harness) -> None:
    """A first session: after the GM archived the game, «/r Стрельба» answered «Позиция 1:
    ожидалось число…». It says the game is archived; dice still roll."""
    hero = lifegear.Character(name="Ли", stats=(lifegear.Stat(name="Стрельба", dice="1d8+3"),))
    await _start(running, "lifegear", hero)
    async with running.engine.begin() as conn:
        await conn.execute(text("UPDATE games SET archived_at = now()"))
    reply = await _reply_to(running, ALICE, "/r Стрельба")
    said = (reply.text or "").strip()
    # in the group's language (its GM's Russian), though Alice reads English
    assert said.startswith("Игра этого чата в архиве: бросок по черте («Стрельба»)"), said
    assert "Позиция" not in said
    assert await scalar(running, "SELECT count(*) FROM rolls") == 0
    reply = await _reply_to(running, ALICE, "/r 2d6+1")
    assert await scalar(running, "SELECT count(*) FROM rolls") == 1
    reply = await _reply_to(running, ALICE, "/r 2d6 +")  # notation errors stay notation's
    assert (reply.text or "").strip() in _notation_errors("2d6 +")
