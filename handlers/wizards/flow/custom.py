"""A step a system draws itself: the flow gives it its place, «Back» / «Next», «Cancel», the
step's check through the engine at «Next», the refusal line and the preview's jump to it; the
step brings its own widgets, its window data and its handlers (FATE's pyramid of skills with
its column, crossings tied to party members, the refresh traded for stunts)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Custom:
    """``widgets()``: its inputs and keyboards, above the flow's «Back» / «Next» (an input of
    its own comes before the flow's «please answer with text»); ``data(manager)``: its window
    data, ``lines`` (escaped HTML) shown under the prompt, the rest for its widgets. Its own
    ``TextInput`` takes typed answers; any other message gets the flow's refusal."""

    key: str
    title: str
    prompt: str
    widgets: Callable[[], Sequence[Any]]
    data: Callable[[Any], Awaitable[dict[str, Any]]]
    typed: bool = True  # False: a message to it is refused with ``Wording.buttons_only``
