"""What tells a user's games apart on a picker's buttons: an imported game keeps its title, so
one player may be in three «Исходная fate» games (issue 33). Titles alone while they differ;
the group's title beside a title shared with another game, and an ordinal past that."""

from __future__ import annotations

from collections import Counter

from db.repositories.games import GameDTO
from db.uow import UnitOfWork


async def labels(uow: UnitOfWork, games: list[GameDTO]) -> dict[int, str]:
    """``game.id`` → the words its button shows (plain text, not escaped)."""
    titles = Counter(g.title for g in games)
    found: dict[int, str] = {}
    for game in games:
        label = game.title
        if titles[game.title] > 1:
            chat = await uow.chats.get(game.chat_id)
            if chat is not None and chat.title:
                label = f"{game.title} · {chat.title}"
        found[game.id] = label
    seen: Counter[str] = Counter()
    twice = Counter(found.values())
    for game in games:
        label = found[game.id]
        if twice[label] > 1:
            seen[label] += 1
            found[game.id] = f"{label} ({seen[label]})"
    return found
