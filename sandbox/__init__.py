"""Interactive terminal chat with the bot over the Bot API emulator."""

from sandbox.repl import run_sandbox

__all__ = ["run_sandbox"]
