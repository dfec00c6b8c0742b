"""What the bot says about a forum group's topics: which topics have games."""

from __future__ import annotations

from html import escape

from bot.delivery import TOPIC_GONE
from bot.i18n import Translator
from bot.systems import SYSTEMS
from db.repositories.games import GameDTO
from handlers.views.safe import clip_list

LIST_ROOM = 3000  # markup characters the list may take


def topic_link(chat_id: int, thread_id: int) -> str | None:
    """A t.me link that opens the topic (supergroups only: their ids start with -100)."""
    raw = str(chat_id)
    return f"https://t.me/c/{raw[4:]}/{thread_id}" if raw.startswith("-100") else None


def games_elsewhere(t: Translator, games: list[GameDTO]) -> str:
    """«No game here», and the group's games, each with where it lives (its topic's link, or
    «General»)."""
    lines = []
    for game in games:
        title = f"«{escape(game.title)}» · {escape(t(SYSTEMS[game.system].title))}"
        link = None if game.thread_id is None else topic_link(game.chat_id, game.thread_id)
        if game.thread_id is None:
            lines.append(t("• {game} — in «General»", game=title))
        elif game.held == TOPIC_GONE:
            lines.append(t("• {game} — its topic was deleted", game=title))
        elif link is not None:
            lines.append(t('• {game} — <a href="{link}">its topic</a>', game=title, link=link))
        else:
            lines.append(t("• {game} — in its topic", game=title))
    head = t("There is no game here. This group's games, each in its own topic:")

    def more(n: int) -> str:
        return t("… and {n} more", n=n)

    return head + "\n" + clip_list(lines, room=LIST_ROOM, more=more, separator="\n")


def topics_off(t: Translator, games: list[GameDTO]) -> str:
    """A group that turned topics off with several topic games: they are kept, and reached
    again when topics are back on."""

    def more(n: int) -> str:
        return t("… and {n} more", n=n)

    titles = clip_list([f"«{escape(g.title)}»" for g in games], room=LIST_ROOM, more=more)
    return t(
        "Topics are off in this group, so its games cannot be told apart: {games}. They are "
        "kept: turn topics back on to play them.",
        games=titles,
    )
