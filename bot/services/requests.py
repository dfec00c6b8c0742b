"""Roll requests: the GM asks, the named player taps, the roll happens exactly once.

Exactly once, however many presses, devices or redelivered updates: the roll id is derived from
the request (``req:<id>``), so the dice are a pure function of the epoch's seed and the request;
the roll log's unique key refuses a second entry, and the request moves pending → rolled with a
conditional update.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import N_
from bot.services import names, request_options, sheet_rolls
from bot.services import rolls as roll_service
from bot.services.games import is_gm
from bot.services.request_checks import (  # noqa: F401  (re-exported: handlers import them here)
    ARCHIVED,
    INACTIVE,
    RequestRefused,
    check_live,
    on_card,
)
from bot.systems import SYSTEMS, rules_for
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO
from db.repositories.users import UserDTO
from db.uow import UnitOfWork
from engine.common import SheetModel
from engine.dice.odds import MAX_WORK
from engine.dice.parser import parse
from engine.dice.results import RollResult
from engine.errors import EngineError
from engine.systems.base import Ask, Chances, Reading

# The note starts at ":" or a spaced dash ("—"); "-" alone belongs to the arithmetic (1d20-2).
# A deadline: "in 2h" / "через 30м" (minutes, hours or days), before the note.
_SPEC = re.compile(
    r"^(?P<expr>[^:—]+?)(?:\s+(?:vs|против|пр)\s+(?P<target>-?\d{1,4}))?"
    r"(?:\s+(?:in|через)\s+(?P<amount>\d{1,3})\s*(?P<unit>m|h|d|м|ч|д))?"
    r"(?:\s*(?::|\s—)\s*(?P<note>.+))?$",
    re.I | re.S,
)
_UNITS = {"m": 1, "м": 1, "h": 60, "ч": 60, "d": 1440, "д": 1440}
MAX_DEADLINE = timedelta(days=30)
NOTE_MAX = 200


@dataclass(frozen=True)
class RequestSpec:
    expression: str  # canonical notation (its label, if any, becomes the note)
    target_number: int | None
    note: str | None
    due_in: timedelta | None = None  # the player should roll within this
    trait: str | None = None  # rolled by a trait of the player's character (its title)
    options: dict[str, Any] | None = None  # which cliché / stat (bot/services/request_options)


@dataclass(frozen=True)
class PressResult:
    request: RequestDTO
    logged: roll_service.LoggedRoll
    first: bool  # this press settled the request (shows the result); the others see it done
    system: str = ""
    by: str | None = None  # the GM who rolled it for the player, if not the player
    reading: Reading | None = None  # the roll read by the game's system


class RollForPlayer(Exception):
    """A GM pressed a player's 🎲: nothing is rolled until the GM confirms (``for_player``)."""

    def __init__(self, request: RequestDTO, player: str) -> None:
        super().__init__(player)
        self.request = request
        self.player = player


EVERYONE = ("all", "все", "всем")


async def targets_of(
    uow: UnitOfWork, game: GameDTO, *, replied_to: int | None, mentioned: list[int],
    usernames: list[str], text: str,
) -> tuple[list[int], str]:  # fmt: skip
    """Whom a ``/request`` names, and the rest of its text: the author of the message it
    replies to; else the players mentioned at its start (ids, or @usernames of users who have
    written here — unknown ones are left out); else, after ``all``/``все``, every player with
    an active character; else the player whose character the leading words name."""
    if replied_to is not None:
        return [replied_to], text.strip()
    words = text.split()
    if not mentioned and not usernames and words and words[0].lower() in EVERYONE:
        characters = await uow.characters.for_game(game.id, statuses=("active",))
        owners = [c.owner_user_id for c in characters if c.owner_user_id and not c.is_npc]
        return list(dict.fromkeys(owners)), " ".join(words[1:])
    found = [await uow.users.by_username(name) for name in usernames]
    targets = [*mentioned, *(user_id for user_id in found if user_id is not None)]
    if not mentioned and not usernames and len(words) > 1:
        named = await _named_player(uow, game, words)
        if named is not None:
            return [named[0]], named[1]
    return list(dict.fromkeys(targets)), text.strip()


async def unknown_usernames(uow: UnitOfWork, usernames: list[str]) -> list[str]:
    """The @usernames a ``/request`` names that the bot has never seen write (``targets_of``
    leaves them out): the GM is told, not shown the usage as if nothing were named."""
    return [name for name in usernames if await uow.users.by_username(name) is None]


NAME_WORDS = 4  # words of a character's name a /request may start with


async def _named_player(
    uow: UnitOfWork, game: GameDTO, words: list[str]
) -> tuple[int, str] | None:
    """``/request Вереск Атлетика vs 2``: the owner of the active character the leading words
    name (``names.resolve``: exact, else the one name they start; the longest reading first)
    and the rest of the text; None when they name no player's character."""
    players = [
        c for c in await uow.characters.for_game(game.id, statuses=("active",))
        if c.owner_user_id is not None and not c.is_npc
    ]  # fmt: skip
    for count in range(min(NAME_WORDS, len(words) - 1), 0, -1):
        result = names.resolve(players, " ".join(words[:count]))
        if isinstance(result, names.Found) and result.character.owner_user_id is not None:
            return result.character.owner_user_id, " ".join(words[count:])
    return None


async def spec_for(
    uow: UnitOfWork, game: GameDTO, target_user_id: int, text: str, locale: str
) -> RequestSpec:
    """``/request`` text as dice notation, or — when it is not notation (or is a matter
    shorthand) and the player has an active character — as a trait of that character
    (``Атлетика vs Хорошо``), read by the system's sheet rules."""
    body, deadline = _split_deadline(text)
    active = await uow.characters.active_of(game.id, target_user_id)
    wants_sheet = sheet_rolls.prefers_sheet_roll(game.system, body) or not _is_notation(body)
    if active is None or not wants_sheet:
        return parse_spec(text)
    note = None
    if ":" in body:
        body, note = (part.strip() for part in body.split(":", 1))
    character = SYSTEMS[game.system].load(active.sheet, active.schema_version)
    return sheet_spec(game.system, character, body, locale, note=note, due_in=deadline)


def sheet_spec(
    system: str, character: SheetModel, text: str, locale: str, *, note: str | None = None,
    due_in: timedelta | None = None,
) -> RequestSpec:  # fmt: skip
    """A request by a trait of ``character`` (``Атлетика vs Хорошо``); raises ``EngineError``."""
    plan = sheet_rolls.plan_sheet_roll(system, character, text, locale)
    return RequestSpec(
        plan.notation, plan.target, (note or plan.title)[:NOTE_MAX], due_in, plan.title[:128],
        _trait_options(system, plan.title),
    )  # fmt: skip


def _trait_options(system: str, title: str) -> dict[str, Any] | None:
    """Which cliché / stat a trait request rolls (the title is ``Name (dice)``)."""
    name = title.rsplit(" (", 1)[0] if title.endswith(")") else title
    spec = SYSTEMS.get(system)
    key = spec.requests.trait_option if spec is not None else None
    return {key: name} if key is not None else None


_DEADLINE = re.compile(r"\s+(?:in|через)\s+(\d{1,3})\s*(m|h|d|м|ч|д)(?=\s*(?::|$))", re.I)


def _split_deadline(text: str) -> tuple[str, timedelta | None]:
    match = _DEADLINE.search(text)
    if match is None:
        return text.strip(), None
    due_in = timedelta(minutes=int(match[1]) * _UNITS[match[2].lower()])
    rest = (text[: match.start()] + text[match.end() :]).strip()
    return rest, min(max(due_in, timedelta(minutes=1)), MAX_DEADLINE)


def _is_notation(text: str) -> bool:
    try:
        parse_spec(text)
    except EngineError:
        return False
    return True


def parse_spec(text: str) -> RequestSpec:
    """``EXPR [vs N] [: note]``; raises ``EngineError`` for bad notation."""
    match = _SPEC.match(text.strip())
    if match is None:
        parse(text)  # raises the parser's explanation
        raise AssertionError("unreachable")
    parsed = parse(match["expr"])
    note = match["note"] or parsed.label or None
    target = int(match["target"]) if match["target"] else None
    due_in = None
    if match["amount"]:
        due_in = timedelta(minutes=int(match["amount"]) * _UNITS[match["unit"].lower()])
        due_in = min(max(due_in, timedelta(minutes=1)), MAX_DEADLINE)
    return RequestSpec(parsed.canonical, target, note[:NOTE_MAX] if note else None, due_in)


# A card's chances are drawn on the event loop (every redraw): a fifth of /odds' budget, some
# 70 ms at most; a larger sum's card shows none, /odds (in the worker process) still has them.
CARD_ODDS_WORK = MAX_WORK // 5


def willpower_spent(request: RequestDTO) -> bool:
    """A Storyteller Willpower point was spent on this request (``bot.services.willpower``)."""
    return any(item.get("mode") == "willpower" for item in request.invokes)


def ask_of(request: RequestDTO) -> Ask:
    """The request as its system reads it: the notation, the target, the Fate invokes' +2s
    (added after the roll) or the Willpower success."""
    willpower = willpower_spent(request)
    return Ask(
        request.expression,
        request.target_number,
        bonus=0 if willpower else request.bonus,
        willpower=willpower,
        max_work=CARD_ODDS_WORK,
    )


SUBJECT_KEY = "subject"  # request options: the character the roll is for


def chances(system: str | None, request: RequestDTO) -> Chances | None:
    """The exact chances of each outcome of the request, by its system's own ladder."""
    return rules_for(system).chances(ask_of(request))


def read_result(system: str | None, request: RequestDTO, result: RollResult) -> Reading | None:
    """The rolled ``result`` of the request read by its system (invokes and Willpower
    included)."""
    return rules_for(system).read(ask_of(request), result)


async def create(
    uow: UnitOfWork, game: GameDTO, *, gm_user_id: int, target_user_id: int, spec: RequestSpec,
    now: datetime | None = None,
) -> RequestDTO:  # fmt: skip
    deadline = None
    if spec.due_in is not None:
        deadline = (now or datetime.now(UTC)) + spec.due_in
    options = dict(spec.options or {})
    character = await uow.characters.active_of(game.id, target_user_id)
    if character is not None:  # the roll is logged for it (read once here, not at the press)
        options[SUBJECT_KEY] = character.name
    request = await uow.requests.add(
        game_id=game.id, chat_id=game.chat_id, requested_by=gm_user_id,
        target_user_id=target_user_id, expression=spec.expression,
        target_number=spec.target_number, note=spec.note, deadline=deadline, trait=spec.trait,
        options=options,
    )  # fmt: skip
    await uow.commit()
    return request


async def attach_card(uow: UnitOfWork, request: RequestDTO, message_id: int) -> None:
    await uow.requests.set_message(request.id, message_id)
    await uow.commit()


async def press(
    uow: UnitOfWork, *, request_id: int, chat_id: int, message_id: int | None, user_id: int,
    user_name: str, for_player: bool = False,
) -> PressResult:  # fmt: skip
    """Check who pressed where, then roll once. Raises ``RequestRefused`` for a wrong press.
    The 🎲 is pressed on the request's own card (``message_id``); a GM pressing a player's 🎲
    gets ``RollForPlayer`` and rolls only when confirming (``for_player``, pressed on the
    confirmation, which the handler checks)."""
    request = await uow.requests.get(request_id)
    if request is None or request.chat_id != chat_id or request.message_id is None:
        raise RequestRefused(INACTIVE)
    if not for_player:
        on_card(request, chat_id=chat_id, message_id=message_id)
    if request.status == "cancelled":
        raise RequestRefused(N_("This request was cancelled."))
    game = await uow.games.get(request.game_id)
    player = user_id == request.target_user_id
    if not player and not (game is not None and await is_gm(uow, game, user_id)):
        raise RequestRefused(N_("This roll is for someone else."))
    target = await uow.users.get(request.target_user_id)
    if request.status == "pending":
        check_live(game)
        if not player and not for_player:
            raise RollForPlayer(request, target.name if target else str(request.target_user_id))
    if game is not None and request.status == "pending":
        await request_options.check_before_roll(uow, game, request)
    logged = await roll_service.roll_logged(
        uow,
        chat_id=chat_id,
        roll_id=f"req:{request.id}",
        text=request.expression,
        actor=user_name,
        subject=roll_subject(request, target),
        actor_user_id=user_id,
        stored=True,
        commit=False,  # the roll and the request's state commit together
    )
    # Conditional, so safe on a replay too: a request can never stay pending with its roll.
    rolled = await uow.requests.mark_rolled(request.id, logged.entry.seq)
    if rolled is not None and game is not None:
        await request_options.settle(uow, game, request, user_id)  # a cliché pump is paid now
    await uow.commit()
    updated = rolled or await uow.requests.get(request.id)
    assert updated is not None
    by = None if player else logged.entry.actor  # who rolled for the player, on the card
    system = game.system if game else ""
    reading = read_result(system, updated, logged.result)
    return PressResult(updated, logged, rolled is not None, system, by, reading)


def roll_subject(request: RequestDTO, target: UserDTO | None) -> str:
    """Whom a request's roll is logged for: the player's character in the game when the
    request was made (so its sheet lists the roll), else the player."""
    named = request.options.get(SUBJECT_KEY)
    if isinstance(named, str) and named:
        return named
    return target.name if target else str(request.target_user_id)
