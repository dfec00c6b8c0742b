"""The fate conflict tracker tests' own pieces (heroes, the conflict, its buttons by prefix);
the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

from collections.abc import Callable

from engine.systems import fate
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, seat_table
from tests.helpers import table as tb
from tgemu import CallbackAnswer, ChatMessage

__all__ = ["GROUP", "ChatMessage", "buttons", "create_game", "fate", "seat_table"]


def hero(name: str, *, fate_points: int = 3, **skills: int) -> fate.Character:
    levels = {fate.Skill(k): v for k, v in skills.items()}
    return fate.new_character(name).model_copy(
        update={"fate_points": fate_points, "skills": levels}
    )


async def table(h: Harness) -> None:
    seat_table(h)
    await h.start()
    await create_game(h, "fate", "Конфликт")


async def open_conflict(h: Harness, args: str = "", user: int = GM) -> ChatMessage:
    """``/conflict [args]``; the tracker message (the one with the zone buttons)."""
    return await tb.send_for_buttons(h, user, f"/conflict {args}".strip(), "fzs:")


def data_of(h: Harness, tracker: ChatMessage, match: Callable[[str, str], bool]) -> str:
    """The callback data of the tracker's first button whose (label, data) matches."""
    shown = [
        (b.get("text", ""), b.get("callback_data", "")) for b in buttons(tb.current(h, tracker))
    ]
    found: list[str] = [d for label, d in shown if match(label, d)]
    assert found, shown
    return found[0]


def has(h: Harness, tracker: ChatMessage, prefix: str) -> bool:
    return any(
        b.get("callback_data", "").startswith(prefix) for b in buttons(tb.current(h, tracker))
    )


async def press(
    h: Harness, user: int, tracker: ChatMessage, prefix: str, contains: str = ""
) -> CallbackAnswer:
    """Press the first button whose data starts with ``prefix`` and whose label or data
    contains ``contains``."""
    data = data_of(
        h, tracker, lambda label, d: d.startswith(prefix) and (contains in label or contains in d)
    )
    return await tb.press_data(h, user, tracker, data)


async def end(h: Harness, tracker: ChatMessage, *, keep: bool = False) -> None:
    """The GM ends the conflict: «Завершить» (or «…стресс оставить»), then «Да, завершить»."""
    label = "стресс оставить" if keep else "⏹"
    await press(h, GM, tracker, "fze:", label)
    await press(h, GM, tracker, "fzy:", "Да, завершить")
