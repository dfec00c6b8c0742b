"""The child process of ``bot.cpu.CpuPool``, run as a script: ``python bot/cpu_worker.py``.
Run so, it imports no more than its jobs' modules (``engine``); as ``-m bot.cpu_worker`` it
would import the ``bot`` package first, and with it aiogram.

Reads jobs from stdin and writes results to stdout, each a length-prefixed pickle: a job is
(module, function name, arguments), a result (True, value) or (False, exception). Only the
bot that started it writes to its stdin. One job at a time; ends when stdin closes.
"""

from __future__ import annotations

import importlib
import pickle
import struct
import sys
from pathlib import Path
from typing import Any, BinaryIO

HEADER = struct.Struct(">Q")


def read_frame(stream: BinaryIO) -> bytes | None:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def frame(value: object) -> bytes:
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def _call(module: str, name: str, args: tuple[Any, ...]) -> object:
    function = getattr(importlib.import_module(module), name)
    return function(*args)


def serve(source: BinaryIO, sink: BinaryIO) -> None:
    while (body := read_frame(source)) is not None:
        module, name, args = pickle.loads(body)
        try:
            reply = frame((True, _call(module, name, args)))
        except Exception as exc:  # the job's own failure goes back to the bot
            try:
                reply = frame((False, exc))
            except Exception:  # an exception that does not pickle: its text does
                reply = frame((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        sink.write(reply)
        sink.flush()


def main() -> None:
    # As a script, its own folder (``bot/``) comes first on the path: the project's root is
    # what the jobs' modules are imported from.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)
    sink = sys.stdout.buffer
    sys.stdout = sys.stderr  # stdout carries frames only; a stray print goes to stderr
    serve(sys.stdin.buffer, sink)


if __name__ == "__main__":
    main()
