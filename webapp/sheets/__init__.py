"""Each system's page layout, registered by system id (``LAYOUTS``): the page asks the
registry, never the system's name. A test holds ``LAYOUTS`` to ``bot.systems.SYSTEMS``, so a
new system cannot ship without its page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from webapp.sheets import cliche, fate, lifegear, matter, storyteller
from webapp.sheets.base import Ctx

Layout = Callable[[Any, Ctx], str]

LAYOUTS: Final[dict[str, Layout]] = {
    "fate": fate.render,
    "storyteller": storyteller.render,
    "matter": matter.render,
    "cliche": cliche.render,
    "lifegear": lifegear.render,
}
