"""GM gates on gains: a player's press that raises their own resource asks the GM instead.

Spending stays the player's. A gain (a fate point, a lost cliché die back, Willpower or Glamour
regained, a point of Health healed) pressed by a player who is not a GM opens a request; the GM
grants it with one tap and only then the ledger changes — recording the GM as the actor and the
player in ``asked_by_user_id``. A game whose GM trusts the table (``grant_trust``) skips it.

Idempotency is the database's: one open request per character and operation (a partial unique
index), and a decision is a conditional ``UPDATE … WHERE status = 'open'``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from bot.i18n import N_
from bot.services import resources
from bot.services.games import is_gm
from bot.services.resources import (
    ClicheDice,
    FatePoints,
    GearState,
    MatterHealth,
    MatterState,
    Op,
    Pool,
    PoolName,
)
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.grants import GrantDTO
from db.uow import UnitOfWork
from engine.errors import EngineError
from engine.systems.lifegear import ItemState
from engine.systems.matter import StateId

GAINS: Final = (FatePoints, ClicheDice, Pool, MatterHealth, GearState, MatterState)
_BY_NAME: Final[dict[str, type]] = {kind.__name__: kind for kind in GAINS}


def is_gain(op: Op) -> bool:
    """A press that gives the character something back: a point, a die, an item or ability
    ready again (a lifegear life), a matter state taken off (the GM may have imposed it)."""
    if isinstance(op, GearState):
        return op.state is ItemState.READY
    if isinstance(op, MatterState):
        return not op.on
    return isinstance(op, GAINS) and op.delta > 0


def op_json(op: Op) -> dict[str, Any]:
    return {
        "type": type(op).__name__,
        **{k: str(v) if k == "trait" else v for k, v in asdict(op).items()},
    }


def op_of(data: dict[str, Any]) -> Op:
    fields = {k: v for k, v in data.items() if k != "type"}
    if "trait" in fields:
        fields["trait"] = PoolName(fields["trait"])
    kind = str(data["type"])
    if kind == GearState.__name__:
        fields["state"] = ItemState(fields["state"])
    if kind == MatterState.__name__:
        fields["state"] = StateId(fields["state"])
        fields["faces"] = tuple(tuple(f) for f in fields.get("faces", ()))
    found: Op = _BY_NAME[str(data["type"])](**fields)
    return found


def op_key(op: Op) -> str:
    return ":".join(str(v) for v in op_json(op).values())[:64]


async def needs_grant(uow: UnitOfWork, game: GameDTO, user_id: int, op: Op) -> bool:
    if not is_gain(op) or await is_gm(uow, game, user_id):
        return False
    return not await uow.grants.trusted(game.id)


async def gains_asked(uow: UnitOfWork, game: GameDTO, character: CharacterDTO) -> bool:
    """Whether the gain buttons on this character's panel ask the GM: a character its owner
    plays at a table that does not skip requests. The GM's own characters (and NPCs) and a
    trusting table keep a direct «➕»; a GM pressing a player's «🙋» still applies it at once."""
    owner = character.owner_user_id
    if character.is_npc or owner is None or await is_gm(uow, game, owner):
        return False
    return not await uow.grants.trusted(game.id)


@dataclass(frozen=True)
class Asked:
    grant_id: int
    character: CharacterDTO
    op: Op


async def ask(uow: UnitOfWork, *, game: GameDTO, user_id: int, character_id: int, op: Op) -> Asked:
    """Open a request for the GM (the character's owner only). Raises ``resources.Refused``."""
    character = await resources.changeable(uow, game, character_id, user_id)
    # what cannot apply is refused now, in the rules' words, not asked for (issue 36 item 9b)
    await resources.would_change(uow, game=game, user_id=user_id, character_id=character_id, op=op)
    grant_id = await uow.grants.ask(game.id, character.id, user_id, op_json(op), op_key(op))
    if grant_id is None:
        raise resources.Refused(N_("Already asked: the GM has not answered yet."))
    await uow.commit()
    return Asked(grant_id, character, op)


@dataclass(frozen=True)
class Decided:
    grant: GrantDTO
    character: CharacterDTO
    op: Op
    applied: resources.Applied | None  # None: refused by the GM


async def decide(
    uow: UnitOfWork, *, game: GameDTO, user_id: int, grant_id: int, grant: bool,
    actor_name: str, locale: str,
) -> Decided:  # fmt: skip
    """The GM's one tap. Raises ``resources.Refused`` or the engine's ``EngineError``; nothing
    is written then (the request stays open)."""
    if not await is_gm(uow, game, user_id):
        raise resources.Refused(N_("Only the GM can do that."))
    decided = await uow.grants.decide(
        grant_id, game.id, "granted" if grant else "refused", user_id
    )
    if decided is None:
        raise resources.Refused(N_("This request is already answered."))
    op = op_of(decided.op)
    if not grant:
        character = await resources.viewable(uow, game, decided.character_id)
        await uow.commit()
        return Decided(decided, character, op, None)
    try:
        applied = await resources.apply(
            uow, game=game, user_id=user_id, character_id=decided.character_id, op=op,
            actor_name=actor_name, locale=locale, asked_by=decided.asked_by,
        )  # fmt: skip
    except (resources.Refused, EngineError):
        await uow.rollback()  # the request stays open: the GM may try again or refuse it
        raise
    return Decided(decided, applied.character, op, applied)


async def set_trusted(uow: UnitOfWork, game: GameDTO, trusted: bool, by_user_id: int) -> None:
    """The game's option: players' gains apply without the GM (a trusted table); commits."""
    await uow.grants.set_trusted(game.id, trusted, by_user_id)
    await uow.commit()
