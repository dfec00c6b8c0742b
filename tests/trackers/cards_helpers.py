"""The multi-roll card tests' own pieces (heroes of each system, the card's commands and
presses); the table itself comes from ``tests.helpers.table``."""

from __future__ import annotations

from typing import Any

from engine.common import SheetModel
from engine.dice.evaluator import roll
from engine.dice.results import RollResult
from engine.dice.source import ScriptedSource
from engine.systems import cliche, fate, storyteller
from engine.systems.storyteller import AbilityDots, AbilityGroup, Attributes
from tests.conftest import Harness
from tests.games.helpers import GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import current, press_data, send_and_answer, tracker_rolls
from tgemu import CallbackAnswer, ChatMessage


async def start(h: Harness, system: str) -> None:
    seat_table(h)
    await create_game(h, system, "Кампания")


def fate_hero(name: str, **skills: int) -> fate.Character:
    return fate.new_character(name).model_copy(
        update={"skills": {fate.Skill(k): v for k, v in skills.items()}}
    )


def st_hero(name: str, attributes: dict[str, int], abilities: dict[str, int]) -> SheetModel:
    return storyteller.new_character(name).model_copy(
        update={
            "attributes": Attributes(**attributes),
            "abilities": tuple(
                AbilityDots(key=k, group=AbilityGroup.TALENTS, dots=v)
                for k, v in abilities.items()
            ),
        }
    )


def cliche_hero(name: str, *cliches: tuple[str, int]) -> cliche.Character:
    return cliche.Character(
        name=name, cliches=tuple(cliche.Cliche(name=n, dice=d) for n, d in cliches)
    )


async def command(h: Harness, line: str, *, user: int = GM) -> ChatMessage:
    """Send ``line`` to the group and return the bot's answer to it."""
    answer = await send_and_answer(h, user, line)
    await h.emu.wait_idle()  # the card's row is committed once the update is done
    return answer


def roll_buttons(card: ChatMessage) -> list[dict[str, Any]]:
    return [b for b in buttons(card) if b.get("callback_data", "").startswith("crd:")]


async def press(
    h: Harness, user: int, card: ChatMessage, data: str, *, chat_id: int = GROUP,
    message_id: int | None = None,
) -> CallbackAnswer:  # fmt: skip
    return await press_data(h, user, message_id or card.message_id, data, chat_id=chat_id)


async def press_and_wait(h: Harness, user: int, card: ChatMessage, data: str) -> ChatMessage:
    """Press and wait for the card's next edit; returns the card as edited."""
    before = current(h, card).edits
    answer = await press(h, user, card, data)
    assert not answer.show_alert, answer.text
    edited = await h.emu.wait_for(lambda: (m := current(h, card)).edits > before and m)
    await h.emu.wait_idle()
    return edited


async def logged(h: Harness) -> list[tuple[str, str, RollResult]]:
    """Every card roll in the log: (roll id, notation, the result recomputed from faces)."""
    return [
        (roll_id, notation, roll(notation, ScriptedSource(faces), stored=True))
        for roll_id, notation, faces in await tracker_rolls(h)
    ]
