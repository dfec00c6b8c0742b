"""Per-system options on a pending request card, chosen before the roll.

* ``cliche`` — pumping (накачка): the player adds X dice to this one roll; right after the roll
  the cliché loses X dice as ordinary damage (``engine.systems.cliche.pay_pump``, through the
  ledger, in the same transaction as the roll). Once per request; X is 1..the cliché's dice.
* ``matter`` — the GM's named pool modifiers: advantage +1 or overwhelming +3, a complication
  −1 or everything against −3 (one of each side, toggled); a pool ≤ 0 is the chance roll.
* ``lifegear`` — the weapon (a ready weapon of the sheet, adding its dice) and, when the weapon
  names several stats the sheet has, which of them (``engine.systems.lifegear.roll_expression``).

Every choice rewrites the request's ``expression`` (what the roll log will roll) and keeps the
choice in ``options``; the card's odds are recomputed from the expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n import N_
from bot.services import ledger
from bot.services.games import is_gm
from bot.services.request_checks import RequestRefused, check_live, on_card
from bot.systems import SYSTEMS
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.errors import EngineError
from engine.systems import cliche, lifegear
from engine.systems.base import RequestOption
from engine.systems.matter.rolls import (
    CHANCE_NOTATION,
    MODIFIER_DICE,
    Modifier,
    modifier_total,
    pool_notation,
)

MAX_PUMP: Final = 6  # a cliché has at most 6 dice (advancement cap)
MATTER_STEPS: Final = (-3, -1, 1, 3)
MAX_WEAPONS: Final = 6
# The request option naming the rolled cliché (a key stored with requests, not a system name).
CLICHE_KEY: Final = "cliche"

_CLICHE_POOL: Final = re.compile(r"^(\d+)d6$")
_MATTER_POOL: Final = re.compile(r"^(\d+)d10>=7!$")
_BY_DICE: Final = {dice: modifier for modifier, dice in MODIFIER_DICE.items()}


@dataclass(frozen=True)
class Weapon:
    index: int  # position in the sheet's gear (the button carries it)
    name: str
    dice: str


@dataclass(frozen=True)
class Offer:
    """What the pending card offers now (empty: nothing but the roll)."""

    pump_max: int = 0  # cliche: pump buttons 1..pump_max
    matter: bool = False  # matter: the GM's modifier buttons
    weapons: tuple[Weapon, ...] = ()  # lifegear: ready weapons usable with the requested stat
    stats: tuple[tuple[int, str], ...] = ()  # lifegear: (sheet index, name) the weapon allows
    boosts: tuple[Weapon, ...] = ()  # lifegear: abilities / Help / items used before the roll


def matter_base(request: RequestDTO) -> int | None:
    """The pool before the GM's modifiers (a chance roll counts as 0); None: not a matter pool."""
    if "base" in request.options:
        return int(request.options["base"])
    if request.expression == CHANCE_NOTATION:
        return 0
    found = _MATTER_POOL.match(request.expression)
    return int(found[1]) if found else None


def matter_modifiers(options: dict[str, Any]) -> tuple[Modifier, ...]:
    return tuple(_BY_DICE[int(d)] for d in options.get("mods", ()) if int(d) in _BY_DICE)


def matter_pool(request: RequestDTO) -> int | None:
    base = matter_base(request)
    if base is None:
        return None
    return base + modifier_total(matter_modifiers(request.options))


async def _sheet(uow: UnitOfWork, game: GameDTO, user_id: int) -> tuple[int, SheetModel] | None:
    active = await uow.characters.active_of(game.id, user_id)
    if active is None:
        return None
    return active.id, SYSTEMS[game.system].load(active.sheet, active.schema_version)


def _lifegear_weapons(character: lifegear.Character) -> tuple[Weapon, ...]:
    names = {s.name.casefold() for s in character.stats}
    weapons = []
    for index, item in enumerate(character.gear):
        if item.kind is not lifegear.ItemKind.WEAPON or not item.usable:
            continue
        allowed = {s.casefold() for s in item.stats}
        if allowed and not (allowed & names):
            continue  # no stat of this sheet can use it
        weapons.append(Weapon(index, item.name, item.dice))
    return tuple(weapons[:MAX_WEAPONS])


_BOOST_KINDS: Final = (lifegear.ItemKind.ABILITY, lifegear.ItemKind.HELP, lifegear.ItemKind.ITEM)


def _lifegear_boosts(character: lifegear.Character, chosen: list[str]) -> tuple[Weapon, ...]:
    """Ready abilities, Help and items with dice declared before the roll (and those chosen)."""
    boosts = [
        Weapon(index, item.name, item.dice)
        for index, item in enumerate(character.gear)
        if item.kind in _BOOST_KINDS
        and item.dice.strip()
        and item.timing is lifegear.UseTiming.BEFORE
        and (item.usable or item.id in chosen)
    ]
    return tuple(boosts[:MAX_WEAPONS])


def _weapon_stats(character: lifegear.Character, item: lifegear.Item) -> tuple[str, ...]:
    return tuple(name for _, name in _weapon_stat_indices(character, item))


def _weapon_stat_indices(
    character: lifegear.Character, item: lifegear.Item
) -> tuple[tuple[int, str], ...]:
    allowed = {s.casefold() for s in item.stats}
    return tuple(
        (i, s.name) for i, s in enumerate(character.stats) if s.name.casefold() in allowed
    )


def _offers(game: GameDTO, option: RequestOption) -> bool:
    """Whether the game's system offers ``option`` on a pending request card."""
    return option in SYSTEMS[game.system].requests.offers


async def offer(uow: UnitOfWork, game: GameDTO, request: RequestDTO) -> Offer:
    if request.status != "pending":
        return Offer()
    if _offers(game, RequestOption.POOL_MODIFIERS):
        return Offer(matter=matter_base(request) is not None)
    if not (_offers(game, RequestOption.PUMP) or _offers(game, RequestOption.GEAR)):
        return Offer()
    found = await _sheet(uow, game, request.target_user_id)
    if found is None:
        return Offer()
    character = found[1]
    if isinstance(character, cliche.Character) and CLICHE_KEY in request.options:
        if request.options.get("pump"):
            return Offer()
        try:
            current = character.cliche(str(request.options[CLICHE_KEY])).current
        except EngineError:
            return Offer()
        return Offer(pump_max=min(current, MAX_PUMP))
    if isinstance(character, lifegear.Character) and "stat" in request.options:
        weapons = _lifegear_weapons(character)
        stats: tuple[tuple[int, str], ...] = ()
        chosen = request.options.get("weapon")
        if chosen is not None:
            item = next((i for i in character.gear if i.id == chosen), None)
            if item is not None:
                stats = _weapon_stat_indices(character, item)
        boosts = _lifegear_boosts(character, list(request.options.get("boosts", ())))
        return Offer(weapons=weapons, stats=stats if len(stats) > 1 else (), boosts=boosts)
    return Offer()


# --- the presses -------------------------------------------------------------------------------


async def _pending(
    uow: UnitOfWork, request_id: int, where: tuple[int, int], user_id: int, *,
    gm_only: bool = False,
) -> tuple[RequestDTO, GameDTO]:  # fmt: skip
    """The pending request whose card is the pressed message ``where`` (chat, message)."""
    request = await uow.requests.get(request_id, for_update=True)
    request = on_card(request, chat_id=where[0], message_id=where[1])
    if request.status != "pending":
        raise RequestRefused(N_("Already rolled."))
    game = await uow.games.get(request.game_id)
    check_live(game)
    assert game is not None
    gm = await is_gm(uow, game, user_id)
    if gm_only and not gm:
        raise RequestRefused(N_("Only the GM can do that."))
    if not gm and user_id != request.target_user_id:
        raise RequestRefused(N_("This roll is for someone else."))
    return request, game


async def _save(
    uow: UnitOfWork, request: RequestDTO, expression: str, options: dict[str, Any]
) -> RequestDTO:
    if not await uow.requests.set_options(
        request.id, expression=expression, options=options, trait=request.trait
    ):
        raise RequestRefused(N_("Already rolled."))
    await uow.commit()
    updated = await uow.requests.get(request.id)
    assert updated is not None
    return updated


async def pump(
    uow: UnitOfWork,
    *,
    request_id: int,
    chat_id: int,
    message_id: int,
    user_id: int,
    dice: int,
) -> RequestDTO:
    """Pump the requested cliché by ``dice`` for this roll (paid right after it); once."""
    request, game = await _pending(uow, request_id, (chat_id, message_id), user_id)
    if not _offers(game, RequestOption.PUMP) or CLICHE_KEY not in request.options:
        raise RequestRefused(N_("This button is no longer active."))
    if request.options.get("pump"):
        raise RequestRefused(N_("This roll is already pumped."))
    found = await _sheet(uow, game, request.target_user_id)
    pool = _CLICHE_POOL.match(request.expression)
    if found is None or not isinstance(found[1], cliche.Character) or pool is None:
        raise RequestRefused(N_("The player has no active character here."))
    current = found[1].cliche(str(request.options[CLICHE_KEY])).current
    if not 1 <= dice <= min(current, MAX_PUMP):
        raise RequestRefused(N_("The cliché does not have that many dice to pump."))
    base = int(pool[1])
    options = {**request.options, "pump": dice, "base": base}
    return await _save(uow, request, f"{base + dice}d6", options)


async def modify(
    uow: UnitOfWork,
    *,
    request_id: int,
    chat_id: int,
    message_id: int,
    user_id: int,
    dice: int,
) -> RequestDTO:
    """The GM toggles a named matter modifier (one positive, one negative at most)."""
    request, game = await _pending(uow, request_id, (chat_id, message_id), user_id, gm_only=True)
    base = matter_base(request)
    if not _offers(game, RequestOption.POOL_MODIFIERS) or base is None or dice not in _BY_DICE:
        raise RequestRefused(N_("This button is no longer active."))
    mods = [int(d) for d in request.options.get("mods", ())]
    same_side = [d for d in mods if (d > 0) == (dice > 0)]
    mods = [d for d in mods if (d > 0) != (dice > 0)]
    if dice not in same_side:
        mods.append(dice)  # replaces the other step of the same side; pressing it again clears
    options = {**request.options, "base": base, "mods": sorted(mods)}
    pool = base + sum(mods)
    return await _save(uow, request, pool_notation(pool) if pool > 0 else CHANCE_NOTATION, options)


def _lifegear_expression(
    character: lifegear.Character, stat: str, weapon: str | None, boosts: tuple[str, ...] = ()
) -> str:
    plan = lifegear.RollPlan(stat=stat, weapon=weapon, boosts=boosts)
    expr, _ = lifegear.roll_expression(character, plan)
    return expr.render()


async def choose(
    uow: UnitOfWork, *, request_id: int, chat_id: int, message_id: int, user_id: int,
    weapon: int, stat: int,
    boost: int = -1,
) -> RequestDTO:  # fmt: skip
    """Lifegear: take the sheet's weapon number ``weapon`` (−1: none, −2: keep), for a weapon
    with several stats the sheet's stat number ``stat`` (−1: keep), or toggle the gear item
    number ``boost`` (an ability, Help or item used before the roll, spent when rolled).
    Raises ``EngineError`` when the sheet's rules refuse it (a broken weapon, a spent ability,
    a stat the weapon does not use)."""
    request, game = await _pending(uow, request_id, (chat_id, message_id), user_id)
    if not _offers(game, RequestOption.GEAR) or "stat" not in request.options:
        raise RequestRefused(N_("This button is no longer active."))
    found = await _sheet(uow, game, request.target_user_id)
    if found is None or not isinstance(found[1], lifegear.Character):
        raise RequestRefused(N_("The player has no active character here."))
    character = found[1]
    options = dict(request.options)
    options.setdefault("requested_stat", options["stat"])
    if weapon >= 0:
        if weapon >= len(character.gear):
            raise RequestRefused(N_("This button is no longer active."))
        item = character.gear[weapon]
        options["weapon"] = item.id
        allowed = _weapon_stats(character, item)
        if item.stats and options["stat"] not in allowed:
            # the weapon does not use the requested stat: its first stat on this sheet
            options["stat"] = allowed[0] if allowed else options["stat"]
    elif weapon == -1 and stat < 0:
        options.pop("weapon", None)
        options["stat"] = options["requested_stat"]
    if stat >= 0:
        if stat >= len(character.stats) or not options.get("weapon"):
            raise RequestRefused(N_("This button is no longer active."))
        options["stat"] = character.stats[stat].name
    if boost >= 0:
        if boost >= len(character.gear):
            raise RequestRefused(N_("This button is no longer active."))
        item_id = character.gear[boost].id
        chosen = [b for b in options.get("boosts", ()) if b != item_id]
        if len(chosen) == len(options.get("boosts", ())):
            chosen.append(item_id)
        options["boosts"] = chosen
        options["boost_names"] = [lifegear.find_item(character, b).name for b in chosen]
    expression = _lifegear_expression(
        character, options["stat"], options.get("weapon"), tuple(options.get("boosts", ()))
    )
    if options.get("weapon"):
        options["weapon_name"] = lifegear.find_item(character, options["weapon"]).name
    else:
        options.pop("weapon_name", None)
    return await _save(uow, request, expression, options)


# --- at the roll -------------------------------------------------------------------------------


async def check_before_roll(uow: UnitOfWork, game: GameDTO, request: RequestDTO) -> None:
    """Lifegear: the chosen weapon and boosts must still be usable when the dice fall."""
    if not _offers(game, RequestOption.GEAR) or not (
        request.options.get("weapon") or request.options.get("boosts")
    ):
        return
    found = await _sheet(uow, game, request.target_user_id)
    if found is None or not isinstance(found[1], lifegear.Character):
        return
    try:
        _lifegear_expression(
            found[1], request.options["stat"], request.options.get("weapon"),
            tuple(request.options.get("boosts", ())),
        )  # fmt: skip
    except EngineError as error:
        raise RequestRefused(N_("The chosen gear cannot be used now: choose again.")) from error


async def settle(uow: UnitOfWork, game: GameDTO, request: RequestDTO, user_id: int) -> None:
    """After the (first) roll: pay a cliché pump, spend lifegear boosts (ledger; no commit)."""
    boosts = tuple(str(b) for b in request.options.get("boosts", ()))
    if _offers(game, RequestOption.GEAR) and boosts:
        await _spend_boosts(uow, game, request, user_id, boosts)
        return
    pumped = int(request.options.get("pump", 0))
    if not _offers(game, RequestOption.PUMP) or not pumped:
        return
    found = await _sheet(uow, game, request.target_user_id)
    if found is None:
        return
    name = str(request.options[CLICHE_KEY])
    try:
        await ledger.change_sheets(
            uow, game=game, actor_user_id=user_id, kind="cliche.pump",
            changes={found[0]: lambda c: cliche.pay_pump(c, name, pumped)[0]},  # type: ignore[arg-type]
            reason=f"request {request.id}",
        )  # fmt: skip
    except (EngineError, ledger.LedgerError):
        return  # the cliché is gone from the sheet: the roll stands, nothing to pay from


async def _spend_boosts(
    uow: UnitOfWork, game: GameDTO, request: RequestDTO, user_id: int, boosts: tuple[str, ...]
) -> None:
    found = await _sheet(uow, game, request.target_user_id)
    if found is None:
        return

    def spend(character: SheetModel) -> SheetModel:
        assert isinstance(character, lifegear.Character)
        for item_id in boosts:  # spent per its use limit, as a roll with boosts does
            character = lifegear.use_item(character, item_id)[0]
        return character

    await ledger.change_sheets(
        uow, game=game, actor_user_id=user_id, kind="lifegear.use",
        changes={found[0]: spend}, reason=f"request {request.id}",
    )  # fmt: skip
