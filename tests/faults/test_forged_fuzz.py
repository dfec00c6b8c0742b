"""Forged callback data from non-owners: 10,000 mutations of real buttons change nothing.

Every ``CallbackData`` class under ``handlers/`` is found by walking the package (new actions
join the fuzz by existing). Valid data is drawn from a live table — five games, one per
system, characters, pending and rolled requests, a proposal, a submission, resource panels —
then mutated: other requests', characters', games' ids, other chats, garbage, truncation,
oversized numbers, wrong enum values, swapped prefixes. Two users press them: one who sits in
the chats but not in any game, one who is a player of every game with no character. Neither
is a GM or an owner, so nothing they press may change the database (except the processed-update
claims and the FSM); every press is answered and none crashes a handler.

The presses go through the emulator and the real dispatcher over HTTP (polling), in waves.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pkgutil
import random
import re
import time
from enum import Enum
from typing import Any

import pytest
from aiogram.filters.callback_data import CallbackData
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import handlers
from bot.i18n import I18n
from bot.services import characters as character_service
from bot.services import requests as request_service
from bot.services import willpower
from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.common import SheetModel, name_key
from engine.systems import cliche, fate, lifegear, matter, storyteller
from engine.systems.lifegear import Item, ItemKind
from engine.systems.storyteller.sheet import PoolTrait
from handlers.views import requests as request_views
from tests.conftest import Harness
from tests.faults.helpers import rows

SEED = int(os.environ.get("FAULTS_SEED", "1129"))
# The 10,000: about 40 s on a 2-core machine (some 4 ms a press). The seed makes every
# run press the same data; ``FAULTS_SEED`` and ``FAULTS_MUTATIONS`` explore further.
MUTATIONS = int(os.environ.get("FAULTS_MUTATIONS", "10000"))
WAVE = 400  # presses sent at once
CONCURRENCY = 64  # updates handled at once
GM, ALICE, BOB = 1000, 1001, 1002
# Outsiders sit in the chats but in no game; seated players are in every game, no character.
# Several of each: the dispatcher handles one update at a time per (chat, user).
OUTSIDERS = (1003, 1005, 1007, 1009, 1011, 1013)
SEATED = (1004, 1006, 1008, 1010, 1012, 1014)
ATTACKERS = OUTSIDERS + SEATED
GROUPS = {
    -100_600: "fate",
    -100_601: "storyteller",
    -100_602: "cliche",
    -100_603: "lifegear",
    -100_604: "matter",
}
# Delivery bookkeeping, not data: checked apart (the inbox must drain, see _fuzz).
UNCHECKED = {"processed_updates", "fsm_states", "alembic_version", "update_inbox", "res_panels"}
# (res_panels: which message shows a character's live /res panel; anyone may open one to read)
CRASH_APOLOGY = "something went wrong"


def callback_classes() -> dict[str, type[CallbackData]]:
    """Every CallbackData subclass defined under ``handlers/``, by prefix."""
    for module in pkgutil.walk_packages(handlers.__path__, "handlers."):
        importlib.import_module(module.name)
    found: dict[str, type[CallbackData]] = {}
    stack = list(CallbackData.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("handlers."):
            prefix = cls.__prefix__  # type: ignore[attr-defined]
            assert prefix not in found, f"prefix {prefix!r} used twice"
            found[prefix] = cls
    return found


def _sheet(system: str, name: str) -> SheetModel:
    if system == "fate":
        return fate.new_character(name).model_copy(update={"fate_points": 3})
    if system == "storyteller":
        pool = {"willpower": PoolTrait(rating=5, pool=4), "glamour": PoolTrait(rating=4, pool=4)}
        return storyteller.new_character(name).model_copy(update=pool)
    if system == "cliche":
        return cliche.new_character(name).model_copy(
            update={"cliches": (cliche.Cliche(name="Солдат", dice=4),)}
        )
    if system == "lifegear":
        bow = Item(id="bow", name="Лук", kind=ItemKind.WEAPON, dice="1d6")
        return lifegear.new_character(name).model_copy(update={"max_lives": 3, "gear": (bow,)})
    return matter.new_character(name)


async def _character(
    engine: AsyncEngine, game_id: int, owner: int, system: str, sheet: SheetModel,
    status: str = "active",
) -> int:  # fmt: skip
    async with engine.begin() as conn:
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) VALUES (:g, :u, false, "
                ":system, :name, :key, :status, CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": game_id, "u": owner, "system": system, "name": getattr(sheet, "name", "?"),
                "key": name_key(getattr(sheet, "name", "?")),
                "status": status, "sheet": sheet.model_dump_json(),
                "schema": SYSTEMS[system].schema_version,
            },
        )  # fmt: skip
        return int(row.scalar_one())


async def _table(h: Harness) -> dict[int, list[int]]:
    """The games, characters, requests, a proposal and a submission; the panels and cards.
    Returns, per group, the ids of the bot's messages there (what the attackers press on)."""
    emu = h.emu
    for uid, name, lang in ((GM, "Мастер", "ru"), (ALICE, "Alice", "en"), (BOB, "Боб", "ru")):
        emu.add_user(uid, name, language_code=lang)
    for uid in ATTACKERS:
        emu.add_user(uid, f"Mallory {uid}", language_code="en" if uid % 4 == 1 else "ru")
    factory = create_session_factory(h.engine)
    runtime = h.runtime
    assert runtime is not None
    t = I18n("en").translator("en")
    for group, system in GROUPS.items():
        emu.add_group(group, f"Table {system}", members=[GM, ALICE, BOB, *ATTACKERS], creator=GM)
        async with UnitOfWork(factory) as uow:
            game = await uow.games.create(group, system, f"Game {system}", GM)
            for uid in (ALICE, BOB, *SEATED):
                await uow.games.set_member(game.id, uid, "player")
            await uow.commit()
        for uid in (ALICE, BOB):
            await _character(h.engine, game.id, uid, system, _sheet(system, f"{system} {uid}"))
        if system == "fate":
            await _character(h.engine, game.id, BOB, system, _sheet(system, "Draft"), "pending")
            async with UnitOfWork(factory) as uow:
                mine = await uow.characters.active_of(game.id, ALICE)
                assert mine is not None
                await character_service.propose(uow, mine, ALICE, _sheet(system, "Renamed"))
        for n, target in enumerate((ALICE, BOB, ALICE)):
            async with UnitOfWork(factory) as uow:
                spec = request_service.parse_spec(f"2d6+{n} vs 7")
                request = await request_service.create(
                    uow, game, gm_user_id=GM, target_user_id=target, spec=spec
                )
                card = await runtime.bot.send_message(
                    group,
                    request_views.card(t, request, "GM", str(target), None),
                    reply_markup=request_views.card_keyboard(
                        t, request, willpower=willpower.offered(system, request.expression)
                    ),
                )
                await request_service.attach_card(uow, request, card.message_id)
                if n == 2:  # one of them rolled already
                    await request_service.press(
                        uow,
                        request_id=request.id,
                        chat_id=group,
                        message_id=card.message_id,
                        user_id=target,
                        user_name="A",
                    )
        for uid in (ALICE, BOB):
            emu.send_text(uid, group, "/res")
    await emu.wait_for(
        lambda: all(sum(1 for m in emu.bot_messages(g) if m.has_keyboard) >= 5 for g in GROUPS),
        timeout=60,
    )
    await emu.wait_idle(timeout=30)
    return {g: [m.message_id for m in emu.bot_messages(g)] for g in GROUPS}


async def _id_pools(engine: AsyncEngine) -> dict[str, list[int]]:
    pools: dict[str, list[int]] = {}
    for table in ("characters", "roll_requests", "games", "character_proposals", "trackers"):
        pools[table] = [int(r[0]) for r in await rows(engine, f"SELECT id FROM {table}")]
    pools["users"] = [GM, ALICE, BOB, *ATTACKERS]
    pools["all"] = sorted({i for p in pools.values() for i in p} | {0, 1, 2, 3, -1})
    return pools


FIELD_POOLS = {
    "character_id": "characters",
    "request_id": "roll_requests",
    "game_id": "games",
    "proposal_id": "character_proposals",
    "tracker_id": "trackers",
    "by": "users",
    "user_id": "users",
}
GARBAGE = ("", "-", "abc", "NaN", "1e9", "0x10", " 1", "１", "💥", "None", "true", "-0", "+1",
           "1.5", "%00", "\\", "::", "' OR 1=1 --")  # fmt: skip
HUGE = (2**31, 2**31 - 1, 2**63, 2**63 - 1, -(2**63) - 1, 10**40, -(10**18))
WORDS = ("fate", "storyteller", "cliche", "lifegear", "matter", "ru", "en", "de", "x", "m",
         "s", "t", "bonus", "reroll", "willpower", "glamour", "physical", "mental", "mild",
         "severe", "extreme", "broken", "lost", "ok", "help", "home", "lang")  # fmt: skip


class Fuzzer:
    def __init__(self, rng: random.Random, classes: dict[str, type[CallbackData]],
                 pools: dict[str, list[int]]) -> None:  # fmt: skip
        self.rng, self.classes, self.pools = rng, classes, pools
        self.prefixes = sorted(classes)

    def _valid_value(self, name: str, annotation: Any) -> str:
        rng = self.rng
        if annotation is bool:
            return rng.choice(("0", "1"))
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return str(rng.choice(list(annotation)).value)
        if annotation is int:
            pool = self.pools.get(FIELD_POOLS.get(name, ""), []) or self.pools["all"]
            return str(rng.choice(pool) if rng.random() < 0.8 else rng.randint(-3, 12))
        return rng.choice(WORDS)

    def valid(self) -> tuple[str, list[str]]:
        prefix = self.rng.choice(self.prefixes)
        fields = self.classes[prefix].model_fields
        return prefix, [self._valid_value(n, f.annotation) for n, f in fields.items()]

    def mutate(self) -> str:
        rng = self.rng
        prefix, values = self.valid()
        how = rng.choice(("valid", "valid", "other_id", "garbage", "huge", "word", "truncate",
                          "extra", "missing", "prefix", "random"))  # fmt: skip
        i = rng.randrange(len(values)) if values else None
        if how == "other_id" and i is not None:
            values[i] = str(rng.choice(self.pools["all"]))
        elif how == "garbage" and i is not None:
            values[i] = rng.choice(GARBAGE)
        elif how == "huge" and i is not None:
            values[i] = str(rng.choice(HUGE))
        elif how == "word" and i is not None:
            values[i] = rng.choice(WORDS)
        elif how == "extra":
            values.append(rng.choice((*GARBAGE, "1", "0")))
        elif how == "missing" and values:
            values.pop(rng.randrange(len(values)))
        elif how == "prefix":
            prefix = rng.choice(self.prefixes)
        data = ":".join((prefix, *values))
        if how == "truncate":
            data = data[: rng.randrange(len(data) + 1)]
        elif how == "random":
            alphabet = "0123456789:abcxyz-_ЖЯ💥"
            data = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        # Telegram carries at most 64 bytes of callback data, forged or not
        return data.encode()[:64].decode(errors="ignore") or "x"


async def _snapshot(engine: AsyncEngine) -> dict[str, set[str]]:
    tables = [
        r[0]
        for r in await rows(engine, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        if r[0] not in UNCHECKED
    ]
    return {
        table: {str(r[0]) for r in await rows(engine, f'SELECT t::text FROM "{table}" t')}
        for table in tables
    }


async def _answered(emu: Any, ids: list[str]) -> None:
    await emu.wait_for(lambda: all(i in emu.callback_answers for i in ids), timeout=120)


def _failure(record: logging.LogRecord, sent: dict[int, str]) -> str:
    """A crashed update, as "prefix: the exception's first line"."""
    update_id = record.args[0] if isinstance(record.args, tuple) and record.args else None
    data = sent.get(update_id, "?") if isinstance(update_id, int) else "?"
    error = record.exc_info[1] if record.exc_info else None
    first = str(error).splitlines()[0] if error else record.getMessage()
    first = re.sub(r"\$\d+: -?\d+", "$n: N", first)[:160]
    return f"{data.split(':')[0]}: {type(error).__name__}: {first}"


async def test_forged_callback_data_from_non_owners_changes_nothing(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    h = harness
    # The real polling loop of the runtime, with more updates in flight than production's 16:
    # every press here is refused after a few queries, so the waits are round trips.
    runtime = h.runtime = h.build()
    polling = asyncio.create_task(
        runtime.dispatcher.start_polling(
            runtime.bot, handle_signals=False, polling_timeout=1,
            tasks_concurrency_limit=CONCURRENCY,
        )
    )  # fmt: skip
    try:
        await _fuzz(h, caplog)
    finally:
        await runtime.dispatcher.stop_polling()
        await polling
        await runtime.fsm_engine.dispose()
        h.runtime = None


async def _inbox_drained(h: Harness) -> None:
    """Every polled update finished: its claim took it out of the inbox (an answer goes out
    before the update's commit, so the last few may still be finishing)."""
    deadline = time.monotonic() + 60
    while True:
        async with h.engine.connect() as conn:
            left = (await conn.execute(text("SELECT count(*) FROM update_inbox"))).scalar_one()
        if left == 0:
            return
        assert time.monotonic() < deadline, f"{left} update(s) never finished"
        await asyncio.sleep(0.2)


async def _fuzz(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    emu = h.emu
    messages = await _table(h)
    classes = callback_classes()
    assert len(classes) >= 30, sorted(classes)
    rng = random.Random(SEED)
    fuzzer = Fuzzer(rng, classes, await _id_pools(h.engine))
    # the attackers' first presses make their user rows; the snapshot is taken after that
    for uid in ATTACKERS:
        for group in GROUPS:
            pressed = emu.press(uid, group, messages[group][0], "x")
            await emu.wait_callback_answer(pressed.callback_query_id, timeout=30)
    before = await _snapshot(h.engine)

    started = time.monotonic()
    answers = []
    sent: dict[int, str] = {}
    for wave in range(0, MUTATIONS, WAVE):
        presses, wave_data = [], []
        for _ in range(min(WAVE, MUTATIONS - wave)):
            group = rng.choice(list(GROUPS))
            message_id = rng.choice(messages[group])
            data = fuzzer.mutate()
            wave_data.append(data)
            presses.append(emu.press(rng.choice(ATTACKERS), group, message_id, data))
        await _answered(emu, [p.callback_query_id for p in presses])
        answers += [emu.callback_answers[p.callback_query_id] for p in presses]
        sent.update({p.update_id: data for p, data in zip(presses, wave_data, strict=True)})
    seconds = time.monotonic() - started
    # Pager presses redraw their message (reading is anyone's), paced per chat: the inbox
    # emptied by the claims is this test's end, not every redraw sent.
    await emu.wait_idle(timeout=60, bot=False)

    await _inbox_drained(h)
    after = await _snapshot(h.engine)
    changed = {t: (before[t] ^ after.get(t, set())) for t in before if before[t] != after.get(t)}
    assert changed == {}, changed
    failures = [_failure(r, sent) for r in caplog.records if r.levelno >= logging.ERROR]
    assert failures == [], "\n".join(sorted(set(failures)))
    assert not [a for a in answers if CRASH_APOLOGY in (a.text or "")]
    alerts = sum(1 for a in answers if a.show_alert)
    print(
        f"\nfuzz: {len(answers)} presses over {len(classes)} prefixes in {seconds:.1f}s "
        f"({len(answers) / seconds:.0f}/s), {alerts} refused with an alert"
    )


async def test_numbers_beyond_their_column_are_refused_before_any_handler(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by the fuzz: an id past INTEGER (or a page past BIGINT) crashed in the driver."""
    caplog.set_level(logging.WARNING)
    h = harness
    await h.start()
    await _table(h)
    group = next(iter(GROUPS))
    message_id = h.emu.bot_messages(group)[-1].message_id
    stale = {I18n(lc).translator(lc)("This button is no longer active.") for lc in ("ru", "en")}
    for data in ("rfp:2147483648:-1", "rq:9223372036854775808", "log:99999999999999999999",
                 "ro:-2147483649", "shp:1:4294967296"):  # fmt: skip
        pressed = h.emu.press(OUTSIDERS[0], group, message_id, data)
        answer = await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=30)
        assert answer.show_alert and answer.text in stale, data
    # A user id as large as Telegram's fits its column: the press reaches its handler (on
    # the picker it belongs to, pressed by that user, it starts the game).
    big, fresh = 4503599627370495, -4_000_777
    h.emu.add_user(big, "Big", language_code="en")
    h.emu.add_group(fresh, "Fresh table", members=[big])
    h.emu.send_text(big, fresh, "/newgame")
    picker = await h.emu.wait_bot_message(fresh)
    pressed = h.emu.press(big, fresh, picker.message_id, f"ng:fate:{big}")
    answer = await h.emu.wait_callback_answer(pressed.callback_query_id, timeout=30)
    assert answer.text not in stale
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
