"""A step whose windows are its module's own widgets (pure data, no aiogram).

What a system keeps as its own (a grid of dots whose name tells what the trait does, an entry
asked part by part) is a ``Screens`` step: ``windows(states)`` makes its windows from the
flow's ``StatesGroup``. The generic dialog still owns what every step shares: the states
(``<Name>SG:<key>``, then ``<Name>SG:<more…>`` for its further windows), the draft
(``flow.own``: ``own_draft``), a refusal in the press's answer and shown once on its step
(``own_fail``, ``{error}`` in the window data), ``{review}`` once the preview was reached,
``{editing}`` for an approved sheet, «Cancel» on every window, resume after a restart and a
returned sheet re-entered at its preview. ``Flow.preview`` likewise gives the preview a window
of the module's own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

Getter = Callable[..., Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Screens:
    """``windows(states)``: the step's window (state ``key``) then one per ``more`` state;
    ``getter(dialog_manager)`` adds its data to each of them. The more states follow the
    preview's in the ``StatesGroup`` (the steps keep their numbers): from one of them, switch
    by name (``own_switch``) rather than with aiogram-dialog's ``Back``."""

    key: str
    title: str
    prompt: str
    windows: Callable[[Any], Sequence[Any]]
    getter: Getter | None = None
    more: tuple[str, ...] = ()
