"""Games, their members, characters (JSONB sheets with versions) and deep-link tokens."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased
from sqlalchemy.orm.util import identity_key
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from db.models import (
    ACTIVE_NAME_INDEX,
    Character,
    CharacterProposal,
    CharacterVersion,
    Game,
    GameData,
    GameMember,
    LinkToken,
    User,
    utcnow,
)
from engine.common import name_key


@dataclass(frozen=True)
class GameDTO:
    id: int
    chat_id: int
    system: str
    title: str
    gm_user_id: int
    options: dict[str, Any]
    timezone: str
    archived: bool
    # the forum topic the game lives in (None: the group itself, or a forum's «General»)
    thread_id: int | None = None
    # why the bot cannot post for the game now (``bot/delivery.py``); None while it can
    held: str | None = None


@dataclass(frozen=True)
class MemberDTO:
    user_id: int
    role: str
    name: str


@dataclass(frozen=True)
class CharacterDTO:
    id: int
    game_id: int
    owner_user_id: int | None
    is_npc: bool
    system: str
    name: str
    status: str
    sheet: dict[str, Any]
    version: int
    review_comment: str | None
    schema_version: int = 1


@dataclass(frozen=True)
class ProposalDTO:
    id: int
    character_id: int
    author_user_id: int
    base_version: int
    sheet: dict[str, Any]
    status: str


@dataclass(frozen=True)
class VersionDTO:
    version: int
    author_user_id: int
    kind: str
    diff: list[Any]
    created_at: datetime


def _game(row: Game) -> GameDTO:
    assert row.id is not None
    return GameDTO(
        row.id, row.chat_id, row.system, row.title, row.gm_user_id, dict(row.options),
        row.timezone, row.archived_at is not None, row.thread_id, row.held,
    )  # fmt: skip


def _proposal(row: CharacterProposal) -> ProposalDTO:
    assert row.id is not None
    return ProposalDTO(
        row.id, row.character_id, row.author_user_id, row.base_version, dict(row.sheet),
        row.status,
    )  # fmt: skip


def _character(row: Character) -> CharacterDTO:
    assert row.id is not None
    return CharacterDTO(
        row.id, row.game_id, row.owner_user_id, row.is_npc, row.system, row.name, row.status,
        dict(row.sheet), row.version, row.review_comment, row.schema_version,
    )  # fmt: skip


_UNKNOWN = object()


class NameTaken(Exception):
    """Another active character of the game has ``name`` (as ``name_key`` compares; None: the
    caller's own character's name): the database's unique index refused the write. The
    transaction is spoilt: roll it back."""

    def __init__(self, name: str | None) -> None:
        super().__init__(name)
        self.name = name


def _named(name: str) -> dict[str, str]:
    """A character's name with its key: every write of a name goes through here."""
    return {"name": name, "name_key": name_key(name)}


@contextmanager
def _one_active_name(name: str | None) -> Iterator[None]:
    """The unique index of active names refusing the statement raises ``NameTaken``."""
    try:
        yield
    except IntegrityError as error:
        cause = getattr(error.orig, "__cause__", None)
        if getattr(cause, "constraint_name", None) == ACTIVE_NAME_INDEX:
            raise NameTaken(name) from error
        raise


class GameRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session
        # chat id → its live game as read at the start of this update (see remember_live);
        # any write to games forgets it.
        self._live: dict[int, GameDTO | None] = {}
        # chat id → the forum topic this update came from (``in_topic``): a chat's game is
        # the one of that topic
        self._topics: dict[int, int | None] = {}
        # (game id, user id) → role, for the sender's membership read with the claim.
        self._roles: dict[tuple[int, int], str | None] = {}

    def remember_live(
        self, chat_id: int, row: Mapping[str, Any] | None, *, user_id: int | None,
        role: str | None,
    ) -> None:  # fmt: skip
        """Seed this update's memo with what the claim read (``claim_with_context``)."""
        game = None if row is None else GameDTO(
            row["id"], row["chat_id"], row["system"], row["title"], row["gm_user_id"],
            dict(row["options"]), row["timezone"], False, row["thread_id"], row["held"],
        )  # fmt: skip
        self._live[chat_id] = game
        if game is not None and user_id is not None:
            self._roles[(game.id, user_id)] = role

    def in_topic(self, chat_id: int, thread_id: int | None) -> None:
        """This update came from ``thread_id`` of the chat (``bot.delivery.topic_of``, set
        once by ``UnitOfWorkMiddleware``): ``live_for_chat`` and ``create`` mean that
        topic's game from now on."""
        if self._topics.get(chat_id, _UNKNOWN) != thread_id:
            self._live.pop(chat_id, None)
        self._topics[chat_id] = thread_id

    def topic(self, chat_id: int) -> int | None:
        """The topic of the chat this update came from (None: the group or «General»)."""
        return self._topics.get(chat_id)

    def _forget_live(self) -> None:
        self._live.clear()

    def _forget_member(self, game_id: int, user_id: int) -> None:
        self._roles.pop((game_id, user_id), None)
        cached = self._session.identity_map.get(identity_key(GameMember, (game_id, user_id)))
        if cached is not None:
            self._session.expunge(cached)

    async def create(self, chat_id: int, system: str, title: str, gm_user_id: int) -> GameDTO:
        self._forget_live()
        row = Game(
            chat_id=chat_id, system=system, title=title, gm_user_id=gm_user_id,
            thread_id=self.topic(chat_id),
        )  # fmt: skip
        self._session.add(row)
        await self._session.flush()
        assert row.id is not None
        await self.set_member(row.id, gm_user_id, "gm")
        return _game(row)

    async def live_for_chat(self, chat_id: int) -> GameDTO | None:
        known = self._live.get(chat_id, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
        thread = self.topic(chat_id)
        stmt = select(Game).where(
            col(Game.chat_id) == chat_id,
            func.coalesce(col(Game.thread_id), 0) == (thread or 0),
            col(Game.archived_at).is_(None),
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _game(row) if row else None

    async def to_group(self, game_id: int) -> GameDTO | None:
        """Bind a topic's live game to its group itself (topics were turned off); None when
        the group already has a game of its own (the unique index would refuse a second)."""
        self._forget_live()
        game = aliased(Game)
        taken = (
            select(game.id)
            .where(
                game.chat_id == Game.chat_id,
                game.thread_id.is_(None),  # type: ignore[union-attr]
                game.archived_at.is_(None),  # type: ignore[union-attr]
            )
            .exists()
        )
        stmt = (
            update(Game)
            .where(col(Game.id) == game_id, col(Game.archived_at).is_(None), ~taken)
            .values(thread_id=None)
            .returning(Game)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _game(row) if row else None

    async def live_in_chat(self, chat_id: int) -> list[GameDTO]:
        """Every live game of the chat, one per topic («General» first)."""
        stmt = (
            select(Game)
            .where(col(Game.chat_id) == chat_id, col(Game.archived_at).is_(None))
            .order_by(func.coalesce(col(Game.thread_id), 0), col(Game.id))
        )
        return [_game(r) for r in (await self._session.execute(stmt)).scalars()]

    async def hold(self, game_id: int, reason: str) -> bool:
        """Mark the game held for ``reason``; True only for the call that held it (the GM is
        told once). Waits at most briefly for the row: the update posting may hold it in a
        transaction of its own (``bot/delivery.py``)."""
        self._forget_live()
        await self._session.execute(text("SET LOCAL lock_timeout = '2s'"))
        stmt = (
            update(Game)
            .where(col(Game.id) == game_id, col(Game.held).is_(None))
            .values(held=reason)
            .returning(col(Game.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def release(
        self, chat_id: int, *, thread_id: int | None = None, reasons: tuple[str, ...],
        whole_chat: bool = False,
    ) -> list[GameDTO]:  # fmt: skip
        """Lift the holds for ``reasons`` of the topic's live game (of every live game of the
        chat with ``whole_chat``); the games released."""
        self._forget_live()
        where = [
            col(Game.chat_id) == chat_id,
            col(Game.archived_at).is_(None),
            col(Game.held).in_(reasons),
        ]
        if not whole_chat:
            where.append(func.coalesce(col(Game.thread_id), 0) == (thread_id or 0))
        stmt = update(Game).where(*where).values(held=None).returning(Game)
        return [_game(r) for r in (await self._session.execute(stmt)).scalars()]

    async def hold_topic(self, chat_id: int, thread_id: int | None, reason: str) -> GameDTO | None:
        """Hold the topic's live game (None: «General»'s) for ``reason``; the game if this
        call held it."""
        self._forget_live()
        stmt = (
            update(Game)
            .where(
                col(Game.chat_id) == chat_id,
                func.coalesce(col(Game.thread_id), 0) == (thread_id or 0),
                col(Game.archived_at).is_(None),
                col(Game.held).is_(None),
            )
            .values(held=reason)
            .returning(Game)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _game(row) if row else None

    async def archived_for_chat(self, chat_id: int) -> GameDTO | None:
        """The chat's most recently archived game (read when the chat has no live one)."""
        stmt = (
            select(Game)
            .where(col(Game.chat_id) == chat_id, col(Game.archived_at).is_not(None))
            .order_by(col(Game.archived_at).desc(), col(Game.id).desc())
            .limit(1)
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _game(row) if row else None

    async def hold_chat(self, chat_id: int, reason: str) -> list[GameDTO]:
        """Hold every live game of the chat not held yet; those games."""
        self._forget_live()
        stmt = (
            update(Game)
            .where(
                col(Game.chat_id) == chat_id,
                col(Game.archived_at).is_(None),
                col(Game.held).is_(None),
            )
            .values(held=reason)
            .returning(Game)
        )
        return [_game(r) for r in (await self._session.execute(stmt)).scalars()]

    async def get(self, game_id: int, *, for_update: bool = False) -> GameDTO | None:
        if not for_update:
            known = next((g for g in self._live.values() if g and g.id == game_id), None)
            if known is not None:
                return known
        stmt = select(Game).where(col(Game.id) == game_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _game(row) if row else None

    async def games_of(
        self, user_id: int, *, roles: tuple[str, ...], archived: bool = False
    ) -> list[GameDTO]:
        """Live games where the user holds one of ``roles`` (e.g. the GM's own games); with
        ``archived``, the archived ones too (live first)."""
        stmt = (
            select(Game)
            .join(GameMember, col(GameMember.game_id) == col(Game.id))
            .where(col(GameMember.user_id) == user_id, col(GameMember.role).in_(roles))
            .order_by(col(Game.archived_at).is_not(None), col(Game.id))
        )
        if not archived:
            stmt = stmt.where(col(Game.archived_at).is_(None))
        return [_game(r) for r in (await self._session.execute(stmt)).scalars()]

    async def set_member(self, game_id: int, user_id: int, role: str) -> None:
        """Add a member or change their role (the GM's own role never changes here)."""
        self._forget_member(game_id, user_id)
        stmt = insert(GameMember).values(game_id=game_id, user_id=user_id, role=role)
        stmt = stmt.on_conflict_do_update(
            index_elements=["game_id", "user_id"],
            set_={"role": stmt.excluded.role},
            where=col(GameMember.role) != "gm",
        )
        await self._session.execute(stmt)

    async def add_member(self, game_id: int, user_id: int, role: str) -> None:
        """Add a member; an existing member keeps their role (a co-GM stays a co-GM)."""
        self._forget_member(game_id, user_id)
        stmt = insert(GameMember).values(game_id=game_id, user_id=user_id, role=role)
        await self._session.execute(
            stmt.on_conflict_do_nothing(index_elements=["game_id", "user_id"])
        )

    async def remove_cogm(self, game_id: int, user_id: int) -> bool:
        """A co-GM becomes a player of the game; False if the user was no co-GM."""
        self._forget_member(game_id, user_id)
        stmt = (
            update(GameMember)
            .where(
                col(GameMember.game_id) == game_id,
                col(GameMember.user_id) == user_id,
                col(GameMember.role) == "cogm",
            )
            .values(role="player")
            .returning(col(GameMember.user_id))
        )
        return (await self._session.execute(stmt)).first() is not None

    async def role(self, game_id: int, user_id: int) -> str | None:
        if (game_id, user_id) in self._roles:
            return self._roles[(game_id, user_id)]
        row = await self._session.get(GameMember, (game_id, user_id))
        return row.role if row else None

    async def members(self, game_id: int) -> list[MemberDTO]:
        stmt = (
            select(GameMember.user_id, GameMember.role, User.first_name, User.display_name)
            .join(User, col(User.id) == col(GameMember.user_id), isouter=True)
            .where(col(GameMember.game_id) == game_id)
            .order_by(col(GameMember.joined_at))
        )
        rows = (await self._session.execute(stmt)).all()
        return [MemberDTO(r[0], r[1], r[3] or r[2] or str(r[0])) for r in rows]

    async def set_options(self, game_id: int, options: dict[str, Any]) -> None:
        self._forget_live()
        await self._session.execute(
            update(Game).where(col(Game.id) == game_id).values(options=options)
        )

    async def set_timezone(self, game_id: int, timezone: str) -> None:
        self._forget_live()
        await self._session.execute(
            update(Game).where(col(Game.id) == game_id).values(timezone=timezone)
        )

    async def archive(self, game_id: int) -> bool:
        self._forget_live()
        stmt = (
            update(Game)
            .where(col(Game.id) == game_id, col(Game.archived_at).is_(None))
            .values(archived_at=utcnow())
            .returning(col(Game.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        self._forget_live()
        await self._session.execute(
            update(Game).where(col(Game.chat_id) == old_chat_id).values(chat_id=new_chat_id)
        )

    async def data(self, game_id: int, key: str) -> Any:
        row = await self._session.get(GameData, (game_id, key))
        return row.value if row else None

    async def set_data(self, game_id: int, key: str, value: Any) -> None:
        stmt = insert(GameData).values(game_id=game_id, key=key, value=value)
        stmt = stmt.on_conflict_do_update(
            index_elements=["game_id", "key"],
            set_={"value": stmt.excluded.value, "updated_at": func.now()},
        )
        await self._session.execute(stmt)

    async def add_token(
        self, token: str, purpose: str, game_id: int, character_id: int | None = None
    ) -> None:
        self._session.add(
            LinkToken(token=token, purpose=purpose, game_id=game_id, character_id=character_id)
        )
        await self._session.flush()

    async def token(self, token: str) -> LinkToken | None:
        return await self._session.get(LinkToken, token)

    async def token_for(
        self, purpose: str, game_id: int, character_id: int | None = None
    ) -> str | None:
        stmt = select(LinkToken.token).where(
            col(LinkToken.purpose) == purpose,
            col(LinkToken.game_id) == game_id,
            col(LinkToken.character_id).is_(None)
            if character_id is None
            else col(LinkToken.character_id) == character_id,
        )
        return (await self._session.execute(stmt)).scalars().first()


class CharacterRepo:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(
        self,
        *,
        game_id: int,
        owner_user_id: int | None,
        is_npc: bool,
        system: str,
        name: str,
        status: str,
        sheet: dict[str, Any],
        schema_version: int,
    ) -> CharacterDTO:
        """Raises ``NameTaken`` for an active character of a name the game's active ones hold."""
        row = Character(
            game_id=game_id, owner_user_id=owner_user_id, is_npc=is_npc, system=system,
            status=status, sheet=sheet, schema_version=schema_version, **_named(name),
        )  # fmt: skip
        self._session.add(row)
        with _one_active_name(name):
            await self._session.flush()
        return _character(row)

    async def get(self, character_id: int, *, for_update: bool = False) -> CharacterDTO | None:
        stmt = select(Character).where(col(Character.id) == character_id)
        if for_update:
            stmt = stmt.with_for_update()
        # Read afresh: ``write_sheets`` is plain SQL, so a row loaded earlier in this unit (and
        # kept past commit) would otherwise come back with its old sheet and version.
        result = await self._session.execute(stmt, execution_options={"populate_existing": True})
        row = result.scalar_one_or_none()
        return _character(row) if row else None

    async def lock_many(self, character_ids: list[int]) -> list[CharacterDTO]:
        """Several characters in one statement, locked until the transaction ends (id order,
        so two concurrent actions over the same characters cannot deadlock)."""
        stmt = (
            select(Character)
            .where(col(Character.id).in_(character_ids))
            .order_by(col(Character.id))
            .with_for_update()
        )
        return [_character(r) for r in (await self._session.execute(stmt)).scalars()]

    async def write_sheets(self, sheets: dict[int, dict[str, Any]], schema_version: int) -> None:
        """New sheets for several characters in ONE statement; each version goes up by one."""
        if not sheets:
            return
        rows = ", ".join(
            f"(CAST(:id{i} AS integer), CAST(:sheet{i} AS jsonb))" for i in range(len(sheets))
        )
        params: dict[str, Any] = {"schema": schema_version}
        for i, (character_id, sheet) in enumerate(sheets.items()):
            params[f"id{i}"] = character_id
            params[f"sheet{i}"] = json.dumps(sheet, ensure_ascii=False)
        await self._session.execute(
            text(
                "UPDATE characters AS c SET sheet = v.sheet, version = c.version + 1, "
                "schema_version = :schema, updated_at = now() "
                f"FROM (VALUES {rows}) AS v(id, sheet) WHERE c.id = v.id"
            ),
            params,
        )

    async def for_game(self, game_id: int, *, statuses: tuple[str, ...]) -> list[CharacterDTO]:
        stmt = (
            select(Character)
            .where(col(Character.game_id) == game_id, col(Character.status).in_(statuses))
            .order_by(col(Character.id))
        )
        return [_character(r) for r in (await self._session.execute(stmt)).scalars()]

    async def active_of(self, game_id: int, owner_user_id: int) -> CharacterDTO | None:
        stmt = select(Character).where(
            col(Character.game_id) == game_id,
            col(Character.owner_user_id) == owner_user_id,
            col(Character.status) == "active",
            col(Character.is_npc).is_(False),
        )
        row = (await self._session.execute(stmt)).scalar_one_or_none()
        return _character(row) if row else None

    async def set_status(
        self, character_id: int, *, expected: tuple[str, ...], status: str, comment: str | None
    ) -> bool:
        """Conditional: only from an expected status, so two presses cannot both apply.
        Raises ``NameTaken`` when the character would be active beside one of its name."""
        stmt = (
            update(Character)
            .where(col(Character.id) == character_id, col(Character.status).in_(expected))
            .values(status=status, review_comment=comment, updated_at=func.now())
            .returning(col(Character.id))
        )
        with _one_active_name(None):
            return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def retire_active(self, game_id: int, owner_user_id: int, *, except_id: int) -> None:
        stmt = (
            update(Character)
            .where(
                col(Character.game_id) == game_id,
                col(Character.owner_user_id) == owner_user_id,
                col(Character.status) == "active",
                col(Character.id) != except_id,
                col(Character.is_npc).is_(False),
            )
            .values(status="retired", updated_at=func.now())
        )
        await self._session.execute(stmt)

    async def retire_returned(self, game_id: int, owner_user_id: int, *, except_id: int) -> None:
        stmt = (
            update(Character)
            .where(
                col(Character.game_id) == game_id,
                col(Character.owner_user_id) == owner_user_id,
                col(Character.status) == "returned",
                col(Character.id) != except_id,
            )
            .values(status="retired", updated_at=func.now())
        )
        await self._session.execute(stmt)

    async def replace_sheet(
        self,
        character_id: int,
        *,
        expected_version: int,
        name: str,
        sheet: dict[str, Any],
        schema_version: int,
    ) -> int | None:
        """Optimistic: the sheet changes only if nobody changed it since it was read. Raises
        ``NameTaken`` when an active character would take a name another active one holds."""
        stmt = (
            update(Character)
            .where(col(Character.id) == character_id, col(Character.version) == expected_version)
            .values(
                sheet=sheet, version=expected_version + 1, updated_at=func.now(), **_named(name)
            )
            .returning(col(Character.version))
        )
        with _one_active_name(name):
            return (await self._session.execute(stmt)).scalar_one_or_none()

    async def add_version(
        self,
        character_id: int,
        version: int,
        *,
        author_user_id: int,
        kind: str,
        diff: list[Any],
        sheet: dict[str, Any],
    ) -> None:
        self._session.add(
            CharacterVersion(
                character_id=character_id,
                version=version,
                author_user_id=author_user_id,
                kind=kind,
                diff=diff,
                sheet=sheet,
            )
        )
        await self._session.flush()

    async def add_proposal(
        self, character_id: int, *, author_user_id: int, base_version: int, sheet: dict[str, Any]
    ) -> ProposalDTO:
        row = CharacterProposal(
            character_id=character_id, author_user_id=author_user_id,
            base_version=base_version, sheet=sheet,
        )  # fmt: skip
        self._session.add(row)
        await self._session.flush()
        return _proposal(row)

    async def proposal(self, proposal_id: int) -> ProposalDTO | None:
        row = await self._session.get(CharacterProposal, proposal_id)
        return _proposal(row) if row else None

    async def decide_proposal(self, proposal_id: int, status: str) -> bool:
        """pending → accepted/rejected, once (a second press finds nothing pending)."""
        stmt = (
            update(CharacterProposal)
            .where(
                col(CharacterProposal.id) == proposal_id,
                col(CharacterProposal.status) == "pending",
            )
            .values(status=status)
            .returning(col(CharacterProposal.id))
        )
        return (await self._session.execute(stmt)).scalar_one_or_none() is not None

    async def history(self, character_id: int, *, limit: int = 20) -> list[VersionDTO]:
        stmt = (
            select(CharacterVersion)
            .where(col(CharacterVersion.character_id) == character_id)
            .order_by(col(CharacterVersion.id).desc())
            .limit(limit)
        )
        rows = (await self._session.execute(stmt)).scalars().all()
        return [
            VersionDTO(r.version, r.author_user_id, r.kind, list(r.diff), r.created_at)
            for r in rows
        ]
