"""A step no kind covers, drawn by its system (e.g. ranking categories by priority).

``widgets()`` are put between the step's text and «Back»/«Next»; their handlers change the
draft (``draft(manager)``). ``data(sheet, options, t, locale)`` is the window data they read,
its ``"lines"`` (escaped HTML) shown under the question. Everything else (the header, the
question, refusals, Back/Next, Cancel, the preview) is the flow's, as for every kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiogram_dialog import DialogManager

from engine.common import SheetModel
from handlers.wizards.flow import stored
from handlers.wizards.flow.kinds import Draft


@dataclass(frozen=True)
class Custom:
    key: str
    title: str
    prompt: str
    widgets: Callable[[], list[Any]]
    data: Callable[[SheetModel, Any, Any, str], dict[str, Any]]


def draft(manager: DialogManager) -> Draft:
    return stored.draft(manager)
