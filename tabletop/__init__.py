"""The composition root: ``python -m tabletop`` wires ``handlers/`` into the dispatcher that
``bot/`` builds, so ``bot/`` never imports ``handlers/`` (``tests/layout/test_imports.py``)."""

import bot  # noqa: F401  # before aiogram: its models are then built lazily (bot.lazy_models)
