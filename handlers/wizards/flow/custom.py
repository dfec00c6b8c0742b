"""A step whose window the system's module supplies: a look or a behaviour no step kind has
(and that a released wizard's players and tests already know), placed in the flow's order and
states like any step. A flow may supply its own preview window the same way
(``Flow.own_preview``). Such windows read their own data (their ``getter``): the generic getter
adds nothing to them. ``flow.own_widgets`` has the pieces they are made of."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from handlers.wizards.flow.kinds import Flow


@dataclass(frozen=True)
class Custom:
    """``window(state)``: the step's window (an aiogram-dialog ``Window``) for the state the
    flow gives it (``<Name>SG:<key>``)."""

    key: str
    window: Callable[[Any], Any]
    title: str = ""
    prompt: str = ""


def owns(flow: Flow, step: Any) -> bool:
    """The window shown is the module's own (a custom step, or the flow's own preview)."""
    return isinstance(step, Custom) or (step is None and flow.own_preview is not None)
