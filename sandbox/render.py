"""Terminal output of the sandbox: the only place that writes to the user's screen."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, TextIO

from tgemu import ApiCall, CallbackAnswer, ChatMessage

logger = logging.getLogger(__name__)

_ANSI = {
    "bold": "1",
    "italic": "3",
    "underline": "4",
    "strikethrough": "9",
    "spoiler": "2",
    "code": "36",
    "pre": "36",
    "text_link": "4",
    "blockquote": "2",
    "expandable_blockquote": "2",
}
RESET = "\x1b[0m"


def is_tty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _code_point_index(text: str) -> list[int]:
    """Map each UTF-16 offset (what entities use) to an index into ``text``."""
    index: list[int] = []
    for i, char in enumerate(text):
        index.extend([i] * (2 if ord(char) > 0xFFFF else 1))
    index.append(len(text))
    return index


def styled_text(text: str, entities: list[dict[str, Any]], *, ansi: bool) -> str:
    """Entities → ANSI styling (only on a TTY); links always get their URL shown."""
    pos = _code_point_index(text)
    styles: list[set[str]] = [set() for _ in text]
    suffixes: dict[int, list[str]] = {}
    for entity in entities:
        start = pos[min(entity["offset"], len(pos) - 1)]
        end = pos[min(entity["offset"] + entity["length"], len(pos) - 1)]
        for i in range(start, end):
            styles[i].add(entity["type"])
        if entity["type"] == "text_link":
            suffixes.setdefault(end, []).append(f" <{entity.get('url', '')}>")
    out: list[str] = []
    current: set[str] = set()
    for i, char in enumerate(text):
        out.extend(suffixes.get(i, []))
        if ansi and styles[i] != current:
            codes = ";".join(sorted({_ANSI[s] for s in styles[i] if s in _ANSI}))
            out.append(RESET + (f"\x1b[{codes}m" if codes else ""))
            current = styles[i]
        out.append(char)
    if ansi and current:
        out.append(RESET)
    out.extend(suffixes.get(len(text), []))
    return "".join(out)


def keyboard_lines(reply_markup: dict[str, Any] | None) -> list[str]:
    rows = (reply_markup or {}).get("inline_keyboard") or []
    lines: list[str] = []
    number = 0
    for row in rows:
        cells = []
        for button in row:
            number += 1
            label = str(button.get("text", ""))
            if "url" in button:
                label += f" <{button['url']}>"
            cells.append(f"[{number} {label}]")
        lines.append(" ".join(cells))
    return lines


def reply_keyboard_line(reply_markup: dict[str, Any] | None) -> str:
    """A reply keyboard (typed answers, not pressable here) shown as one line."""
    rows = (reply_markup or {}).get("keyboard") or []
    labels = [b.get("text", "") if isinstance(b, dict) else str(b) for r in rows for b in r]
    return "(keyboard) " + " ".join(f"[{label}]" for label in labels) if labels else ""


class Terminal:
    """Writes line-oriented, human-readable output to the given stream."""

    def __init__(self, stream: TextIO, bot_name: str, files_dir: Path | None = None) -> None:
        self.stream = stream
        self.bot_name = bot_name
        self.ansi = is_tty(stream)
        # where the bot's files are saved (an /export), so they can be read, verified offline
        # (``python -m engine.verify PATH``) or sent back (``/import PATH``); None: not saved
        self.files_dir = files_dir

    def line(self, text: str = "") -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def info(self, text: str) -> None:
        self.line(f"* {text}")

    def prompt(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def user_line(self, chat_label: str, user_name: str, text: str) -> None:
        self.line(f"[{chat_label}] {user_name}: {text}")

    def user_message(self, chat_label: str, user_name: str, msg: ChatMessage) -> None:
        """A user's message as listed by /recent: numbered, so it can be replied to."""
        reply = f" (reply to #{msg.reply_to})" if msg.reply_to else ""
        self.line(f"[{chat_label}] {user_name} #{msg.message_id}{reply}: {msg.text}")

    def message(self, chat_label: str, msg: ChatMessage, *, edited: bool = False) -> None:
        note = " (edited)" if edited else ""
        self.line(f"[{chat_label}] {self.bot_name} #{msg.message_id}{note}:")
        if msg.document is not None:
            name, data = msg.document
            saved = "" if edited else self._save(name, data)
            self.line(f"  [file {name}, {len(data)} bytes{saved}]")
        body = styled_text(msg.text, msg.entities, ansi=self.ansi)
        for text_line in body.split("\n") if body else []:
            self.line(f"  {text_line}".rstrip())
        for row in keyboard_lines(msg.reply_markup):
            self.line(f"  {row}")
        reply_keyboard = reply_keyboard_line(msg.reply_markup)
        if reply_keyboard:
            self.line(f"  {reply_keyboard}")

    def _save(self, name: str, data: bytes) -> str:
        """The file under ``files_dir`` (a name already there gets a number); ' saved as …'."""
        if self.files_dir is None:
            return ""
        self.files_dir.mkdir(parents=True, exist_ok=True)
        safe = Path(name).name or "file"
        path = self.files_dir / safe
        stem, suffix = Path(safe).stem, Path(safe).suffix
        number = 1
        while path.exists():
            number += 1
            path = self.files_dir / f"{stem}-{number}{suffix}"
        path.write_bytes(data)
        return f", saved as {path}"

    def api_error(self, call: ApiCall) -> None:
        self.line(f"! the bot's {call.method} failed: {call.description}")

    def deleted(self, chat_label: str, msg: ChatMessage) -> None:
        self.line(f"[{chat_label}] {self.bot_name} #{msg.message_id} (deleted)")

    def callback_answer(self, answer: CallbackAnswer) -> None:
        if answer.url:
            self.line(f"  (open) {answer.url}")
        if answer.text:
            kind = "alert" if answer.show_alert else "toast"
            self.line(f"  ({kind}) {answer.text}")
