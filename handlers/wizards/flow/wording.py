"""The words of a flow's frame (buttons, «Now: …», its refusals of typed text, the heads).

A system whose wizard reached players before the flow keeps its own words: its players know
them and its translations hold. The defaults are the flow's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, Translator


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True)
class Wording:
    """``own_heads``: a step's prompt is its whole head («Step 2 of 8. <b>Concept</b>: …»),
    filled with the window's data and the draft's answers; the player's preview then opens
    with ``preview_head`` (the NPC's with its own head) instead of «Step n of N: Preview».
    ``jump``: a preview button's label, ``{title}`` the step's title."""

    # the buttons under every step: back, next, skip (an optional step left empty)
    nav: tuple[str, str, str] = (N_("◀ Back"), N_("Next ▶"), N_("Skip ▶"))
    # a typed step's answer so far, and what a step says to a message it cannot take
    now: str = N_("Now: <b>{name}</b>")
    bad_text: str = N_("Text of 1 to {limit} characters, please.")
    not_text: str = N_("Please answer with text, or use the buttons.")
    buttons_only: str = N_("Please answer with text, or use the buttons.")  # the preview's
    # the heads and the preview's buttons
    own_heads: bool = False
    preview_head: str = ""
    jump: str = "✏️ {title}"

    def head(self, t: Translator, head: str, prompt: str, data: dict[str, Any]) -> str:
        """A step's head: «Step n of N: Title» and the prompt, or the prompt alone, filled."""
        if not self.own_heads:
            return f"<b>{head}</b>\n{t(prompt)}"
        return t(prompt).format_map(_Missing(data))

    def preview(self, t: Translator, head: str, npc: bool) -> str:
        if not self.own_heads:
            return f"<b>{head}</b>"
        return "" if npc else t(self.preview_head).strip()
