"""The checks every roll-request press passes, apart from ``bot.services.requests`` because
``request_options`` (the choices made before the roll) needs them too and ``requests`` calls
``request_options``: this way neither imports the other in a circle."""

from __future__ import annotations

from bot.i18n import N_
from db.repositories.games import GameDTO
from db.repositories.requests import RequestDTO


class RequestRefused(Exception):
    """A press that must change nothing; ``reason`` is a msgid."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


INACTIVE = N_("This button is no longer active.")
ARCHIVED = N_("This game is archived: its requests can no longer be rolled.")


def on_card(request: RequestDTO | None, *, chat_id: int, message_id: int | None) -> RequestDTO:
    """The request whose own card is the pressed message; refused otherwise (a forged button
    must not turn another message — a tracker, a sealed roll — into this card)."""
    if request is None or not request.shown_at(chat_id, message_id):
        raise RequestRefused(INACTIVE)
    return request


def check_live(game: GameDTO | None) -> None:
    """A request of an archived game changes no more."""
    if game is None or game.archived:
        raise RequestRefused(ARCHIVED)
