"""The bot: composition root, middlewares, services, the emulator and the sandbox.

Importing it first makes aiogram build its Bot API models lazily (``bot.lazy_models``).
"""

from bot import lazy_models

lazy_models.install()
