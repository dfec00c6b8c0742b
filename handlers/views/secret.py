"""GM secret rolls: the GM's private result, the group's sealed placeholder, the revealed card."""

from __future__ import annotations

from html import escape

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.services.secret import SecretRoll
from engine.dice.render import render_html
from handlers.views.dice import short_hash

TELEGRAM_LIMIT = 4096


class SecretRevealCD(CallbackData, prefix="srv"):
    """The GM reveals a sealed secret roll: ``message_id`` is the group's /sroll command, whose
    roll is in ``gm_id``'s private log (the chat comes from the pressed message; all checked on
    the server). Kept here, next to its only keyboard; ``handlers/callbacks.py`` may adopt it."""

    gm_id: int
    message_id: int


def usage(t: Translator) -> str:
    return t(
        "Write the dice after the command, e.g. "
        "<code>/sroll 1d20+5: does the guard notice?</code> — the result comes to you "
        "privately, the group sees a sealed roll you can reveal."
    )


def not_gm(t: Translator) -> str:
    return t("Only the GM can roll in secret. Everyone else rolls openly with /r.")


def groups_only(t: Translator) -> str:
    return t(
        "Secret rolls are made in the game's group: send /sroll there and the result comes here."
    )


def no_private_chat(t: Translator, gm: str) -> str:
    return t(
        "{gm}, I cannot write to you privately yet, so nothing was rolled. Open a private chat "
        "with me, press Start, then send /sroll here again.",
        gm=escape(gm),
    )


def unreachable(t: Translator, gm: str) -> str:
    return t(
        "{gm}, I could not send you the result privately (did you block me?), so nothing is "
        "sealed here. Open our private chat, press Start, then send /sroll again.",
        gm=escape(gm),
    )


def open_private_keyboard(t: Translator, bot_username: str | None) -> InlineKeyboardMarkup | None:
    if not bot_username:
        return None
    button = InlineKeyboardButton(
        text="💬 " + t("Open the private chat"), url=f"https://t.me/{bot_username}"
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def _footer(t: Translator, rolled: SecretRoll) -> str:
    code = f"<code>{short_hash(rolled.entry.hash)}</code>"
    text = t("GM's private roll log #{n} · {hash}", n=rolled.entry.seq, hash=code)
    return f"<i>{text}</i>"


def _with_body(t: Translator, locale: str, rolled: SecretRoll, head: list[str]) -> str:
    """The head lines, who rolled, the dice and the log footer, within Telegram's limit."""
    footer = _footer(t, rolled)
    head = [*head, f"<b>{escape(rolled.entry.actor)}</b>"]
    room = TELEGRAM_LIMIT - sum(len(line) + 1 for line in head) - len(footer) - 1
    body = render_html(rolled.result, locale, limit=room)
    return "\n".join([*head, body, footer])


def gm_result(t: Translator, locale: str, rolled: SecretRoll, chat_title: str | None) -> str:
    """What the GM alone sees, in the private chat."""
    head = t(
        "🤫 Secret roll in «{chat}» — sealed #{n}",
        chat=escape(chat_title or "—"),
        n=rolled.entry.seq,
    )
    lines = [head]
    if rolled.note:
        lines.append(f"<i>{escape(rolled.note)}</i>")
    text = _with_body(t, locale, rolled, lines)
    hint = t("The group sees only the seal; press «🔓 Reveal» under it to show this result.")
    return text if len(text) + len(hint) + 1 > TELEGRAM_LIMIT else f"{text}\n{hint}"


def sealed(t: Translator, rolled: SecretRoll) -> str:
    """The group's placeholder: no faces, no total — the note, the number and the hash."""
    if rolled.note:
        head = t(
            "🎲 The GM rolled secretly ({note}) — sealed #{n}",
            note=escape(rolled.note),
            n=rolled.entry.seq,
        )
    else:
        head = t("🎲 The GM rolled secretly — sealed #{n}", n=rolled.entry.seq)
    return f"{head}\n{_footer(t, rolled)}"


def reveal_keyboard(t: Translator, *, gm_id: int, message_id: int) -> InlineKeyboardMarkup:
    data = SecretRevealCD(gm_id=gm_id, message_id=message_id).pack()
    button = InlineKeyboardButton(text="🔓 " + t("Reveal"), callback_data=data)
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def has_reveal_button(markup: InlineKeyboardMarkup | None, data: SecretRevealCD) -> bool:
    """The pressed message still carries this very button: it is that roll's sealed
    placeholder (not revealed yet, and not some other message a forged press points at)."""
    packed = data.pack()
    rows = markup.inline_keyboard if markup else []
    return any(button.callback_data == packed for row in rows for button in row)


def revealed(t: Translator, locale: str, rolled: SecretRoll) -> str:
    """The placeholder edited into the full result (a pure function of the log entry, so a
    repeated reveal renders exactly the same text)."""
    if rolled.note:
        head = t(
            "🔓 The GM's secret roll ({note}) — sealed #{n}, revealed",
            note=escape(rolled.note),
            n=rolled.entry.seq,
        )
    else:
        head = t("🔓 The GM's secret roll — sealed #{n}, revealed", n=rolled.entry.seq)
    card = _with_body(t, locale, rolled, [head])
    hint = t(
        "To check it once the secrets are out, the GM sends /reveal and /log export in the "
        "private chat with me and shares the file (/verify checks it): entry #{n} carries this "
        "hash.",
        n=rolled.entry.seq,
    )
    return card if len(card) + len(hint) + 1 > TELEGRAM_LIMIT else f"{card}\n{hint}"


def is_revealed_card(text: str | None, rolled: SecretRoll) -> bool:
    """A press on the already revealed card (the button is gone, the hash is still there)."""
    return bool(text) and short_hash(rolled.entry.hash) in (text or "")
