"""The help screen: pages with buttons, every command from ``bot.commands.COMMANDS``.

A new page (e.g. dice notation) is one more ``HelpPage`` in ``PAGES``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.commands import COMMANDS, ChatCommand, Role, Where
from bot.i18n import N_, Translator
from bot.systems import SYSTEMS
from handlers.callbacks import Screen, ScreenCD
from handlers.callbacks_nav import HelpCD


@dataclass(frozen=True)
class HelpPage:
    key: str
    title: str  # msgid: its button and heading
    render: Callable[[Translator], str]


def _line(t: Translator, command: ChatCommand) -> str:
    names = " ".join(f"/{alias}" for alias in command.aliases)
    usage = escape(t(command.usage)) + (f" ({names})" if names else "")
    return f"{usage} — {escape(t(command.text))}"


def _section(t: Translator, heading: str, commands: Iterable[ChatCommand]) -> list[str]:
    lines = [_line(t, c) for c in commands]
    return [f"<b>{escape(heading)}</b>", *lines, ""] if lines else []


def _everyone(t: Translator) -> str:
    anyone = [c for c in COMMANDS if c.role is Role.ANYONE and not c.systems]
    lines = [f"<b>{escape(t('Commands for everyone'))}</b>", ""]
    lines += _section(t, t("Anywhere"), [c for c in anyone if c.where is Where.ANY])
    lines += _section(t, t("In the game's group"), [c for c in anyone if c.where is Where.GROUP])
    lines += _section(t, t("In our private chat"), [c for c in anyone if c.where is Where.PRIVATE])
    lines.append("/help dice — " + escape(t("the dice notation")))
    lines.append("")
    lines.append(
        escape(
            t(
                "To play: press «Create character» on the /game card, fill in the sheet in "
                "our private chat and wait for the GM's approval."
            )
        )
    )
    return "\n".join(lines).strip()


def _gm(t: Translator) -> str:
    general = [c for c in COMMANDS if not c.systems]
    lines = [f"<b>{escape(t('Commands for the GM'))}</b>", ""]
    lines += _section(t, t("The GM and co-GMs"), [c for c in general if c.role is Role.GM])
    lines += _section(t, t("The GM only"), [c for c in general if c.role is Role.MAIN_GM])
    lines += _section(
        t, t("Chat admins, the GM and co-GMs"), [c for c in general if c.role is Role.ADMIN]
    )
    lines.append(escape(t("A system's own commands are on the «Systems» page.")))
    return "\n".join(lines).strip()


def _systems(t: Translator) -> str:
    lines = [f"<b>{escape(t('Commands of each system'))}</b>", ""]
    for spec in SYSTEMS.values():
        own = [c for c in COMMANDS if spec.id in c.systems]
        if own:
            lines += _section(t, t(spec.title), own)
    lines.append(escape(t("These are the GM's; every system also has /fight.")))
    return "\n".join(lines).strip()


PAGES: tuple[HelpPage, ...] = (
    HelpPage("all", N_("Everyone"), _everyone),
    HelpPage("gm", N_("GM"), _gm),
    HelpPage("systems", N_("Systems"), _systems),
)
FIRST = PAGES[0].key


def page(key: str) -> HelpPage:
    return next((p for p in PAGES if p.key == key), PAGES[0])


def help_text(t: Translator, key: str = FIRST) -> str:
    return page(key).render(t)


def help_keyboard(t: Translator, key: str = FIRST) -> InlineKeyboardMarkup:
    """A button per page (the open one marked), then back to the start screen."""
    current = page(key).key
    buttons = [
        InlineKeyboardButton(
            text=("• " if p.key == current else "") + t(p.title),
            callback_data=HelpCD(page=p.key).pack(),
        )
        for p in PAGES
    ]
    rows = [buttons[i : i + 3] for i in range(0, len(buttons), 3)]
    back = InlineKeyboardButton(
        text="⬅️ " + t("Back"), callback_data=ScreenCD(screen=Screen.HOME).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[*rows, [back]])
