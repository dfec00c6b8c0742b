"""What one update costs the database: a plain /r is two round trips on the driver connection,
no transaction of its own — a read of the sender, chat, game, FSM rows and the log's head, then
one statement that claims the update and appends (``UnitOfWork.peek_update``) — and one once
the process remembers those rows (``bot/express.py``); none through SQLAlchemy and nothing on
the FSM's own pool; the chat's first roll takes the locked path
(begin, claim with the head, epoch, append, commit); a two-step flow reads its state from its
claim."""

from __future__ import annotations

from sqlalchemy import text

from tests.conftest import Harness
from tests.helpers.statements import driver_statements, orm_statements

ALICE = 1001


async def test_a_roll_is_one_round_trip_once_its_rows_are_remembered(running: Harness) -> None:
    emu, runtime = running.emu, running.runtime
    assert runtime is not None and runtime.update_engine is not None
    emu.add_user(ALICE, "Alice", language_code="en")
    with driver_statements(runtime.update_engine) as first:
        emu.send_text(ALICE, ALICE, "/r 1d6")  # the first roll opens the chat's log and epoch
        await emu.wait_bot_message(ALICE, contains="1d6")
        await emu.wait_idle()
    peek = first.index("SELECT u.id, u.first_name,")  # after a new connection's own setup
    assert first[peek + 1 : peek + 3] == ["BEGIN;", "WITH claim AS"]  # no head yet: locked
    assert first[-1] == "COMMIT;" and "INSERT INTO rolls" in first

    async def roll() -> tuple[list[str], list[str], list[str]]:
        assert runtime is not None and runtime.update_engine is not None
        with (
            orm_statements(runtime.fsm_engine) as fsm,
            orm_statements(runtime.update_engine) as orm,
            driver_statements(runtime.update_engine) as driver,
        ):
            sent = emu.send_text(ALICE, ALICE, "/r 4dF+2")
            await emu.wait_bot_message(ALICE, contains="4dF", after=sent.message_id)
            await emu.wait_idle()
        return [s for s in fsm if "update_inbox" not in s], orm, driver  # not the polled batch

    # The sender's rows are not remembered yet (the first roll took the locked path).
    assert await roll() == ([], [], [
        "SELECT u.id, u.first_name,",  # with roll_log_peek(): the head, nothing locked
        "SELECT roll_append_stamped($1, $2,",  # check, lock, check the head, claim, append
    ])  # fmt: skip
    # Remembered since, with the head its append made: one statement, committed by itself.
    assert await roll() == ([], [], ["SELECT roll_append_stamped($1, $2,"])
    async with running.engine.connect() as conn:
        logged = (await conn.execute(text("SELECT count(*) FROM rolls"))).scalar_one()
    assert logged == 3


async def test_a_two_step_flow_reads_its_state_from_the_claim(running: Harness) -> None:
    emu, runtime = running.emu, running.runtime
    assert runtime is not None and runtime.update_engine is not None
    emu.add_user(ALICE, "Alice", language_code="en")
    emu.send_text(ALICE, ALICE, "/profile")
    await emu.wait_bot_message(ALICE, contains="Step 1 of 2")
    await emu.wait_idle()
    with (
        orm_statements(runtime.fsm_engine) as fsm,
        driver_statements(runtime.update_engine) as driver,
    ):
        emu.send_text(ALICE, ALICE, "Alice the Bold")
        await emu.wait_bot_message(ALICE, contains="Step 2 of 2")
        await emu.wait_idle()
    # The step's writes (state and data) in the update's own transaction, committed with its
    # claim (bot.fsm_storage.in_unit); no read: the claim brought the state.
    assert [s for s in fsm if "update_inbox" not in s] == []
    writes = [s for s in driver if s.startswith("INSERT INTO fsm_states")]
    assert writes and not [s for s in driver if s.startswith("SELECT state, data")]
    assert driver[-1] == "COMMIT;"
