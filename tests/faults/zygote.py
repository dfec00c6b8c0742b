"""Starts ``python -m tabletop`` processes quickly: imports the bot once, then forks a fresh
process for every launch (as gunicorn's ``preload`` does). Each child runs the real
``tabletop.__main__`` in its own process, with its own event loop, pool and sockets; only the
imported modules are shared, copy-on-write. Python's imports of aiogram and SQLAlchemy cost
seconds of CPU, which on a busy machine made a fault test about start-up time rather than about
faults.

Protocol on stdin/stdout, one line each:
``fork <log path>`` → ``pid <pid>``; whenever a child ends → ``exit <pid> <exit code>`` (a
signal as its negative number, as ``subprocess`` reports it). EOF on stdin ends the zygote.
"""

from __future__ import annotations

import os
import runpy
import select
import sys

import db.database  # noqa: F401
import handlers  # noqa: F401
import tabletop.app  # noqa: F401  (the point: imported before any fork)


def _child(log_path: str) -> None:
    code = 0
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(devnull, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        sys.argv = ["tabletop"]
        runpy.run_module("tabletop", run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _reap(out: list[str]) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        out.append(f"exit {pid} {os.waitstatus_to_exitcode(status)}")


def main() -> None:
    stdin = sys.stdin.buffer
    while True:
        lines: list[str] = []
        _reap(lines)
        readable, _, _ = select.select([stdin], [], [], 0.02)
        if readable:
            raw = stdin.readline()
            if not raw:
                return
            command, _, arg = raw.decode().strip().partition(" ")
            if command == "fork":
                sys.stdout.flush()
                pid = os.fork()
                if pid == 0:
                    _child(arg)
                lines.append(f"pid {pid}")
        if lines:
            sys.stdout.write("".join(line + "\n" for line in lines))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
