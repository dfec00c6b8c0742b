"""Shared by the fault tests: the bot as a real process, a table of games seated straight into
Postgres, and the checks that the database tells one consistent story."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.systems import SYSTEMS
from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.common import name_key
from engine.dice.verify import verify_export
from engine.systems import fate
from tgemu import BotAPIEmulator, EmuEvent

ROOT = Path(__file__).resolve().parents[2]
GM = 1000
LOCK_REFUSED = 3  # ``python -m tabletop`` exit code: another instance still holds the polling lock


def bot_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BOT_TOKEN", "DATABASE_URL")}
    env.update(extra)
    return env


class BotProcess:
    """``python -m tabletop`` against the emulator, relaunched whenever it dies (a supervisor with
    ``restart: always``) until ``stop()``. Launched through ``tests.faults.zygote`` (a fork of
    a process that has imported the bot: see there why). Every launch logs to ``logs``."""

    def __init__(self, emu: BotAPIEmulator, database_url: str, log_dir: Path) -> None:
        self.emu = emu
        self.env = bot_env(
            BOT_TOKEN=emu.token, TELEGRAM_API_URL=emu.base_url, DATABASE_URL=database_url,
            LOG_LEVEL="INFO",
        )  # fmt: skip
        self.log_dir = log_dir
        self.pid: int | None = None  # the current launch, while it runs
        self.launches = 0
        self.killed: set[int] = set()
        self.exit_codes: list[int] = []
        self.logs: list[Path] = []
        self._zygote: asyncio.subprocess.Process | None = None
        self._forked: asyncio.Queue[int] = asyncio.Queue()
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._stopping = False
        self._ready_mark = 0  # getMe calls seen before the current launch

    async def start(self) -> None:
        self._zygote = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.faults.zygote", cwd=ROOT, env=self.env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self._reader = asyncio.create_task(self._read())
        await self._launch()
        self._watch = asyncio.create_task(self._supervise())

    async def _read(self) -> None:
        assert self._zygote is not None and self._zygote.stdout is not None
        loop = asyncio.get_running_loop()
        while line := await self._zygote.stdout.readline():
            word, *args = line.decode().split()
            if word == "pid":
                await self._forked.put(int(args[0]))
            elif word == "exit":
                pid, code = int(args[0]), int(args[1])
                self._exits.setdefault(pid, loop.create_future()).set_result(code)

    def _exit(self, pid: int) -> asyncio.Future[int]:
        return self._exits.setdefault(pid, asyncio.get_running_loop().create_future())

    async def _launch(self) -> None:
        assert self._zygote is not None and self._zygote.stdin is not None
        self.launches += 1
        log = self.log_dir / f"bot-{self.launches}.log"
        self.logs.append(log)
        self._ready_mark = len(self.emu.calls_to("getMe"))
        self._zygote.stdin.write(f"fork {log}\n".encode())
        await self._zygote.stdin.drain()
        self.pid = await self._forked.get()

    async def _supervise(self) -> None:
        while True:
            assert self.pid is not None
            code = await self._exit(self.pid)
            if self._stopping:
                return
            self.exit_codes.append(code)
            if code == LOCK_REFUSED:
                # the killed process's session still holds the lock for a moment
                await asyncio.sleep(0.2)
            await self._launch()

    def _running(self) -> int | None:
        if self.pid is None or self._exit(self.pid).done():
            return None
        return self.pid

    async def ready(self, timeout: float = 60.0) -> int:
        """Until the current process runs and has started polling (its startup asked getMe);
        returns its pid."""

        def up() -> int | None:
            started = len(self.emu.calls_to("getMe")) > self._ready_mark
            return self._running() if started else None

        pid: int = await self.emu.wait_for(up, timeout=timeout)
        return pid

    async def died(self, pid: int) -> int:
        return await self._exit(pid)

    def kill(self, pid: int) -> bool:
        """SIGKILL that process if it still runs (never a newer launch)."""
        if pid in self.killed or self._running() != pid:
            return False
        os.kill(pid, signal.SIGKILL)
        self.killed.add(pid)
        return True

    async def stop(self) -> int:
        """SIGTERM (a graceful stop); returns the exit code."""
        self._stopping = True
        pid = self._running()
        assert pid is not None, "the bot is not running"
        os.kill(pid, signal.SIGTERM)
        try:
            code = await asyncio.wait_for(self._exit(pid), timeout=40)
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            raise
        finally:
            if self._watch is not None:
                await self._watch
            assert self._zygote is not None and self._zygote.stdin is not None
            self._zygote.stdin.close()
            await self._zygote.wait()
            if self._reader is not None:
                await self._reader
        return code

    def log_text(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in self.logs if p.exists())


@dataclass
class Recorder:
    """Every bot-visible change, with the text it had at that moment (edits overwrite)."""

    events: list[tuple[str, int, int, str]] = field(default_factory=list)
    hooks: list[Callable[[EmuEvent], None]] = field(default_factory=list)

    def __call__(self, event: EmuEvent) -> None:
        if event.message is not None:
            m = event.message
            self.events.append((event.kind, m.chat_id, m.message_id, m.text))
        for hook in list(self.hooks):
            hook(event)


# --- a table straight into the database -------------------------------------------------------


@dataclass
class Seat:
    group: int
    game_id: int
    players: list[int]
    characters: dict[int, int]  # owner → character id


async def seat_games(
    emu: BotAPIEmulator, engine: AsyncEngine, groups: list[int], first_player: int,
    *, fate_points: int = 2, players_per_group: int = 2,
) -> tuple[list[Seat], dict[int, dict[str, Any]]]:  # fmt: skip
    """One fate game per group (GM = ``GM``), each player with an approved character.
    Returns the seats and every character's starting sheet (as stored)."""
    emu.add_user(GM, "Мастер", language_code="ru")
    factory = create_session_factory(engine)
    seats: list[Seat] = []
    start: dict[int, dict[str, Any]] = {}
    player = first_player
    for n, group in enumerate(groups):
        players = list(range(player, player + players_per_group))
        player += players_per_group
        for uid in players:
            emu.add_user(uid, f"P{uid}", language_code="en" if uid % 2 else "ru")
        emu.add_group(group, f"Table {n}", members=[GM, *players], creator=GM)
        async with UnitOfWork(factory) as uow:
            game = await uow.games.create(group, "fate", f"Game {n}", GM)
            await uow.commit()
        characters = {}
        for uid in players:
            hero = fate.new_character(f"Hero {uid}").model_copy(
                update={"fate_points": fate_points}
            )
            cid = await insert_character(engine, game.id, uid, hero)
            characters[uid] = cid
            start[cid] = hero.model_dump(mode="json")
        seats.append(Seat(group, game.id, players, characters))
    return seats, start


async def insert_character(engine: AsyncEngine, game_id: int, owner: int, sheet: Any) -> int:
    """An approved character straight into the table (no wizard), the player seated."""
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO game_members (game_id, user_id, role) VALUES (:g, :u, 'player') "
                "ON CONFLICT DO NOTHING"
            ),
            {"g": game_id, "u": owner},
        )
        row = await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) VALUES (:g, :u, false, "
                ":system, :name, :key, 'active', CAST(:sheet AS jsonb), :schema, 1) RETURNING id"
            ),
            {
                "g": game_id, "u": owner, "system": "fate", "name": sheet.name,
                "key": name_key(sheet.name),
                "sheet": sheet.model_dump_json(), "schema": SYSTEMS["fate"].schema_version,
            },
        )  # fmt: skip
        return int(row.scalar_one())


# --- checks -------------------------------------------------------------------------------------


async def rows(engine: AsyncEngine, sql: str, **params: Any) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(text(sql), params)).all())


async def verify_roll_logs(engine: AsyncEngine) -> int:
    """Every chat's log: unique roll ids, a sound hash chain, and every die recomputed from its
    epoch's seed. Returns the number of entries checked."""
    factory = create_session_factory(engine)
    checked = 0
    for log_id, chat_id in await rows(engine, "SELECT id, chat_id FROM roll_logs"):
        seeds = {
            int(e): bytes(s)
            for e, s in await rows(
                engine, "SELECT epoch, seed FROM seed_epochs WHERE log_id = :l", l=log_id
            )
        }
        async with UnitOfWork(factory) as uow:
            export = await uow.rolls.export(log_id, game=f"chat:{chat_id}")
        ids = [e.roll_id for e in export.entries]
        assert len(ids) == len(set(ids)), f"a roll id twice in the log of chat {chat_id}"
        assert [e.seq for e in export.entries] == list(range(1, len(ids) + 1))
        report = verify_export(export, seeds)
        assert report.ok and report.recomputed == len(ids), report.render("en")
        checked += len(ids)
    return checked


def _apply_diff(sheet: dict[str, Any], changes: list[dict[str, Any]]) -> dict[str, Any]:
    out = dict(sheet)
    for change in changes:
        keys = change["path"].split(".")
        node = out
        for key in keys[:-1]:
            node[key] = dict(node[key])
            node = node[key]
        assert node.get(keys[-1]) == change["before"], change
        node[keys[-1]] = change["after"]
    return out


async def check_ledger(engine: AsyncEngine, start: dict[int, dict[str, Any]]) -> int:
    """For every character: its starting sheet plus the ledger's diffs, in order, is its
    current sheet; versions follow one another; fate points never went below zero.
    Returns the number of ledger entries replayed."""
    replayed = 0
    for cid, first in start.items():
        entries = await rows(
            engine,
            "SELECT diff, sheet_before, sheet_after, version_before, version_after FROM ledger "
            "WHERE character_id = :c ORDER BY id",
            c=cid,
        )
        sheet, version = first, 1
        for diff, before, after, v_before, v_after in entries:
            assert before == sheet and v_before == version, f"character {cid}: a gap"
            sheet = _apply_diff(sheet, diff)
            assert sheet == after, f"character {cid}: the diff does not give the stored sheet"
            assert after["fate_points"] >= 0
            version = v_after
            assert v_after == v_before + 1
        ((current, current_version),) = await rows(
            engine, "SELECT sheet, version FROM characters WHERE id = :c", c=cid
        )
        assert current == sheet and current_version == version, f"character {cid}"
        replayed += len(entries)
    return replayed
