"""Interactive terminal chat with the bot over the Bot API emulator."""

from bot.sandbox.repl import run_sandbox

__all__ = ["run_sandbox"]
