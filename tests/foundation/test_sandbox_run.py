"""``make run`` with no token and no DATABASE_URL: embedded Postgres + emulator + terminal chat.

A scripted session is piped in; the sandbox must start (within the minute the issue allows),
answer /start, follow a button press and quit cleanly.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import uuid

from tests.foundation.test_process import ROOT, bot_env

SCRIPT = (
    "/start\n/press 1\n/chat group\n/as bob en\n/start\n"
    # the GM starts a «Matter» game (5th system button); Alice follows «Create character»
    "/as gm\n/newgame Сага\n/press 5\n/as alice\n/chat group\n/press 1\n/quit\n"
)


async def _sandbox(data_dir: object, script: str) -> tuple[int | None, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tabletop",
        cwd=ROOT,
        env=bot_env(DATA_DIR=str(data_dir), TELEGRAM_API_URL=""),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(script.encode()), timeout=90)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, out.decode(), err.decode()


async def test_sandbox_session_with_embedded_postgres() -> None:
    # Under the project, not /tmp: run as root, the embedded server's own system user must be
    # able to reach its data directory.
    data_dir = ROOT / ".data" / f"sandbox-test-{uuid.uuid4().hex[:8]}"
    try:
        code, text, errors = await _sandbox(data_dir, SCRIPT)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    assert code == 0, errors
    assert "Привет, alice!" in text or "Привет, Alice!" in text, text
    assert "Команды" in text  # the help screen after pressing button 1
    assert "Hello, Bob!" in text or "Hello, bob!" in text, text
    assert "Сага" in text  # the game was created
    assert "Шаг 1 из 4" in text  # the deep link opened the creation wizard in the DM
    assert "Traceback" not in errors


async def test_a_restarted_sandbox_answers_from_its_first_message() -> None:
    """The second ``make run`` on the same data numbers its updates and each chat's messages
    after the first run's: with numbering from 1 again, the first run's claims swallowed its
    first messages silently, and a new /r got back the first run's roll of that message id."""
    data_dir = ROOT / ".data" / f"sandbox-test-{uuid.uuid4().hex[:8]}"
    first = "/r 4dF+2 уклонение от призрака\n/start\n/help\n/start\n/quit\n"
    try:
        code, text, errors = await _sandbox(data_dir, first)
        assert code == 0, errors
        assert "уклонение от призрака" in text, text
        code, text, errors = await _sandbox(data_dir, "/r 1d20+3\n/as bob en\n/start\n/quit\n")
        assert code == 0, errors
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    assert "Hello, Bob!" in text or "Hello, bob!" in text, text
    assert "1d20+3" in text and "уклонение" not in text, text
    assert "Traceback" not in errors
