"""Multi-roll cards (issue 8): opposed, extended and team rolls collected on one tracker.

A card is a NON-exclusive tracker (kinds ``card_opposed``, ``card_extended``, ``card_team``):
several may be open in a game next to a fight. Its state (JSONB, owned here) holds the
participants ("slots": a character or an ad-hoc name, who may press, the dice notation and
every roll made), what the card is waiting for, and — for the storyteller scene list — always a
``title`` and a one-line ``summary`` in the chat's language.

Each press rolls exactly once: the tracker row is locked, the button's per-slot roll count must
still match, the roll goes through the log as ``trk:<id>:<slot>:<n>`` (``n`` the card's version
at the press, so a roll the GM undid stays in the log and a new press is a new roll), and the
state moves by ``core.step`` on that version.

What a roll means on the card is the rules' business: the card's system's ``CardScoring``
(``SystemSpec.cards``, ``engine/systems/<system>/cards.py``) scores opposed rolls, races to a
target, extended and team rolls over typed models (``engine.systems.cards``). This module reads
the command, resolves the participants, runs the tracker and keeps the engine's state in the
tracker's JSON: each state model dumps to the same keys it is validated from.
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
from engine import formats
from engine.dice.results import RollResult
from engine.errors import EngineError, RuleViolation
from engine.systems.cards import CardKind, CardScoring, CardStatus, SideRoll, status_words
from engine.text import Msg

OPPOSED: Final = "card_opposed"
EXTENDED: Final = "card_extended"
TEAM: Final = "card_team"
KINDS: Final = (OPPOSED, EXTENDED, TEAM)

MAX_SLOTS: Final = 6
MAX_NAME: Final = 32
MAX_TITLE: Final = 120
MAX_ROLLS: Final = 30
"""A hard cap on rolls in one card's slot, whatever the GM asked."""
MAX_FACES_SHOWN: Final = 30

_TAIL: Final = re.compile(
    r"\s+(?:до|to)\s+(\d{1,3})(?:\s+(?:за|in|max)\s+(\d{1,3}))?\s*(!)?\s*$", re.IGNORECASE
)
_SPLIT: Final = re.compile(r"\s*[|;\n]\s*")


ROLLED: Final = N_("Already rolled.")


def rules_of(state: dict[str, Any]) -> CardScoring:
    """The card scoring of the system the card was opened in (kept in its state)."""
    return SYSTEMS[state["system"]].cards


def _refused(problem: Msg | EngineError, t: Translator) -> CardInputError:
    return CardInputError(escape(problem.render(t.locale)))


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
        # an opposed roll repeated until a side reaches the target
        try:
            race = rules_of(state).start_race(
                [s["name"] for s in slots], [s["notation"] for s in slots], tail.target,
                tail.max_rolls,
            )  # fmt: skip
        except RuleViolation as error:
            raise _refused(error, t) from error
        state["race"] = True
        state.update(race.model_dump(mode="json"))
        title += " " + t("to {target}", target=tail.target)
    state["title"] = _clip_title(title)
    return await _open(uow, game, OPPOSED, state, gm_user_id, t)


async def new_extended(
    uow: UnitOfWork, game: GameDTO, text: str, *, gm_user_id: int, t: Translator
) -> TrackerDTO:
    scoring = SYSTEMS[game.system].cards
    refused = scoring.refusal(CardKind.EXTENDED)
    if refused is not None:
        raise _refused(refused, t)
    body, tail = split_tail(text)
    if tail.target is None:
        raise CardInputError(t("Name the target: «… to 10» (optionally «in 5» rolls)."))
    slots = await _slots(uow, game, body, t, least=1, most=1)
    state: dict[str, Any] = {
        "mode": "extended", "system": game.system, "slots": slots, "done": False,
        "result": None,
    }  # fmt: skip
    try:
        task = scoring.start_extended(
            slots[0]["name"], slots[0]["notation"], tail.target, tail.max_rolls, tail.strict
        )
    except RuleViolation as error:
        raise _refused(error, t) from error
    state.update(task.model_dump(mode="json"))
    state["title"] = _clip_title(
        t("{name} — {trait} to {target}", name=slots[0]["name"], trait=_base_trait(slots[0]),
          target=tail.target)
    )  # fmt: skip
    return await _open(uow, game, EXTENDED, state, gm_user_id, t)


async def new_team(
    uow: UnitOfWork, game: GameDTO, text: str, *, gm_user_id: int, t: Translator
) -> TrackerDTO:
    scoring = SYSTEMS[game.system].cards
    refused = scoring.refusal(CardKind.TEAM)
    if refused is not None:
        raise _refused(refused, t)
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
        team = scoring.start_team(
            [s["name"] for s in slots], [s["notation"] for s in slots],
            [s["target"] for s in slots], tail.target, tail.max_rolls,
        )  # fmt: skip
    except RuleViolation as error:
        raise _refused(error, t) from error
    for slot, member in zip(slots, team.members, strict=True):
        slot["notation"], slot["target"] = member.notation, member.target
        if member.lead:
            slot["lead"] = True
        if member.helps is not None:
            slot["helps"] = member.helps
    state.update(team.state.model_dump(mode="json"))
    return await _open(uow, game, TEAM, state, gm_user_id, t)


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


def _side(entry: dict[str, Any]) -> SideRoll:
    return SideRoll(tuple(entry["faces"]), int(entry["total"]), bool(entry["botch"]))


def _rolls(state: dict[str, Any]) -> list[list[SideRoll]]:
    """Every slot's rolls, typed, oldest first."""
    return [[_side(entry) for entry in slot["rolls"]] for slot in state["slots"]]


def can_roll(state: dict[str, Any], index: int) -> bool:
    """Whether slot ``index`` has a roll to make now."""
    if state.get("done") or not 0 <= index < len(state["slots"]):
        return False
    mode = state["mode"]
    if mode == "opposed" and not state.get("race"):
        return not state["slots"][index]["rolls"]
    if mode == "extended":
        return True
    scoring = rules_of(state)
    if mode == "opposed":
        return scoring.race_turn(scoring.race(state), index, _rolls(state))
    return scoring.team_turn(scoring.team(state), index, _rolls(state))


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


# --- the engine's verdicts on the card ------------------------------------------------------


def _shown_faces(result: RollResult) -> str:
    dice = [d for d in result.dice if d.kept]
    faces = [d.symbol for d in dice[:MAX_FACES_SHOWN]]
    more = " …" if len(dice) > MAX_FACES_SHOWN else ""
    return " ".join(faces) + more


def _words(state: dict[str, Any], slot: dict[str, Any], result: RollResult, locale: str) -> str:
    """The system's words for one roll, read against what its card scoring says (none for
    plain dice that are not the system's own)."""
    ask = rules_of(state).words_for(
        slot["notation"], slot["target"], from_sheet=bool(slot["trait"]),
        in_team=state["mode"] == "team", counts_successes=result.counts_successes,
    )  # fmt: skip
    if ask is None:
        return ""
    label = slot["trait"] or slot["notation"]
    plan = SheetRoll(slot["notation"], label, ask.target, state["system"])
    return outcome_words(plan, result, locale)


def _note(slot: dict[str, Any], text: str) -> None:
    """``text`` as the note of the slot's latest roll (a copy: the state before keeps its)."""
    last = slot["rolls"][-1]
    slot["rolls"] = [*slot["rolls"][:-1], {**last, "note": text}]


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
        _race_step(new, index, t)
    elif new["mode"] == "opposed":
        _opposed(new, t)
    elif new["mode"] == "extended":
        _extended_step(new, t)
    else:
        _team_step(new, index, t)
    new["summary"] = summary(new, t)
    return new


def _opposed(state: dict[str, Any], t: Translator) -> None:
    slots = state["slots"]
    if any(not s["rolls"] for s in slots):
        return
    verdict = rules_of(state).opposed(
        [_side(s["rolls"][-1]) for s in slots], [s["name"] for s in slots]
    )
    state["done"] = True
    words = verdict.words.render(t.locale)
    state["result"] = {"winner": verdict.winner, "margin": verdict.margin, "words": words}


def _race_step(state: dict[str, Any], index: int, t: Translator) -> None:
    scoring = rules_of(state)
    slots = state["slots"]
    names = [s["name"] for s in slots]
    rolls = _rolls(state)
    step = scoring.race_step(scoring.race(state), index, rolls, names)
    state.update(step.state.model_dump(mode="json"))
    if step.note is None:
        return  # the round is still open
    _note(slots[index], step.note.render(t.locale))
    if step.over or len(rolls[index]) >= MAX_ROLLS:
        state["done"] = True
        winner = step.winner
        words = (
            t("{name} reaches {target} first.", name=names[winner], target=state["target"])
            if winner is not None
            else t("Nobody reached {target}.", target=state["target"])
        )
        state["result"] = {"winner": winner, "margin": 0, "words": words}


def _extended_step(state: dict[str, Any], t: Translator) -> None:
    scoring = rules_of(state)
    slot = state["slots"][0]
    step = scoring.extended_step(scoring.extended(state), _rolls(state)[0])
    state.update(step.state.model_dump(mode="json"))
    _note(slot, step.note.render(t.locale))
    status = step.status
    if len(slot["rolls"]) >= MAX_ROLLS and status is CardStatus.ACTIVE:
        status = CardStatus.FAILED
    if status is not CardStatus.ACTIVE:
        state["done"] = True
        state["result"] = {"status": status.value}


def _team_step(state: dict[str, Any], index: int, t: Translator) -> None:
    scoring = rules_of(state)
    step = scoring.team_step(scoring.team(state), index, _rolls(state))
    state.update(step.state.model_dump(mode="json"))
    for member, note in step.notes.items():
        _note(state["slots"][member], note.render(t.locale))
    if step.done:
        state["done"] = True
        result: dict[str, Any] = {"total": step.total}
        if step.status is not None:
            result["status"] = step.status.value
        state["result"] = result


# --- the one-line summary --------------------------------------------------------------------


def _named_tally(state: dict[str, Any], scores: list[str]) -> str:
    """«Алиса 7 : — Боб»: each side's score beside its name (a bare «7 : —» read as nothing)."""
    names = [str(slot["name"]) for slot in state["slots"]]
    if len(names) == 2 == len(scores):
        return f"{names[0]} {scores[0]} : {scores[1]} {names[1]}"
    return " · ".join(f"{name} {score}" for name, score in zip(names, scores, strict=False))


def summary(state: dict[str, Any], t: Translator) -> str:
    """The card's tally in one line (the storyteller scene lists open cards by it)."""
    if state.get("cancelled"):
        return t("cancelled")
    mode = state["mode"]
    wait = ", ".join(waiting(state))
    if mode == "opposed" and state.get("race"):
        tally = _named_tally(state, [formats.number(p) for p in state["points"]])
        tally = t("{tally} (to {target})", tally=tally, target=state["target"])
        if not state["done"]:
            return t("{tally}, waiting for {names}", tally=tally, names=wait)
        winner = state["result"]["winner"]
        if winner is None:
            return t("{tally}, nobody won", tally=tally)
        return t("{tally}, {name} wins", tally=tally, name=state["slots"][winner]["name"])
    if mode == "opposed":
        tally = _named_tally(
            state,
            [
                formats.number(rules_of(state).score(_side(s["rolls"][-1]))) if s["rolls"] else "—"
                for s in state["slots"]
            ],
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
        return f"{tally}, {status_words(state['result']['status']).render(t.locale)}"
    total = team_total(state)
    if not state["done"]:
        return t("team total {total}, waiting for {names}", total=total, names=wait)
    return t("team total {total}", total=total) + ", " + team_verdict(state, t)


def team_total(state: dict[str, Any]) -> int:
    result = state.get("result")
    if result and "total" in result:
        return int(result["total"])
    scoring = rules_of(state)
    return scoring.team_total(scoring.team(state), _rolls(state), bool(state["done"]))


def team_verdict(state: dict[str, Any], t: Translator) -> str:
    """The finished team card's outcome in the system's words."""
    scoring = rules_of(state)
    result = state["result"] or {}
    status = CardStatus(result["status"]) if result.get("status") else None
    total = int(result.get("total", 0))
    return scoring.team_verdict(scoring.team(state), total, status).render(t.locale)
