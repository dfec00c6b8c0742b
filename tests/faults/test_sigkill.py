"""SIGKILL ``python -m tabletop`` at random points while a busy table spends fate points, rolls and
presses request cards; restart it each time. Telegram (the emulator) serves every update whose
offset was not confirmed again. Afterwards the database tells one consistent story: each roll
once in a sound hash chain, each request rolled at most once, every sheet equal to its start
plus the ledger, and everything the players saw backed by a committed change.

The kill points and the operations come from a seeded RNG (``FAULTS_SEED`` to replay another).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.i18n import I18n
from handlers.callbacks import RollRequestCD
from handlers.views.resources import FatePointCD
from tests.faults.helpers import (
    GM,
    BotProcess,
    Recorder,
    Seat,
    check_ledger,
    rows,
    seat_games,
    verify_roll_logs,
)
from tgemu import BotAPIEmulator, ChatMessage, EmuEvent

SEED = int(os.environ.get("FAULTS_SEED", "1129"))
OPS = 200
# Ten tables: the bot paces itself to Telegram's limits per chat (1 message/s, 20 new messages a
# minute in a group), so one busy group would make the test about pacing, not about faults.
GROUPS = [-1_009_100 - n for n in range(10)]
REQUESTS_PER_GROUP = 3
NOTATIONS = ("1d20", "2d6+1", "4dF", "3d6", "1d100")
SUMMARY = re.compile(r"(\d+) → (\d+)")
LOG_SEQ = re.compile(r"(?:Log #|Журнал №)(\d+) ·")  # the roll's footer, en and ru
COMMITMENT = re.compile(r"\b[0-9a-f]{64}\b")


Panels = dict[int, tuple[int, int]]  # character id → (chat, the panel's message id)


@dataclass
class Op:
    kind: str  # roll | fp | req
    update_id: int
    chat_id: int
    user_id: int
    message_id: int = 0  # roll: the user's message
    query_id: str = ""  # fp / req: the press
    target: int = 0  # fp: character id; req: request id
    allowed: bool = True  # the presser may do this


@dataclass
class Card:
    request_id: int
    group: int
    message_id: int
    target: int


async def _panels(emu: BotAPIEmulator, seats: list[Seat]) -> Panels:
    """Each player opens their panel (``/res``); character id → (chat, the panel's id)."""
    for seat in seats:
        for uid in seat.players:
            emu.send_text(uid, seat.group, "/res")

    def found() -> dict[int, tuple[int, int]] | None:
        out = {}
        for seat in seats:
            for m in emu.bot_messages(seat.group):
                data = [b.get("callback_data", "") for b in m.buttons()]
                for cid in seat.characters.values():
                    if FatePointCD(character_id=cid, delta=-1).pack() in data:
                        out[cid] = (seat.group, m.message_id)
        return out if len(out) == sum(len(s.characters) for s in seats) else None

    return await emu.wait_for(found, timeout=60)


async def _cards(emu: BotAPIEmulator, engine: AsyncEngine, seats: list[Seat]) -> list[Card]:
    """The GM asks each player for rolls: ``/request`` in reply to the player's message."""
    for seat in seats:
        for n in range(REQUESTS_PER_GROUP):
            target = seat.players[n % len(seat.players)]
            said = emu.send_text(target, seat.group, "ready")
            emu.send_text(GM, seat.group, f"/request 2d6+{n} vs 8", reply_to=said.message_id)
    wanted = len(seats) * REQUESTS_PER_GROUP
    sql = "SELECT id, chat_id, message_id, target_user_id FROM roll_requests"

    async def attached() -> list[Any]:
        found = await rows(engine, sql + " WHERE message_id IS NOT NULL")
        return found if len(found) == wanted else []

    deadline = time.monotonic() + 60
    while not (found := await attached()):
        assert time.monotonic() < deadline, "the request cards did not all appear"
        await emu.wait_idle(timeout=60, quiet=0.3)
    return [Card(int(i), int(c), int(m), int(t)) for i, c, m, t in found]


class Chaos:
    """Fires the operations; a killer alongside SIGKILLs the bot at the planned points."""

    def __init__(self, emu: BotAPIEmulator, bot: BotProcess, recorder: Recorder) -> None:
        self.emu, self.bot, self.recorder = emu, bot, recorder
        self.kills_planned: list[tuple[int, str, float]] = []
        self.fired = 0
        self._progress = asyncio.Event()

    async def _kill_on_event(self, pid: int, nth: int) -> None:
        """Kill while the bot waits for the answer to its ``nth`` next visible call (the
        message is out, the bot never learns it): right inside a handler."""
        seen = [0]

        def hook(event: EmuEvent) -> None:
            seen[0] += 1
            if seen[0] >= nth:
                self.bot.kill(pid)

        self.recorder.hooks.append(hook)
        try:
            # should the table fall quiet first, the kill still comes
            await asyncio.wait_for(self.bot.died(pid), timeout=5.0)
        except TimeoutError:
            self.bot.kill(pid)
        finally:
            self.recorder.hooks.remove(hook)

    async def killer(self, plan: list[tuple[int, str, float]]) -> None:
        for at, mode, param in plan:
            while self.fired < at:
                await self._progress.wait()
            pid = await self.bot.ready()
            self.kills_planned.append((at, mode, param))
            if mode == "timer":
                await asyncio.sleep(param)
                self.bot.kill(pid)
            else:
                await self._kill_on_event(pid, int(param))
            await self.bot.died(pid)

    def plan(self, rng: random.Random) -> list[tuple[int, str, float]]:
        n_kills = rng.randint(3, 4)
        span = (OPS - 20) // n_kills
        plan = []
        for k in range(n_kills):
            at = 10 + k * span + rng.randrange(span)
            if rng.random() < 0.5:
                plan.append((at, "timer", rng.uniform(0.0, 0.6)))
            else:
                plan.append((at, "event", float(rng.randint(1, 8))))
        return plan

    async def run(
        self, rng: random.Random, seats: list[Seat], panels: Panels, cards: list[Card]
    ) -> list[Op]:
        killer = asyncio.create_task(self.killer(self.plan(rng)))
        ops: list[Op] = []
        for _ in range(OPS):
            ops.append(self.fire(rng, seats, panels, cards))
            self.fired += 1
            self._progress.set()
            self._progress = asyncio.Event()
            await asyncio.sleep(rng.uniform(0.01, 0.1))  # the players' pace, not a wait
        await killer
        return ops

    def fire(
        self,
        rng: random.Random,
        seats: list[Seat],
        panels: Panels,
        cards: list[Card],
    ) -> Op:
        emu = self.emu
        seat = rng.choice(seats)
        kind = rng.choices(("roll", "fp", "req"), weights=(40, 35, 25))[0]
        uid = rng.choice(seat.players)
        if kind == "roll":
            chat = seat.group if rng.random() < 0.5 else uid
            sent = emu.send_text(uid, chat, f"/r {rng.choice(NOTATIONS)}")
            return Op("roll", sent.update_id, chat, uid, message_id=sent.message_id)
        if kind == "fp":
            owner = rng.choice(seat.players)
            cid = seat.characters[owner]
            presser = owner if rng.random() < 0.9 else next(p for p in seat.players if p != owner)
            delta = -1 if rng.random() < 0.6 else 1
            data = FatePointCD(character_id=cid, delta=delta).pack()
            pressed = emu.press(presser, seat.group, panels[cid][1], data)
            return Op("fp", pressed.update_id, seat.group, presser,
                      query_id=pressed.callback_query_id, target=cid,
                      allowed=presser == owner)  # fmt: skip
        card = rng.choice([c for c in cards if c.group == seat.group])
        roll = rng.random()
        presser = card.target if roll < 0.7 else GM if roll < 0.8 else next(
            p for p in seat.players if p != card.target
        )  # fmt: skip
        data = RollRequestCD(request_id=card.request_id).pack()
        pressed = emu.press(presser, card.group, card.message_id, data)
        return Op("req", pressed.update_id, card.group, presser,
                  query_id=pressed.callback_query_id, target=card.request_id,
                  allowed=presser in (card.target, GM))  # fmt: skip


async def test_sigkill_at_random_points_keeps_one_consistent_story(
    emulator: BotAPIEmulator, database_url: str, clean_db: AsyncEngine, tmp_path: Path
) -> None:
    emu, engine = emulator, clean_db
    rng = random.Random(SEED)
    began = time.monotonic()
    seats, start = await seat_games(emu, engine, GROUPS, first_player=3001)
    recorder = Recorder()
    emu.subscribe(recorder)
    bot = BotProcess(emu, database_url, tmp_path)
    await bot.start()
    chaos = Chaos(emu, bot, recorder)
    try:
        await bot.ready()
        t_up = time.monotonic()
        panels = await _panels(emu, seats)
        cards = await _cards(emu, engine, seats)
        t_setup = time.monotonic()
        ops = await chaos.run(rng, seats, panels, cards)
        t_chaos = time.monotonic()
        await bot.ready()
        await emu.wait_idle(timeout=60, quiet=1.0)
        print(
            f"\nphases: up={t_up - began:.1f} setup={t_setup - t_up:.1f} "
            f"chaos={t_chaos - t_setup:.1f} drain={time.monotonic() - t_chaos:.1f}"
        )
    finally:
        code = await bot.stop()
    logs = bot.log_text()
    assert code == 0, logs[-3000:]
    assert "Traceback" not in logs, logs[logs.index("Traceback") - 500 :][:4000]
    killed = bot.exit_codes.count(-9)
    assert killed == len(bot.killed) == len(chaos.kills_planned), bot.exit_codes

    claimed = {int(r[0]) for r in await rows(engine, "SELECT update_id FROM processed_updates")}
    handled = [op for op in ops if op.update_id in claimed]
    # Nothing lost: a polled batch is written to the inbox before it is confirmed, and the next
    # process handles what the killed one left there (bot/polling.py).
    assert len(handled) == len(ops), sorted(op.update_id for op in ops if op not in handled)

    entries = await verify_roll_logs(engine)
    await _check_rolls(engine, emu, ops, claimed)
    await _check_requests(engine, recorder, cards)
    replayed = await check_ledger(engine, start)
    await _check_panels(engine, emu, recorder, ops, panels)
    _check_no_double_answers(emu, ops)
    served = Counter(
        u["update_id"] for c in emu.calls_to("getUpdates") if c.ok for u in c.result or []
    )
    redelivered = sum(1 for op in ops if served[op.update_id] > 1)  # while running, or later
    print(
        f"\nsigkill: seed={SEED} ops={len(ops)} handled={len(handled)} redelivered={redelivered} "
        f"lost={len(ops) - len(handled)} kills={chaos.kills_planned} launches={bot.launches} "
        f"exit_codes={bot.exit_codes} rolls={entries} ledger={replayed} "
        f"seconds={time.monotonic() - began:.1f}"
    )


def _reply_seq(message: ChatMessage) -> int:
    found = LOG_SEQ.search(message.text)
    assert found, message.text
    return int(found.group(1))


async def _check_rolls(
    engine: AsyncEngine, emu: BotAPIEmulator, ops: list[Op], claimed: set[int]
) -> None:
    logged = {
        (int(chat), roll_id): int(seq)
        for chat, roll_id, seq in await rows(
            engine,
            "SELECT l.chat_id, r.roll_id, r.seq FROM rolls r JOIN roll_logs l ON l.id = r.log_id",
        )
    }
    expected = set()
    for op in (o for o in ops if o.kind == "roll"):
        roll_id = f"msg:{op.chat_id}:{op.message_id}"
        expected.add((op.chat_id, roll_id))
        committed = (op.chat_id, roll_id) in logged
        assert committed == (op.update_id in claimed), roll_id  # the claim commits with it
        replies = [m for m in emu.bot_messages(op.chat_id) if m.reply_to == op.message_id]
        assert len(replies) <= 1, f"two replies to {roll_id}"
        for reply in replies:  # what the player saw is the committed roll
            assert committed and _reply_seq(reply) == logged[(op.chat_id, roll_id)]
    phantoms = {key for key in logged if key not in expected and not key[1].startswith("req:")}
    assert phantoms == set()
    commitments = {
        (int(chat), str(c))
        for chat, c in await rows(
            engine,
            "SELECT l.chat_id, e.commitment FROM seed_epochs e "
            "JOIN roll_logs l ON l.id = e.log_id",
        )
    }
    for chat in {op.chat_id for op in ops}:
        for m in emu.bot_messages(chat):  # "epoch opened": its commitment is in the database
            for shown in COMMITMENT.findall(m.text):
                assert (chat, shown) in commitments, m.text


async def _check_requests(engine: AsyncEngine, recorder: Recorder, cards: list[Card]) -> None:
    by_request = {
        int(i): (str(s), int(c), seq)
        for i, s, c, seq in await rows(
            engine, "SELECT id, status, chat_id, roll_seq FROM roll_requests"
        )
    }
    rolls = Counter()
    seqs = {}
    for chat, roll_id, seq in await rows(
        engine,
        "SELECT l.chat_id, r.roll_id, r.seq FROM rolls r JOIN roll_logs l ON l.id = r.log_id "
        "WHERE r.roll_id LIKE 'req:%'",
    ):
        request_id = int(roll_id.split(":")[1])
        rolls[request_id] += 1
        seqs[request_id] = (int(chat), int(seq))
    for card in cards:
        status, chat, roll_seq = by_request[card.request_id]
        assert rolls[card.request_id] <= 1, f"request {card.request_id} rolled twice"
        if status == "rolled":
            assert seqs[card.request_id] == (chat, roll_seq)
        else:
            assert status == "pending" and rolls[card.request_id] == 0
        edits = [
            e for e in recorder.events if e[0] == "edit" and e[1:3] == (chat, card.message_id)
        ]
        assert len(edits) <= 1, f"card {card.request_id} edited twice"
        for _, _, _, shown in edits:  # the card shows the committed roll
            found = LOG_SEQ.search(shown)
            assert status == "rolled" and found and int(found.group(1)) == roll_seq, shown


# A player's +1 is a request to the GM, not a change (bot/services/grants.py).
GAIN_ASKED = frozenset(
    I18n(locale).translator(locale)("Asked the GM: the request is in the chat.")
    for locale in ("ru", "en")
)


async def _check_panels(
    engine: AsyncEngine, emu: BotAPIEmulator, recorder: Recorder, ops: list[Op],
    panels: Panels,
) -> None:  # fmt: skip
    """Every "a → b" a player saw (the press's toast, the panel's last line) is a committed
    ledger change of that character, each shown at most once per change."""
    transitions: dict[int, Counter[tuple[int, int]]] = {}
    for cid, before, after in await rows(
        engine,
        "SELECT character_id, (sheet_before->>'fate_points')::int, "
        "(sheet_after->>'fate_points')::int FROM ledger ORDER BY id",
    ):
        transitions.setdefault(int(cid), Counter())[(int(before), int(after))] += 1
    toasts: dict[int, Counter[tuple[int, int]]] = {}
    for op in (o for o in ops if o.kind == "fp"):
        answer = emu.callback_answers.get(op.query_id)
        # no text: answered while it waited its turn (bot.answers), before its handler ran
        if answer is None or answer.show_alert or not answer.text:
            continue
        assert op.allowed, f"a non-owner's press was accepted: {answer.text}"
        if answer.text in GAIN_ASKED:  # a player's gain waits for the GM (issue 24)
            continue
        found = SUMMARY.search(answer.text or "")
        assert found, answer.text
        toasts.setdefault(op.target, Counter())[(int(found[1]), int(found[2]))] += 1
    for cid, seen in toasts.items():
        assert seen <= transitions.get(cid, Counter()), (cid, seen, transitions.get(cid))
    owners = {where: cid for cid, where in panels.items()}
    lines: dict[int, Counter[tuple[int, int]]] = {}
    for kind, chat, mid, shown in recorder.events:
        if kind == "edit" and (chat, mid) in owners and (found := SUMMARY.search(shown)):
            lines.setdefault(owners[(chat, mid)], Counter())[(int(found[1]), int(found[2]))] += 1
    for cid, seen in lines.items():
        assert seen <= transitions.get(cid, Counter()), (cid, seen, transitions.get(cid))


def _check_no_double_answers(emu: BotAPIEmulator, ops: list[Op]) -> None:
    """Each press answered once. A process killed after answering a press and before
    committing its update leaves the update in the inbox: the next launch handles it again and
    its answer is refused as too old — harmless (the press took effect once; the outbound
    layer logs it), so such refusals are allowed; any other refusal is a bug. Double answers
    within one process are counted by tests/callbacks."""
    calls = emu.calls_to("answerCallbackQuery")
    refused = [c for c in calls if not c.ok and "query is too old" not in (c.description or "")]
    assert refused == [], [c.description for c in refused]
    answered = Counter(str(c.params.get("callback_query_id")) for c in calls if c.ok)
    assert all(n == 1 for n in answered.values())
