"""The bot: config, factories, middlewares, services, jobs (the composition root that wires
``handlers/`` in is ``tabletop/``).

Importing it first makes aiogram build its Bot API models lazily (``bot.lazy_models``).
"""

from bot import lazy_models

lazy_models.install()
