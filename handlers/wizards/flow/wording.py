"""The words of a flow's frame (buttons, «Now: …», its refusals of typed text, the heads).

A system whose wizard reached players before the flow keeps its own words: its players know
them and its translations hold. The defaults are the flow's own.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_, Translator


@dataclass(frozen=True)
class Wording:
    """``own_heads``: a step's question is its whole head («Step 2 of 8. <b>Concept</b>: …»);
    the player's preview then opens with ``preview_head`` (the NPC's with its own head)
    instead of «Step n of N: Preview».
    ``jump``: a preview button's label, ``{title}`` the step's title."""

    # the buttons under every step: back, next, skip (an optional step left empty)
    nav: tuple[str, str, str] = (N_("◀ Back"), N_("Next ▶"), N_("Skip ▶"))
    # a typed step's answer so far, and what a step says to a message it cannot take (a
    # typed answer that does not fit: the step's own ``unfit``)
    now: str = N_("Now: <b>{name}</b>")
    not_text: str = N_("Please answer with text, or use the buttons.")
    buttons_only: str = N_("Please answer with text, or use the buttons.")  # the preview's
    # the heads and the preview's buttons
    own_heads: bool = False
    preview_head: str = ""
    jump: str = "✏️ {title}"

    def head(self, head: str, question: str) -> str:
        """A step's head: «Step n of N: Title» and the question, or the question alone."""
        return question if self.own_heads else f"<b>{head}</b>\n{question}"

    def preview(self, t: Translator, head: str, npc: bool) -> str:
        if not self.own_heads:
            return f"<b>{head}</b>"
        return "" if npc else t(self.preview_head).strip()
