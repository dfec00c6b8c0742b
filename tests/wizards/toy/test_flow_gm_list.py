"""The GM's list of a game's records (``flow.gm_list``, lifegear's /roles) on a toy: a list of
pets kept per game. The command in a group points to the private chat; a player who is no GM is
told so; with one game the list opens at once, «New» starts the pet's flow, whose save and
delete are the list's own (refused on the step by the engine's errors or the writer's reason),
their notice back on the list once; a tap on a pet opens its flow at the preview, the other pets
as the party; «New» is gone at the cap; with two games the games come first and «Another game»
goes back. A message to the list says it takes buttons, once."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Router
from aiogram_dialog import DialogManager

from db.database import create_session_factory
from db.uow import UnitOfWork
from engine.common import Violation
from engine.text import msg, register_messages
from handlers.wizards.common import WizardStart
from handlers.wizards.flow import Flow, Text, build_dialog, flow_states
from handlers.wizards.flow.gm_list import GmList, ListWords, list_states
from tests.conftest import Harness
from tests.games.helpers import ALICE, GM, GROUP, buttons
from tests.wizards.storyteller.driver import Player
from tests.wizards.toy.driven import serve
from tests.wizards.toy.toy import ToySheet

# Russian without Latin letters: tests/russian/test_templates reads every registered message
register_messages({"toy.pets.odd": {"en": "Odd is no name.", "ru": "Такое имя не годится."}})
KEPT: dict[int, list[ToySheet]] = {}  # game id → its pets
PARTY: list[list[str]] = []  # the party each opened pet's flow was started with


async def _pets(uow: Any, game_id: int) -> list[ToySheet]:
    return list(KEPT.get(game_id, []))


class Refused(Exception):
    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason, self.params = reason, params


async def _put(uow: Any, game_id: int, user_id: int, pet: ToySheet, edited: str) -> None:
    if pet.name == "Bad":
        raise Refused("No {name} here.", name="<Bad>")  # a param: escaped
    pets = KEPT.setdefault(game_id, [])
    pets[:] = [p for p in pets if p.name != edited] + [pet]


async def _delete(uow: Any, game_id: int, user_id: int, edited: str) -> None:
    KEPT[game_id] = [p for p in KEPT.get(game_id, []) if p.name != edited]


def _check(pet: ToySheet) -> list[Violation]:
    return [Violation("name", msg("toy.pets.odd"))] if pet.name == "Odd" else []


def _load(stored: dict[str, Any] | None, options: Any) -> dict[str, Any]:
    return {"name": stored["name"]} if stored else {}


async def _started(manager: DialogManager) -> None:
    PARTY.append(WizardStart.of(manager).party)


PET = Flow(
    name="pet",
    steps=(Text("name", "Name", "Name the pet.", required=True),),
    options=lambda raw: dict(raw),
    build=lambda d, o: ToySheet(name=d.get("name", "")),
    load=_load,
    validate=lambda sheet, o: [],
    render=lambda s, t, locale: f"pet {s.name}",  # type: ignore[attr-defined]
    finish=lambda manager, pet: PETS.save(manager, pet),
    started=_started,
    preview_widgets=lambda: [PETS.delete_button("Drop")],
)
PetSG = flow_states(PET)
PetsSG = list_states("Pets")
PETS = GmList(
    "pets", "matter", PetsSG, PetSG.name,  # type: ignore[attr-defined]
    records=_pets, line=lambda pet, t: f"a pet, {pet.name}", gm_roles=("gm", "cogm"), cap=2,
    words=ListWords(
        elsewhere="Pets live in the private chat.", no_games="No game of yours keeps pets.",
        which_game="Whose pets?", head="Pets of «{title}»", empty="No pets yet.",
        hint="Tap a pet.", new="New pet", saved="Kept {name}.", deleted="Dropped {name}.",
    ),
    put=_put, delete=_delete, refused=Refused, check=_check,
)  # fmt: skip


def _all() -> list[ToySheet]:
    return [pet for pets in KEPT.values() for pet in pets]


def _routers() -> list[Router]:
    return [*PETS.dialogs(), build_dialog(PET, PetSG)]


def _ids(p: Player) -> list[str]:
    assert p.message is not None
    return [str(b.get("callback_data", "")).split("\x1d", 1)[-1] for b in buttons(p.message)]


async def _second_game(h: Harness) -> int:
    async with UnitOfWork(create_session_factory(h.engine)) as uow:
        game = await uow.games.create(-100777, "matter", "Zoo", GM)
        await uow.commit()
    return int(game.id)


async def test_the_gm_lists_adds_and_opens_records(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    KEPT.clear()
    PARTY.clear()
    await serve(harness, monkeypatch, _routers)
    gm, alice = Player(harness, GM), Player(harness, ALICE)
    before = harness.emu.last_bot_message(GROUP)
    harness.emu.send_text(GM, GROUP, "/pets")
    told = await harness.emu.wait_bot_message(GROUP, after=before.message_id if before else 0)
    assert told.text == "Pets live in the private chat."
    assert (await alice.say("/pets")).text == "No game of yours keeps pets."

    await gm.say("/pets")  # one game: its list at once
    assert "Pets of «Toys»" in gm.text and "No pets yet." in gm.text and "Tap a pet." in gm.text
    assert "new" in _ids(gm) and "og" not in _ids(gm)
    await gm.say("Rex")  # a name typed to the list, not to a pet's flow
    hint = "Пожалуйста, пользуйтесь кнопками или /cancel."
    assert gm.text.endswith(hint) and KEPT == {}
    calls = len(harness.emu.calls)
    await gm.say("Rex")  # the same again: nothing to redraw (Telegram refuses an equal edit)
    assert all(c.ok for c in harness.emu.calls[calls:]) and gm.text.endswith(hint)
    await gm.press("new")
    assert hint not in gm.text
    await gm.say("Bad")  # the last step: on to the preview
    await gm.press("ok")
    assert "No &lt;Bad&gt; here." in gm.message.html and "del" not in _ids(gm)  # (a new one)
    await gm.press("j0")
    await gm.say("Odd")
    await gm.press("ok")
    assert "Такое имя не годится." in gm.text and KEPT == {}
    await gm.press("j0")
    await gm.say("Rex")
    await gm.press("ok")
    assert gm.text.startswith("Kept Rex.") and "1. a pet, Rex" in gm.text
    await gm.press("new")
    await gm.say("Tom")
    await gm.press("ok")
    assert "2. a pet, Tom" in gm.text and "new" not in _ids(gm)  # the cap: no «New»
    await gm.press("r:0")
    assert "pet Rex" in gm.text and PARTY[-1] == ["Tom"]  # at its preview, the others named
    await gm.press("ok")
    assert gm.text.startswith("Kept Rex.") and [p.name for p in _all()] == ["Tom", "Rex"]
    await gm.press("r:0")
    await gm.press("del")
    assert gm.text.startswith("Dropped Tom.") and "1. a pet, Rex" in gm.text
    await gm.say("/pets")
    assert "Kept" not in gm.text  # the notice was shown once

    game_id = await _second_game(harness)
    await gm.say("/pets")  # two games: which one first
    assert "Whose pets?" in gm.text and f"g:{game_id}" in _ids(gm)
    await gm.press(f"g:{game_id}")
    assert "Pets of «Zoo»" in gm.text and "No pets yet." in gm.text and "og" in _ids(gm)
    await gm.press("og")
    assert "Whose pets?" in gm.text
