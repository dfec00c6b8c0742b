"""What a step may add to the generic one (see the optional fields in ``kinds``): lines under
its question, its own refusal of a typed answer, a picked choice's data kept in the draft."""

from __future__ import annotations

from typing import Any

from aiogram_dialog import DialogManager

from handlers.views.sheets import fit
from handlers.wizards.common import WizardStart, esc, locale_of
from handlers.wizards.flow.kinds import Choice, Choose, Draft, Flow, Step, Text, kept

SHOWN_MAX = 3000  # a listing inside a step leaves room for the texts around it


def extra_lines(
    flow: Flow, manager: DialogManager, step: Step, draft: Draft, choices: tuple[Choice, ...]
) -> list[str]:
    """``Text.lines`` from the sheet so far; ``Choose.describe`` of every choice."""
    t = manager.middleware_data["t"]
    if isinstance(step, Text) and step.lines is not None:
        options = flow.options(WizardStart.of(manager).options)
        return [step.lines(flow.build(draft, options), options, t, locale_of(manager))]
    if isinstance(step, Choose) and step.describe is not None:
        return [fit("\n".join(step.describe(c, t) for c in choices), SHOWN_MAX)]
    return []


def own_refusal(manager: DialogManager, step: Any, raw: str) -> str | None:
    """``Text.check``, ``Choose.check``: the step's own reason to refuse a typed answer."""
    if not isinstance(step, Text | Choose) or step.check is None:
        return _taken(manager, step, raw)
    found = step.check(raw, manager.middleware_data["t"], WizardStart.of(manager).party)
    return found or _taken(manager, step, raw)


def _taken(manager: DialogManager, step: Any, raw: str) -> str | None:
    """``Text.taken``: a name one of the party has already, case aside."""
    if not isinstance(step, Text) or not step.taken:
        return None
    name = " ".join(raw.split())
    if name.casefold() not in {other.casefold() for other in WizardStart.of(manager).party}:
        return None
    return esc(manager.middleware_data["t"](step.taken, name=name))


def keep(draft: Draft, step: Choose, choices: tuple[Choice, ...], item: str) -> None:
    """A picked choice's ``data`` (a GM's role as shown) goes into the draft with its id."""
    data = next((c.data for c in choices if c.id == item), None)
    if data is not None:
        draft[kept(step.key)] = data
