"""Multi-roll cards (issue 8): opposed, extended and team rolls collected on one tracker.

A card is a NON-exclusive tracker (kinds ``card_opposed``, ``card_extended``, ``card_team``):
several may be open in a game next to a fight. Its state (JSONB, owned here) holds the
participants ("slots": a character or an ad-hoc name, who may press, the dice notation and
every roll made), what the card is waiting for, and — for the storyteller scene list — always a
``title`` and a one-line ``summary`` in the chat's language.

Each press rolls exactly once: the tracker row is locked, the button's per-slot roll count must
still match, the roll goes through the log as ``trk:<id>:<slot>:<n>`` (``n`` the card's version
at the press, so a roll the GM undid stays in the log and a new press is a new roll), and the
state moves by ``core.step`` on that version. The rules come from the engines; which one a
card follows, from its system's ``CardRules`` (``SystemSpec.cards``,
``engine/systems/<system>/profile.py``):

* ``storyteller`` — net successes and botches (``rolls.evaluate``), opposed by
  ``opposed.resolve_nets`` (the loser's successes cancel the winner's, a botch counts 0, a tie:
  nobody prevails; «до N»: the opposed extended action, ``roll_opposed_extended``), extended
  by ``extended.roll_extended`` (a botch wipes the tally; with ``!`` it ends the task), team
  by ``teamwork.roll_teamwork`` (successes summed, one difficulty);
* ``fate`` — opposed: totals compared, the winner's shifts are the difference (1–2 success,
  3+ success with style), a tie scores nobody (SPEC contest DECISION); opposed «до N»: a
  contest (``conflict.contest_exchange``: the single best roll of each exchange scores a
  victory point, first to N wins); team: ``teamwork`` —
  the highest skill rolls, +1 per helper at +1 or more (helpers do not roll);
* ``cliche`` — opposed: higher total wins, a tie wins nobody (SPEC DECISION); team: the leader
  (listed first, must hold the highest cliché: ``teams.choose_leader``) adds all dice, members
  only their sixes (``teams.team_total``);
* ``matter`` — opposed: more successes wins, a tie is a stalemate (SPEC DECISION);
* ``lifegear`` — opposed: the counter-roll, the higher wins, the difference is shown (it is the
  damage in PvP); a tie deals nothing (SPEC DECISION).

DECISIONS where the rules are silent: extended rolls outside storyteller accumulate the roll's
successes (matter) or totals (cliche, lifegear) towards the target; fate has no extended roll
(its contest is an exchange-by-exchange race, see the fate tracker); matter and lifegear have no
team rule and refuse ``/team``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from html import escape
from typing import Any, Final

from bot.i18n import N_, Translator
from bot.services import rolls as roll_service
from bot.services import sheet_rolls
from bot.services.games import is_gm
from bot.services.requests import parse_spec
from bot.services.sheet_rolls import SheetRoll, normalize, outcome_words
from bot.services.trackers import core
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO
from db.repositories.trackers import TrackerDTO
from db.uow import UnitOfWork
from engine.dice.results import RollResult
from engine.dice.source import ScriptedSource
from engine.errors import EngineError, RuleViolation
from engine.systems import fate
from engine.systems.base import CardRules, Extended, Margin, PlainWords, Race, Team
from engine.systems.cliche import teams as cliche_teams
from engine.systems.cliche.rolls import target_label as cliche_target_label
from engine.systems.fate import conflict as fate_conflict
from engine.systems.storyteller import extended as st_extended
from engine.systems.storyteller import opposed as st_opposed
from engine.systems.storyteller import teamwork as st_teamwork
from engine.systems.storyteller.actions import ActionStatus
from engine.systems.storyteller.rolls import DEFAULT_DIFFICULTY, degree_of, pool_notation

OPPOSED: Final = "card_opposed"
EXTENDED: Final = "card_extended"
TEAM: Final = "card_team"
KINDS: Final = (OPPOSED, EXTENDED, TEAM)

MAX_SLOTS: Final = 6
MAX_NAME: Final = 32
MAX_TITLE: Final = 120
MAX_ROLLS: Final = 30
"""A hard cap on rolls in one extended card, whatever the GM asked."""
MAX_FACES_SHOWN: Final = 30

_POOL: Final = re.compile(r"(\d+)d10>=(\d+)f1")
_FATE: Final = re.compile(r"4dF([+-]\d+)?")
_CLICHE: Final = re.compile(r"(\d+)d6")
_TAIL: Final = re.compile(
    r"\s+(?:до|to)\s+(\d{1,3})(?:\s+(?:за|in|max)\s+(\d{1,3}))?\s*(!)?\s*$", re.IGNORECASE
)
_SPLIT: Final = re.compile(r"\s*[|;\n]\s*")


ROLLED: Final = N_("Already rolled.")


def rules_of(state: dict[str, Any]) -> CardRules:
    """The card rules of the system the card was opened in (kept in its state)."""
    return SYSTEMS[state["system"]].cards


class CardInputError(Exception):
    """A command that cannot become a card; ``text`` is ready to send (already translated)."""

    def __init__(self, text: str, *, usage: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.usage = usage  # the command's form was wrong: show how to write it


@dataclass(frozen=True)
class Tail:
    target: int | None
    max_rolls: int | None
    strict: bool


# --- reading the command ---------------------------------------------------------------------


def split_tail(text: str) -> tuple[str, Tail]:
    """``… до 10 за 5 !`` at the end of the command → (the rest, the options)."""
    found = _TAIL.search(text)
    if found is None:
        return text.strip(), Tail(None, None, False)
    max_rolls = int(found.group(2)) if found.group(2) else None
    tail = Tail(int(found.group(1)), max_rolls, bool(found.group(3)))
    return text[: found.start()].strip(), tail


def split_participants(text: str) -> list[tuple[str, str]]:
    """``Алиса: Атлетика | Боб: Драка`` → [(name, spec), …]; raises ``ValueError``."""
    pairs: list[tuple[str, str]] = []
    for part in _SPLIT.split(text.strip()):
        if not part:
            continue
        name, colon, spec = part.partition(":")
        if not colon or not name.strip() or not spec.strip():
            raise ValueError(part)
        pairs.append((" ".join(name.split())[:MAX_NAME], spec.strip()))
    return pairs


def closest(characters: list[CharacterDTO], name: str) -> CharacterDTO | None:
    """The character named ``name`` (case-insensitive, «ё» as «е»), else a unique name that
    starts with it, else the closest name (difflib)."""
    wanted = normalize(name)
    by_name = {normalize(c.name): c for c in characters}
    if wanted in by_name:
        return by_name[wanted]
    starts = [c for key, c in by_name.items() if key.startswith(wanted) or wanted in key.split()]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(wanted, list(by_name), n=1, cutoff=0.6)
    return by_name[close[0]] if close else None


def _is_notation(text: str) -> bool:
    try:
        parse_spec(text)
    except EngineError:
        return False
    return True


async def _slot(
    uow: UnitOfWork,
    game: GameDTO,
    characters: list[CharacterDTO],
    name: str,
    spec: str,
    t: Translator,
) -> dict[str, Any]:
    character = closest(characters, name)
    notation_first = _is_notation(spec) and not sheet_rolls.prefers_sheet_roll(game.system, spec)
    if character is None:
        if not notation_first:
            known = ", ".join(c.name for c in characters) or "—"
            raise CardInputError(
                t(
                    "No character named «{name}» here. Characters: {known}. Someone else can "
                    "roll plain dice: «{name}: 3d6».",
                    name=escape(name),
                    known=escape(known),
                )
            )
        parsed = parse_spec(spec)
        return new_slot(name, None, None, parsed.expression, None, parsed.target_number)
    owner = None if character.is_npc else character.owner_user_id
    if notation_first:
        parsed = parse_spec(spec)
        return new_slot(
            character.name, character.id, owner, parsed.expression, None, parsed.target_number
        )
    loaded = SYSTEMS[game.system].load(character.sheet, character.schema_version)
    try:
        plan = sheet_rolls.plan_sheet_roll(game.system, loaded, spec, t.locale)
    except EngineError as error:
        problem = escape(error.render(t.locale))
        raise CardInputError(f"{escape(character.name)}: {problem}") from error
    return new_slot(character.name, character.id, owner, plan.notation, plan.title, plan.target)


def new_slot(
    name: str,
    character_id: int | None,
    owner: int | None,
    notation: str,
    trait: str | None,
    target: int | None,
) -> dict[str, Any]:
    return {
        "name": name[:MAX_NAME],
        "character_id": character_id,
        "owner": owner,
        "notation": notation,
        "trait": trait[:64] if trait else None,
        "target": target,
        "rolls": [],
    }


async def _slots(
    uow: UnitOfWork, game: GameDTO, text: str, t: Translator, *, least: int, most: int
) -> list[dict[str, Any]]:
    try:
        pairs = split_participants(text)
    except ValueError as error:
        raise CardInputError(
            t("Could not read «{part}»: write «Name: trait».", part=escape(str(error)[:64])),
            usage=True,
        ) from error
    if not least <= len(pairs) <= most:
        raise CardInputError(
            t("This card takes {least} to {most} participants.", least=least, most=most),
            usage=True,
        )
    characters = await uow.characters.for_game(game.id, statuses=("active",))
    slots = [await _slot(uow, game, characters, name, spec, t) for name, spec in pairs]
    names = [normalize(s["name"]) for s in slots]
    if len(set(names)) != len(names):
        raise CardInputError(t("Each participant can be named only once."))
    return slots


def _pool(slot: dict[str, Any], t: Translator) -> tuple[int, int]:
    found = _POOL.fullmatch(slot["notation"])
    if found is None:
        raise CardInputError(
            t(
                "{name}: this card needs a dice pool like «Dexterity+Athletics 7» or «5d10>=7f1».",
                name=escape(slot["name"]),
            )
        )
    return int(found.group(1)), int(found.group(2))


def _label(slot: dict[str, Any]) -> str:
    return str(slot["trait"] or slot["notation"])


def _base_trait(slot: dict[str, Any]) -> str:
    """«Атлетика (+3)» → «Атлетика»: what the title names."""
    return re.sub(r"\s*\(.*?\)", "", _label(slot)).strip() or _label(slot)


def _traits(slots: list[dict[str, Any]]) -> str:
    return " / ".join(dict.fromkeys(_base_trait(s) for s in slots))


def _clip_title(text: str) -> str:
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"


async def new_opposed(
    uow: UnitOfWork, game: GameDTO, text: str, *, gm_user_id: int, t: Translator
) -> TrackerDTO:
    body, tail = split_tail(text)
    slots = await _slots(uow, game, body, t, least=2, most=MAX_SLOTS)
    title = " vs ".join(s["name"] for s in slots) + " — " + _traits(slots)
    state: dict[str, Any] = {
        "mode": "opposed", "system": game.system, "slots": slots, "done": False,
        "result": None,
    }  # fmt: skip
    if tail.target is not None:
        try:
            _race(state, slots, tail, t)
        except RuleViolation as error:
            raise CardInputError(escape(error.render(t.locale))) from error
        title += " " + t("to {target}", target=tail.target)
    state["title"] = _clip_title(title)
    return await _open(uow, game, OPPOSED, state, gm_user_id, t)


def _race(state: dict[str, Any], slots: list[dict[str, Any]], tail: Tail, t: Translator) -> None:
    """An opposed roll repeated until a side reaches the target: storyteller's opposed
    extended action (each turn's excess successes go to its winner), fate's contest (each
    exchange's single best roll scores a victory point)."""
    state.update(race=True, target=tail.target, max_rolls=tail.max_rolls)
    state["points"] = [0] * len(slots)
    race = rules_of(state).race
    if race is Race.POOLS:
        if len(slots) != 2:
            raise CardInputError(t("An opposed extended action has two sides."))
        pools = [_pool(s, t) for s in slots]
        for slot, (dice, _) in zip(slots, pools, strict=True):
            slot["dice"] = dice
        action = st_opposed.start_opposed_extended(
            (slots[0]["name"], slots[1]["name"]), int(tail.target or 0),
            difficulties=(pools[0][1], pools[1][1]), turn_limit=tail.max_rolls,
        )  # fmt: skip
        state["action"] = action.model_dump(mode="json")
    elif race is Race.CONTEST:
        contest = fate_conflict.start_contest(
            [str(i) for i in range(len(slots))], int(tail.target or 0)
        )
        state["contest"] = contest.model_dump(mode="json")
    else:
        raise CardInputError(
            t("Only storyteller and fate race to a target; here roll /opposed round by round.")
        )


async def new_extended(
    uow: UnitOfWork, game: GameDTO, text: str, *, gm_user_id: int, t: Translator
) -> TrackerDTO:
    rules = SYSTEMS[game.system].cards
    if rules.extended is Extended.NONE:
        raise CardInputError(
            t("Fate has no extended roll: run a contest, or an opposed roll with /opposed.")
        )
    body, tail = split_tail(text)
    if tail.target is None:
        raise CardInputError(t("Name the target: «… to 10» (optionally «in 5» rolls)."))
    slots = await _slots(uow, game, body, t, least=1, most=1)
    max_rolls = tail.max_rolls
    state: dict[str, Any] = {
        "mode": "extended", "system": game.system, "slots": slots, "target": tail.target,
        "max_rolls": max_rolls, "strict": tail.strict, "done": False, "result": None,
    }  # fmt: skip
    try:
        if rules.extended is Extended.POOLS:
            dice, difficulty = _pool(slots[0], t)
            action = st_extended.start_extended(
                tail.target, difficulty=difficulty, turn_limit=max_rolls, botch_ends=tail.strict
            )
            state["action"] = action.model_dump(mode="json")
            state["dice"] = dice
        else:
            if not 1 <= tail.target <= 999 or (max_rolls is not None and max_rolls < 1):
                raise CardInputError(t("The target and the number of rolls must be positive."))
    except RuleViolation as error:
        raise CardInputError(escape(error.render(t.locale))) from error
    state["accumulated"] = 0
    state["title"] = _clip_title(
        t("{name} — {trait} to {target}", name=slots[0]["name"], trait=_base_trait(slots[0]),
          target=tail.target)
    )  # fmt: skip
    return await _open(uow, game, EXTENDED, state, gm_user_id, t)


async def new_team(
    uow: UnitOfWork, game: GameDTO, text: str, *, gm_user_id: int, t: Translator
) -> TrackerDTO:
    team = SYSTEMS[game.system].cards.team
    if team is Team.NONE:
        raise CardInputError(
            t("This system's rules have no team roll: use /opposed or separate /request cards.")
        )
    body, tail = split_tail(text)
    slots = await _slots(uow, game, body, t, least=2, most=MAX_SLOTS)
    state: dict[str, Any] = {
        "mode": "team", "system": game.system, "slots": slots, "done": False, "result": None,
        "title": _clip_title(
            t("Team {names} — {trait}", names=", ".join(s["name"] for s in slots),
              trait=_traits(slots))
        ),
    }  # fmt: skip
    try:
        if team is Team.POOLS:
            _team_storyteller(state, slots, tail, t)
        elif team is Team.LEADER:
            _team_cliche(state, slots, t)
        else:
            _team_fate(state, slots, t)
    except RuleViolation as error:
        raise CardInputError(escape(error.render(t.locale))) from error
    return await _open(uow, game, TEAM, state, gm_user_id, t)


def _team_storyteller(
    state: dict[str, Any], slots: list[dict[str, Any]], tail: Tail, t: Translator
) -> None:
    pools = [_pool(s, t) for s in slots]
    asked = {s["target"] for s in slots if s["target"] is not None}
    if len(asked) > 1:
        raise CardInputError(t("A team rolls at one difficulty: give it once, at the end."))
    difficulty = asked.pop() if asked else DEFAULT_DIFFICULTY
    for slot, (dice, _) in zip(slots, pools, strict=True):
        slot["notation"] = pool_notation(dice, difficulty)
        slot["dice"] = dice
        slot["target"] = difficulty
    action = st_teamwork.start_teamwork(
        [s["name"] for s in slots],
        difficulty=difficulty,
        target=tail.target,
        turn_limit=tail.max_rolls,
    )
    state["action"] = action.model_dump(mode="json")


def _team_cliche(state: dict[str, Any], slots: list[dict[str, Any]], t: Translator) -> None:
    candidates = []
    for i, slot in enumerate(slots):
        found = _CLICHE.fullmatch(slot["notation"])
        if found is None:
            raise CardInputError(
                t("{name}: a team member rolls a cliché («Soldier»).", name=escape(slot["name"]))
            )
        candidates.append(cliche_teams.TeamCandidate(str(i), int(found.group(1)), True))
    cliche_teams.choose_leader(candidates, preferred="0")
    slots[0]["lead"] = True
    state["target"] = next((s["target"] for s in slots if s["target"] is not None), None)


def _team_fate(state: dict[str, Any], slots: list[dict[str, Any]], t: Translator) -> None:
    skills: dict[str, int] = {}
    for i, slot in enumerate(slots):
        found = _FATE.fullmatch(slot["notation"])
        if found is None:
            raise CardInputError(
                t("{name}: a team member rolls a skill («Athletics»).", name=escape(slot["name"]))
            )
        skills[str(i)] = int(found.group(1) or 0)
    team = fate.teamwork(skills)
    lead = int(team.lead)
    for i, slot in enumerate(slots):
        slot["lead"] = i == lead
        slot["helps"] = i != lead and skills[str(i)] >= 1
    state["bonus"] = team.bonus
    state["target"] = next((s["target"] for s in slots if s["target"] is not None), None)


async def _open(
    uow: UnitOfWork,
    game: GameDTO,
    kind: str,
    state: dict[str, Any],
    gm_user_id: int,
    t: Translator,
) -> TrackerDTO:
    state["summary"] = summary(state, t)
    return await core.open_tracker(
        uow, game, kind=kind, state=state, actor_user_id=gm_user_id, exclusive=False
    )


async def open_cards(uow: UnitOfWork, game: GameDTO) -> list[TrackerDTO]:
    """The game's open multi-roll cards, oldest first; each state has ``title`` and
    ``summary`` (the storyteller scene lists them)."""
    found = await uow.trackers.open_for_game(game.id, exclusive=False)
    return [tracker for tracker in found if tracker.kind in KINDS]


# --- who rolls now ---------------------------------------------------------------------------


def can_roll(state: dict[str, Any], index: int) -> bool:
    """Whether slot ``index`` has a roll to make now."""
    if state.get("done") or not 0 <= index < len(state["slots"]):
        return False
    slot = state["slots"][index]
    mode = state["mode"]
    if mode == "opposed" and state.get("race"):
        return len(slot["rolls"]) == min(len(s["rolls"]) for s in state["slots"])
    if mode == "opposed":
        return not slot["rolls"]
    if mode == "extended":
        return True
    team = rules_of(state).team
    if team is Team.POOLS:
        return bool(state["action"]["pending"][index] is None)
    if team is Team.HELPERS:  # helpers do not roll
        return bool(slot.get("lead")) and not slot["rolls"]
    return not slot["rolls"]


def waiting(state: dict[str, Any]) -> list[str]:
    return [s["name"] for i, s in enumerate(state["slots"]) if can_roll(state, i)]


# --- a press ---------------------------------------------------------------------------------


class RollForPlayer(core.TrackerRefused):
    """A GM pressed a player's 🎲: nothing is rolled until the GM confirms (``for_player``)."""

    def __init__(self, player: str) -> None:
        super().__init__(player)
        self.player = player


async def _load(
    uow: UnitOfWork, tracker_id: int, chat_id: int, message_id: int | None
) -> TrackerDTO:
    """The card, locked; refused unless the button is on this card's own message (a forged
    button naming another card of the chat must not turn this message into that card, and an
    old copy re-posted by /tracker is not the card). ``message_id`` None: pressed on a GM's
    confirmation, which the handler checked."""
    tracker = await core.load(uow, tracker_id, chat_id=chat_id, message_id=message_id)
    if tracker.kind not in KINDS or tracker.message_id is None:
        raise core.TrackerRefused(N_("This tracker is not here."))
    return tracker


async def press(
    uow: UnitOfWork,
    *,
    tracker_id: int,
    chat_id: int,
    message_id: int | None,
    slot: int,
    count: int,
    user_id: int,
    user_name: str,
    t: Translator,
    for_player: bool = False,
) -> TrackerDTO:
    """Roll once for ``slot`` if the presser may and the button (drawn when the slot had
    ``count`` rolls) is current; raises ``core.TrackerRefused`` otherwise. A GM pressing a
    player's 🎲 gets ``RollForPlayer`` and rolls only when confirming (``for_player``, pressed
    on the confirmation: ``message_id`` None). Commits."""
    tracker = await _load(uow, tracker_id, chat_id, None if for_player else message_id)
    state = tracker.state
    slots = state["slots"]
    if not 0 <= slot < len(slots):
        raise core.TrackerRefused(N_("This tracker is not here."))
    owner = slots[slot]["owner"]
    if owner != user_id:
        game = await uow.games.get(tracker.game_id)
        if game is None or not await is_gm(uow, game, user_id):
            raise core.TrackerRefused(N_("This roll is for someone else."))
    if len(slots[slot]["rolls"]) != count or not can_roll(state, slot):
        raise core.TrackerRefused(ROLLED)
    for_someone = owner is not None and owner != user_id  # a player's roll, by a GM
    if for_someone and not for_player:
        raise RollForPlayer(slots[slot]["name"])
    logged = await roll_service.roll_logged(
        uow, chat_id=chat_id, roll_id=f"trk:{tracker.id}:{slot}:{tracker.version}",
        text=slots[slot]["notation"], actor=user_name, subject=slots[slot]["name"],
        actor_user_id=user_id, stored=True, commit=False,
    )  # fmt: skip
    new = apply_roll(state, slot, logged.result, logged.entry.seq, t)
    if for_someone:  # the card says who rolled for the player
        new["slots"][slot]["rolls"][-1]["by"] = user_name
    moved = await core.step(
        uow, tracker, expected_version=tracker.version, actor_user_id=user_id,
        action=f"roll:{slot}", state=new, end=bool(new["done"]),
    )  # fmt: skip
    await uow.commit()
    return moved


async def cancel(
    uow: UnitOfWork, *, tracker_id: int, chat_id: int, message_id: int, version: int,
    user_id: int, t: Translator,
) -> TrackerDTO:  # fmt: skip
    """The GM closes the card unfinished. Commits."""
    tracker = await _load(uow, tracker_id, chat_id, message_id)
    game = await uow.games.get(tracker.game_id)
    if game is None or not await is_gm(uow, game, user_id):
        raise core.TrackerRefused(N_("Only the GM can do that."))
    state = dict(tracker.state)
    state["done"] = True
    state["cancelled"] = True
    state["summary"] = summary(state, t)
    moved = await core.step(
        uow, tracker, expected_version=version, actor_user_id=user_id, action="cancel",
        state=state, end=True,
    )  # fmt: skip
    await uow.commit()
    return moved


# --- scoring ---------------------------------------------------------------------------------


def _shown_faces(result: RollResult) -> str:
    dice = [d for d in result.dice if d.kept]
    faces = [d.symbol for d in dice[:MAX_FACES_SHOWN]]
    more = " …" if len(dice) > MAX_FACES_SHOWN else ""
    return " ".join(faces) + more


def _words(state: dict[str, Any], slot: dict[str, Any], result: RollResult, locale: str) -> str:
    """The system's words for one roll. On a team the target is the team's, not the roll's
    (storyteller's is the difficulty, which stays). Plain dice get words where the notation
    is the system's own (a storyteller pool, a matter pool, fate dice)."""
    system, target = state["system"], slot["target"]
    rules = SYSTEMS[system].cards
    if state["mode"] == "team" and rules.team is not Team.POOLS:
        target = None
    if not slot["trait"]:
        pool = _POOL.fullmatch(slot["notation"])
        words = rules.plain_words
        if words is PlainWords.POOL and pool is not None:
            target = int(pool.group(2))
        elif not (words is PlainWords.SUCCESSES and result.counts_successes) and not (
            words is PlainWords.LADDER and _FATE.fullmatch(slot["notation"])
        ):
            return ""
    plan = SheetRoll(slot["notation"], slot["trait"] or slot["notation"], target, system)
    return outcome_words(plan, result, locale)


def apply_roll(
    state: dict[str, Any], index: int, result: RollResult, seq: int, t: Translator
) -> dict[str, Any]:
    """The card's next state with ``result`` rolled for slot ``index`` (pure)."""
    new = {**state, "slots": [dict(s) for s in state["slots"]]}
    slot = new["slots"][index]
    entry: dict[str, Any] = {
        "seq": seq, "faces": list(result.faces), "shown": _shown_faces(result),
        "total": result.total, "botch": result.botch, "crit": result.critical_failure,
        "words": _words(new, slot, result, t.locale), "note": None,
    }  # fmt: skip
    slot["rolls"] = [*slot["rolls"], entry]
    if new["mode"] == "opposed" and new.get("race"):
        _score_race(new, index, entry, t)
    elif new["mode"] == "opposed":
        _score_opposed(new, t)
    elif new["mode"] == "extended":
        _score_extended(new, slot, entry, t)
    else:
        _score_team(new, index, entry, t)
    new["summary"] = summary(new, t)
    return new


def _score(system: str, entry: dict[str, Any]) -> int:
    total = int(entry["total"])
    if SYSTEMS[system].cards.floor_at_zero:
        return max(0, total)  # a botch counts 0 against the other side
    return total


def _score_opposed(state: dict[str, Any], t: Translator) -> None:
    slots = state["slots"]
    if any(not s["rolls"] for s in slots):
        return
    system = state["system"]
    scores = [_score(system, s["rolls"][-1]) for s in slots]
    if SYSTEMS[system].cards.cancel_successes and len(slots) == 2:
        resolved = st_opposed.resolve_nets(
            int(slots[0]["rolls"][-1]["total"]), int(slots[1]["rolls"][-1]["total"])
        )
        winner, margin = resolved.winner, resolved.margin
    else:
        ranked = sorted(scores, reverse=True)
        winner = None if ranked[0] == ranked[1] else scores.index(ranked[0])
        margin = ranked[0] - ranked[1]
    state["done"] = True
    words = _margin_words(state, margin, winner, t)
    state["result"] = {"winner": winner, "margin": margin, "words": words}


def _score_race(state: dict[str, Any], index: int, entry: dict[str, Any], t: Translator) -> None:
    slots = state["slots"]
    names = [s["name"] for s in slots]
    winner: int | None = None
    over = False
    if rules_of(state).race is Race.POOLS:
        action = st_opposed.OpposedExtendedAction.model_validate(state["action"])
        new, step = st_opposed.roll_opposed_extended(
            action, index, int(slots[index]["dice"]), ScriptedSource(entry["faces"])
        )
        state["action"] = new.model_dump(mode="json")
        state["points"] = list(new.tallies)
        if step.turn is not None:
            entry["note"] = _turn_note(names, step.turn.winner, step.turn.excess, t)
            if any(step.turn.wiped):
                wiped = ", ".join(n for n, w in zip(names, step.turn.wiped, strict=True) if w)
                entry["note"] += " · " + t("botch, tally lost: {names}", names=wiped)
        over, winner = new.status is not ActionStatus.ACTIVE, new.winner
    else:
        if any(len(s["rolls"]) != len(slots[index]["rolls"]) for s in slots):
            return  # the exchange is still open
        contest = fate_conflict.ContestState.model_validate(state["contest"])
        totals = {str(i): int(s["rolls"][-1]["total"]) for i, s in enumerate(slots)}
        new_contest, exchange = fate_conflict.contest_exchange(contest, totals)
        state["contest"] = new_contest.model_dump(mode="json")
        state["points"] = [new_contest.points[str(i)] for i in range(len(slots))]
        scorer = None if exchange.scorer is None else int(exchange.scorer)
        entry["note"] = _turn_note(names, scorer, 1 if scorer is not None else 0, t)
        winner = None if exchange.winner is None else int(exchange.winner)
        limit = state["max_rolls"]
        over = winner is not None or (limit is not None and len(slots[index]["rolls"]) >= limit)
    if len(slots[index]["rolls"]) >= MAX_ROLLS:
        over = True
    if over:
        state["done"] = True
        words = (
            t("{name} reaches {target} first.", name=names[winner], target=state["target"])
            if winner is not None
            else t("Nobody reached {target}.", target=state["target"])
        )
        state["result"] = {"winner": winner, "margin": 0, "words": words}


def _turn_note(names: list[str], winner: int | None, amount: int, t: Translator) -> str:
    if winner is None:
        return t("round: nobody scores")
    return t("round: +{n} {name}", n=amount, name=names[winner])


def _margin_words(state: dict[str, Any], margin: int, winner: int | None, t: Translator) -> str:
    spec = SYSTEMS[state["system"]]
    if winner is None:
        return t(spec.card_tie)
    name = state["slots"][winner]["name"]
    kind = spec.cards.margin
    if kind is Margin.SHIFTS:
        return t(
            "{name} wins by {shifts} shifts ({outcome}).",
            name=name, shifts=margin, outcome=_fate_outcome(fate.outcome_of(margin), t),
        )  # fmt: skip
    if kind is Margin.NET_SUCCESSES:
        degree = degree_of(margin)
        return t(
            "{name} wins with {net} successes left ({degree}).",
            name=name, net=margin, degree=degree.name_msg.render(t.locale) if degree else "",
        )  # fmt: skip
    if kind is Margin.SUCCESSES:
        return t("{name} wins by {n} successes.", name=name, n=margin)
    if kind is Margin.DAMAGE:
        return t("{name} wins; the difference is {n} (damage in a fight).", name=name, n=margin)
    return t("{name} wins by {n}.", name=name, n=margin)


def _score_extended(
    state: dict[str, Any], slot: dict[str, Any], entry: dict[str, Any], t: Translator
) -> None:
    if rules_of(state).extended is Extended.POOLS:
        action = st_extended.ExtendedAction.model_validate(state["action"])
        new, step = st_extended.roll_extended(
            action, int(state["dice"]), ScriptedSource(entry["faces"])
        )
        state["action"] = new.model_dump(mode="json")
        state["accumulated"] = new.accumulated
        if step.lost:
            entry["note"] = t("Botch: {n} successes lost.", n=step.lost)
        elif step.roll.botch:
            entry["note"] = t("Botch.")
        status = new.status
    else:
        gained = max(0, int(entry["total"]))
        state["accumulated"] = int(state["accumulated"]) + gained
        count = len(slot["rolls"])
        status = ActionStatus.ACTIVE
        if state["accumulated"] >= state["target"]:
            status = ActionStatus.SUCCEEDED
        elif state["max_rolls"] is not None and count >= state["max_rolls"]:
            status = ActionStatus.FAILED
    if entry["note"] is None:
        gained = max(0, int(entry["total"]))
        entry["note"] = f"+{gained} → {state['accumulated']}/{state['target']}"
    if len(slot["rolls"]) >= MAX_ROLLS and status is ActionStatus.ACTIVE:
        status = ActionStatus.FAILED
    if status is not ActionStatus.ACTIVE:
        state["done"] = True
        state["result"] = {"status": status.value}


def _score_team(state: dict[str, Any], index: int, entry: dict[str, Any], t: Translator) -> None:
    team = rules_of(state).team
    slots = state["slots"]
    if team is Team.POOLS:
        action = st_teamwork.TeamworkAction.model_validate(state["action"])
        new, step = st_teamwork.roll_teamwork(
            action, index, int(slots[index]["dice"]), ScriptedSource(entry["faces"])
        )
        state["action"] = new.model_dump(mode="json")
        if step.turn is not None and step.turn.wiped:
            entry["note"] = t("Botch: the team's successes are lost.")
        if new.status is not ActionStatus.ACTIVE:
            state["done"] = True
            state["result"] = {"status": new.status.value, "total": new.total}
        return
    if team is Team.LEADER:
        if any(not s["rolls"] for s in slots):
            return
        leader = slots[0]["rolls"][-1]["faces"]
        members = [s["rolls"][-1]["faces"] for s in slots[1:]]
        for slot in slots[1:]:  # copies: the rolls of the state before stay as they were
            last = slot["rolls"][-1]
            sixes = cliche_teams.member_contribution(last["faces"])
            slot["rolls"] = [*slot["rolls"][:-1], {**last, "note": t("sixes: +{n}", n=sixes)}]
        total = cliche_teams.team_total(leader, members)
        state["done"] = True
        state["result"] = {"total": total}
        return
    # Team.HELPERS: only the lead rolls; helpers add +1 each.
    total = int(entry["total"]) + int(state["bonus"])
    state["done"] = True
    state["result"] = {"total": total}


# --- the one-line summary --------------------------------------------------------------------


def summary(state: dict[str, Any], t: Translator) -> str:
    """The card's tally in one line (the storyteller scene lists open cards by it)."""
    if state.get("cancelled"):
        return t("cancelled")
    mode = state["mode"]
    wait = ", ".join(waiting(state))
    if mode == "opposed" and state.get("race"):
        tally = " : ".join(str(p) for p in state["points"])
        tally = t("{tally} (to {target})", tally=tally, target=state["target"])
        if not state["done"]:
            return t("{tally}, waiting for {names}", tally=tally, names=wait)
        winner = state["result"]["winner"]
        if winner is None:
            return t("{tally}, nobody won", tally=tally)
        return t("{tally}, {name} wins", tally=tally, name=state["slots"][winner]["name"])
    if mode == "opposed":
        tally = " : ".join(
            str(_score(state["system"], s["rolls"][-1])) if s["rolls"] else "—"
            for s in state["slots"]
        )
        if not state["done"]:
            return t("{tally}, waiting for {names}", tally=tally, names=wait)
        result = state["result"]
        if result["winner"] is None:
            return t("{tally}, a tie", tally=tally)
        return t(
            "{tally}, {name} wins", tally=tally, name=state["slots"][result["winner"]]["name"]
        )
    if mode == "extended":
        rolls = len(state["slots"][0]["rolls"])
        tally = t(
            "{total}/{target}, rolls: {rolls}",
            total=state["accumulated"], target=state["target"], rolls=rolls,
        )  # fmt: skip
        if state["max_rolls"]:
            tally = t(
                "{total}/{target}, rolls: {rolls} of {limit}",
                total=state["accumulated"], target=state["target"], rolls=rolls,
                limit=state["max_rolls"],
            )  # fmt: skip
        if not state["done"]:
            return tally
        return f"{tally}, {_status_word(state['result']['status'], t)}"
    total = team_total(state)
    if not state["done"]:
        return t("team total {total}, waiting for {names}", total=total, names=wait)
    return t("team total {total}", total=total) + ", " + team_verdict(state, t)


def team_total(state: dict[str, Any]) -> int:
    team = rules_of(state).team
    if team is Team.POOLS:
        action = st_teamwork.TeamworkAction.model_validate(state["action"])
        pending = sum(r.outcome().achieved for r in action.pending if r is not None)
        return action.total + (0 if state["done"] else pending)
    if state.get("result") and "total" in state["result"]:
        return int(state["result"]["total"])
    slots = state["slots"]
    if team is Team.LEADER:
        total = 0
        for i, slot in enumerate(slots):
            if slot["rolls"]:
                faces = slot["rolls"][-1]["faces"]
                total += sum(faces) if i == 0 else cliche_teams.member_contribution(faces)
        return total
    return int(state.get("bonus", 0))


def team_verdict(state: dict[str, Any], t: Translator) -> str:
    team = rules_of(state).team
    result = state["result"] or {}
    if team is Team.POOLS:
        return _status_word(result.get("status", "active"), t)
    total = int(result.get("total", 0))
    target = state.get("target")
    if target is None:
        return t("done")
    if team is Team.HELPERS:  # the ladder: shifts against the opposition
        shifts = total - int(target)
        outcome = fate.outcome_of(shifts)
        ladder = fate.ladder_label(int(target)).render(t.locale)
        opposition = f"{ladder} ({fate.signed(int(target))})"
        return t(
            "{outcome} vs {target} (shifts: {shifts})",
            outcome=_fate_outcome(outcome, t),
            target=opposition,
            shifts=fate.signed(shifts),
        )  # fmt: skip
    label = cliche_target_label(int(target))
    shown = f"{target} ({label.render(t.locale)})" if label else str(target)
    if total >= int(target):
        return t("success vs {target}", target=shown)
    return t("failure vs {target}", target=shown)


def _fate_outcome(outcome: fate.Outcome, t: Translator) -> str:
    return {
        fate.Outcome.FAIL: t("fail"),
        fate.Outcome.TIE: t("tie"),
        fate.Outcome.SUCCESS: t("success"),
        fate.Outcome.STYLE: t("success with style"),
    }[outcome]


def _status_word(status: str, t: Translator) -> str:
    return {
        "succeeded": t("success"),
        "failed": t("failure"),
        "botched": t("botched, the task is lost"),
        "abandoned": t("abandoned"),
        "active": t("in progress"),
    }.get(status, status)
