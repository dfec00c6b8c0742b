"""Notices of a scheduled milestone that waits for the game's fight or scene to end."""

from __future__ import annotations

from html import escape

from bot.i18n import Translator
from bot.services.schedules import Fired
from handlers.views.schedules import kind_title


def waiting(t: Translator, fired: Fired) -> str | None:
    """One line when the milestone came due during an open fight or scene."""
    if not fired.deferred:
        return None
    title = escape(kind_title(t, fired.game.system, fired.schedule.kind))
    return t(
        "⏰ {title} is due, but a fight or scene is going on: it waits and applies when the "
        "fight or scene ends.",
        title=title,
    )


def resumed(t: Translator, fired: Fired, notice: str | None) -> str | None:
    """The notice of a milestone applied after the fight, saying that it waited."""
    if notice is None or not fired.resumed:
        return notice
    return t("⏰ The fight or scene is over: the milestone that waited applies now.") + (
        "\n\n" + notice
    )


def mid_fight(t: Translator) -> str:
    return t(
        "⚔️ A fight or scene is going on: this milestone would change sheets mid-fight "
        "(listed below). Apply it now only if you mean to."
    )
