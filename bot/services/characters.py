"""Characters: submit from a wizard, GM approval or return, NPCs, history of every change."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.i18n import N_
from bot.systems import SYSTEMS
from db.repositories.games import CharacterDTO, GameDTO, NameTaken, ProposalDTO, VersionDTO
from db.repositories.ledger import LedgerDTO
from db.repositories.transfer import TransferRepo
from db.uow import UnitOfWork
from engine.common import SheetModel, Violation

NAME_MAX = 64


# Two active characters of one name in a game: /sheet, /r and the trackers could reach only
# one. The database refuses it (``characters_active_name``); these say so.
NAME_TAKEN = N_("The game already has «{name}»: give the character another name.")
APPROVAL_NAME_TAKEN = N_(
    "«{name}» is already active in this game. Return the sheet with a comment asking for "
    "another name."
)
PROPOSAL_NAME_TAKEN = N_(
    "«{name}» is already in this game: reject the change and ask for another name."
)


class CharacterError(Exception):
    """A refused change; ``reason`` is a msgid, ``params`` its {placeholders}."""

    def __init__(self, reason: str, **params: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


class NameInUse(CharacterError):
    """The change would make an active character of a name another active one of the game
    holds; nothing was written (the unit of work is rolled back)."""

    def __init__(self, reason: str, name: str) -> None:
        super().__init__(reason, name=name)
        self.name = name


@dataclass(frozen=True)
class Submitted:
    character: CharacterDTO
    game: GameDTO
    violations: tuple[Violation, ...]  # warnings only; errors refuse the submission


def sheet_name(character: SheetModel) -> str:
    name = getattr(character, "name", "") or ""
    return " ".join(str(name).split())[:NAME_MAX] or "?"


def diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """Field-level changes between two JSON documents, as ``{path, before, after}``."""
    if isinstance(before, dict) and isinstance(after, dict):
        changes: list[dict[str, Any]] = []
        for key in sorted(set(before) | set(after), key=str):
            changes += diff(before.get(key), after.get(key), f"{path}.{key}" if path else key)
        return changes
    if before == after:
        return []
    return [{"path": path or "$", "before": before, "after": after}]


async def submit(
    uow: UnitOfWork,
    *,
    game: GameDTO,
    author_user_id: int,
    character: SheetModel,
    npc: bool = False,
    history: Sequence[Mapping[str, Any]] | None = None,
) -> Submitted:
    """Store a finished sheet: pending GM approval (an NPC made by the GM is active at once).

    ``history`` (an imported character's ledger entries): the sheet comes from play, so the
    rules of play check it instead of the starting rules, and its entries are kept.
    Raises ``CharacterError`` carrying the blocking violations' text key when the engine
    refuses the sheet; the wizard shows them and stays on its step.
    """
    spec = SYSTEMS[game.system]
    options = spec.options(game.options)
    violations = spec.validate(character, options)
    if spec.blocking(character, options, npc=npc, in_play=history is not None):
        raise CharacterError(N_("The sheet breaks the creation rules."))
    sheet = character.model_dump(mode="json")
    try:
        stored = await uow.characters.add(
            game_id=game.id,
            owner_user_id=None if npc else author_user_id,
            is_npc=npc,
            system=game.system,
            name=sheet_name(character),
            status="active" if npc else "pending",
            sheet=sheet,
            schema_version=spec.schema_version,
        )
    except NameTaken:  # an NPC is active at once
        await uow.rollback()
        raise NameInUse(NAME_TAKEN, sheet_name(character)) from None
    await uow.characters.add_version(
        stored.id, 1, author_user_id=author_user_id, kind="create", diff=[], sheet=sheet
    )
    if history:
        await TransferRepo(uow.session).add_ledger(
            game.id, [{**entry, "character": stored.id} for entry in history]
        )
    if not npc:
        await uow.games.add_member(game.id, author_user_id, "player")
        # A resubmission replaces the player's returned drafts in this game.
        await uow.characters.retire_returned(game.id, author_user_id, except_id=stored.id)
    await uow.commit()
    return Submitted(stored, game, tuple(violations))


async def approve(uow: UnitOfWork, character_id: int, gm_user_id: int) -> CharacterDTO | None:
    """Pending → active (once, however many presses); the owner's previous one retires.
    Raises ``NameInUse`` when another active character of the game has its name: the sheet
    stays pending (the GM returns it for another name) and nothing changes."""
    current = await uow.characters.get(character_id, for_update=True)
    if current is None or current.status != "pending":
        return None
    if current.owner_user_id is not None:
        # First the old one retires: the one-active-per-player index is checked at once (and
        # the old one may bear the new one's name).
        await uow.characters.retire_active(
            current.game_id, current.owner_user_id, except_id=character_id
        )
    try:
        done = await uow.characters.set_status(
            character_id, expected=("pending",), status="active", comment=None
        )
    except NameTaken:
        await uow.rollback()
        raise NameInUse(APPROVAL_NAME_TAKEN, current.name) from None
    if not done:
        await uow.rollback()
        return None
    await uow.characters.add_version(
        character_id, current.version, author_user_id=gm_user_id, kind="approve", diff=[],
        sheet=current.sheet,
    )  # fmt: skip
    await uow.commit()
    return await uow.characters.get(character_id)


async def send_back(
    uow: UnitOfWork, character_id: int, gm_user_id: int, comment: str
) -> CharacterDTO | None:
    current = await uow.characters.get(character_id, for_update=True)
    if current is None or not await uow.characters.set_status(
        character_id, expected=("pending",), status="returned", comment=comment[:500]
    ):
        return None
    await uow.characters.add_version(
        character_id, current.version, author_user_id=gm_user_id, kind="return", diff=[],
        sheet=current.sheet,
    )  # fmt: skip
    await uow.commit()
    return await uow.characters.get(character_id)


async def edit(
    uow: UnitOfWork,
    character_id: int,
    author_user_id: int,
    character: SheetModel,
    *,
    base_version: int | None = None,
) -> CharacterDTO:
    """The GM's direct edit, versioned with its diff. ``base_version`` is the version the editor
    was opened on: if the sheet changed since, the edit is refused rather than overwriting.
    Renaming an active character to a name another active one has raises ``NameInUse``."""
    current = await uow.characters.get(character_id, for_update=True)
    if current is None:
        raise CharacterError(N_("No such character."))
    new_sheet = character.model_dump(mode="json")
    try:
        version = await uow.characters.replace_sheet(
            character_id,
            expected_version=current.version if base_version is None else base_version,
            name=sheet_name(character),
            sheet=new_sheet, schema_version=SYSTEMS[current.system].schema_version,
        )  # fmt: skip
    except NameTaken:
        await uow.rollback()
        raise NameInUse(NAME_TAKEN, sheet_name(character)) from None
    if version is None:
        raise CharacterError(N_("The sheet changed meanwhile; open it again."))
    await uow.characters.add_version(
        character_id, version, author_user_id=author_user_id, kind="edit",
        diff=diff(current.sheet, new_sheet), sheet=new_sheet,
    )  # fmt: skip
    await uow.commit()
    updated = await uow.characters.get(character_id)
    assert updated is not None
    return updated


def can_edit(character: CharacterDTO, user_id: int, *, is_gm: bool) -> bool:
    return is_gm or character.owner_user_id == user_id


async def propose(
    uow: UnitOfWork,
    character: CharacterDTO,
    author_user_id: int,
    sheet: SheetModel,
    *,
    base_version: int | None = None,
) -> ProposalDTO:
    """The owner's change to an approved sheet waits for the GM; the sheet stays as it is.
    ``base_version``: the version the player started from (accepting a stale one is refused)."""
    proposal = await uow.characters.add_proposal(
        character.id,
        author_user_id=author_user_id,
        base_version=character.version if base_version is None else base_version,
        sheet=sheet.model_dump(mode="json"),
    )
    await uow.commit()
    return proposal


async def decide(
    uow: UnitOfWork, proposal_id: int, gm_user_id: int, *, accept: bool
) -> tuple[ProposalDTO, CharacterDTO] | None:
    """Accept (apply with its diff, versioned) or reject a proposal, once."""
    proposal = await uow.characters.proposal(proposal_id)
    if proposal is None or not await uow.characters.decide_proposal(
        proposal_id, "accepted" if accept else "rejected"
    ):
        return None
    current = await uow.characters.get(proposal.character_id, for_update=True)
    assert current is not None
    if accept and current.version != proposal.base_version:
        # The sheet changed after the player started this proposal: accepting would undo it.
        await uow.rollback()
        raise CharacterError(N_("The sheet changed after this proposal; ask for a new one."))
    if not accept:
        await uow.commit()
        return proposal, current
    name = str(proposal.sheet.get("name") or current.name)[:NAME_MAX]
    try:
        version = await uow.characters.replace_sheet(
            current.id, expected_version=current.version, name=name, sheet=proposal.sheet,
            schema_version=SYSTEMS[current.system].schema_version,
        )  # fmt: skip
    except NameTaken:  # the proposal stays pending: the GM rejects it
        await uow.rollback()
        raise NameInUse(PROPOSAL_NAME_TAKEN, name) from None
    assert version is not None  # the row is locked: nobody changed it meanwhile
    await uow.characters.add_version(
        current.id, version, author_user_id=proposal.author_user_id, kind="edit",
        diff=diff(current.sheet, proposal.sheet), sheet=proposal.sheet,
    )  # fmt: skip
    await uow.commit()
    updated = await uow.characters.get(current.id)
    assert updated is not None
    return proposal, updated


HISTORY_LOADED = 200  # changes read for /history (the view clips them with a count)


@dataclass(frozen=True)
class Change:
    """One change of a character, from its versions (created, approved, edited…) or from the
    ledger (a resource, a milestone, a grant, a tracker's damage…)."""

    at: datetime
    version: int
    kind: str
    diff: list[Any]
    actor: str  # who made it (for a granted request: who granted it)
    asked_by: str | None = None  # a granted request: who asked
    from_ledger: bool = False
    undone: bool = False


async def history(uow: UnitOfWork, game: GameDTO, character: CharacterDTO) -> list[Change]:
    """Every change of ``character``, newest first: its versions and its ledger entries."""
    versions = await uow.characters.history(character.id, limit=HISTORY_LOADED)
    entries = await uow.ledger.for_character(character.id, limit=HISTORY_LOADED)
    names = {m.user_id: m.name for m in await uow.games.members(game.id)}
    for user_id in {e.asked_by_user_id for e in entries} | {e.actor_user_id for e in entries}:
        if user_id is not None and user_id not in names:
            user = await uow.users.get(user_id)
            names[user_id] = user.name if user is not None else str(user_id)

    def who(user_id: int) -> str:
        return names.get(user_id, str(user_id))

    changes = [_version_change(v, who(v.author_user_id)) for v in versions]
    changes += [_ledger_change(e, who) for e in entries]
    return sorted(changes, key=lambda c: (c.at, c.version), reverse=True)


def _version_change(version: VersionDTO, author: str) -> Change:
    return Change(version.created_at, version.version, version.kind, version.diff, author)


def _ledger_change(entry: LedgerDTO, who: Callable[[int], str]) -> Change:
    asked = entry.asked_by_user_id
    return Change(
        entry.created_at, entry.version_after, entry.kind, entry.diff, who(entry.actor_user_id),
        asked_by=who(asked) if asked is not None and asked != entry.actor_user_id else None,
        from_ledger=True, undone=entry.undone,
    )  # fmt: skip
