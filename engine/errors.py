"""The single error base class of the engine.

Handlers catch exactly ``EngineError``; its ``msg`` is a translatable message fit for a user.
"""

from __future__ import annotations

from engine.text import Msg


class EngineError(Exception):
    """A user-caused failure with a message fit to show (never a traceback)."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.render("en"))
        self.msg = msg

    def render(self, locale: str) -> str:
        return self.msg.render(locale)

    def __reduce__(self) -> tuple[type[EngineError], tuple[Msg]]:
        # Pickled by its message (a worker process raises it, the bot renders it): the
        # default would rebuild it from the English text, which is no ``Msg``.
        return self.__class__, (self.msg,)


class RuleViolation(EngineError):
    """An operation that the rules of a system forbid in the current state."""
