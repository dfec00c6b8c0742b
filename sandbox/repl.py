"""The interactive sandbox: type as simulated users to the real bot through the emulator."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sandbox.render import Terminal, is_tty
from tgemu import BotAPIEmulator, ChatMessage, EmuEvent, EmuUser

logger = logging.getLogger(__name__)

HELP = """\
Sandbox commands:
  text or /command ...   send it as the current user to the current chat
  /as NAME [ru|en]       act as another user (created if unknown)
  /chat group | /chat dm switch between the group and your private chat with the bot
  /press N  or  #N       press button N of the newest bot message with buttons here
  /press #M N            press button N of message #M (any recent message here)
  /reply #M text         send text (or a /command) as a reply to message #M here
  /recent [N]            the last N messages of this chat (10 if not given), numbered
  /app                   the character sheet's Mini App: a signed URL for your browser
  /import PATH           upload a file (e.g. one the bot sent: its path is shown) with the
                         caption /import, as Telegram would
  /sandbox               this help
  /quit                  leave (Ctrl-D works too)"""

DEFAULT_USERS = (
    (1001, "Alice", "alice", "ru"),
    (1002, "Bob", "bob", "en"),
    (1000, "GM", "gm", "ru"),
)
GM_ID = 1000
FIRST_NEW_USER_ID = 1003


@dataclass
class _Session:
    emu: BotAPIEmulator
    term: Terminal
    group_id: int
    user_id: int = DEFAULT_USERS[0][0]
    mode: str = "dm"  # "dm" or "group"
    idle_timeout: float = 10.0
    quiet: float = 0.3
    bot_idle: Callable[[], Awaitable[object]] | None = None
    # (user id, first name, language) → the Mini App's URL signed for that user; None: none
    app_url: Callable[[int, str, str], str] | None = None
    # chat id → the newest message id shown on screen; private chats of other users fill up
    # while you are someone else, and are caught up on when you switch (``_catch_up``)
    seen: dict[int, int] = field(default_factory=dict)

    @property
    def user(self) -> EmuUser:
        return self.emu.user(self.user_id)

    @property
    def chat_id(self) -> int:
        return self.group_id if self.mode == "group" else self.user_id

    def chat_title(self) -> str:
        if self.mode == "dm":
            return f"the private chat with {self.emu.bot_first_name}"
        return f"the group {self.chat_label(self.group_id)}"

    def chat_label(self, chat_id: int) -> str:
        chat = self.emu.chat(chat_id)
        if chat.type == "private":
            return f"DM {chat.user.first_name if chat.user else chat_id}"
        return chat.title or str(chat_id)

    def can_see_id(self, chat_id: int | str) -> bool:
        try:
            return self.can_see(int(chat_id))
        except (ValueError, KeyError):
            return True

    def can_see(self, chat_id: int) -> bool:
        if chat_id == self.user_id:
            return True
        chat = self.emu.chat(chat_id)
        return chat.type != "private" and self.user_id in chat.members

    def mark_seen(self, chat_id: int, message_id: int) -> None:
        self.seen[chat_id] = max(self.seen.get(chat_id, 0), message_id)

    # events from the emulator --------------------------------------------------------
    def on_event(self, event: EmuEvent) -> None:
        msg = event.message
        if event.kind == "api_error" and event.call is not None:
            # the developer should see why nothing appeared (e.g. an HTML parse error)
            if event.call.chat_id is None or self.can_see_id(event.call.chat_id):
                self.term.api_error(event.call)
        elif event.kind == "callback_answer" and event.answer is not None:
            if event.answer.user_id == self.user_id:
                self.term.callback_answer(event.answer)
        elif msg is not None and self.can_see(msg.chat_id):
            label = self.chat_label(msg.chat_id)
            self.mark_seen(msg.chat_id, msg.message_id)
            if event.kind == "delete":
                self.term.deleted(label, msg)
            else:
                self.term.message(label, msg, edited=event.kind == "edit")


def _ensure_world(emu: BotAPIEmulator, group_id: int) -> None:
    for user_id, first_name, username, lang in DEFAULT_USERS:
        if user_id not in emu.users:
            emu.add_user(user_id, first_name, username=username, language_code=lang)
    try:
        emu.chat(group_id)
    except KeyError:
        members = [uid for uid, *_ in DEFAULT_USERS]
        emu.add_group(group_id, "Sandbox table", members=members, creator=GM_ID)


async def _settle(session: _Session) -> None:
    """Let the bot react before the next line is read, so scripted input stays in order."""
    try:
        await session.emu.wait_idle(timeout=session.idle_timeout, quiet=session.quiet)
        if session.bot_idle is not None:
            # The bot may still be working on the update without talking to Telegram.
            await session.bot_idle()
            await session.emu.wait_idle(timeout=session.idle_timeout, quiet=session.quiet)
    except TimeoutError:
        logger.warning("the bot did not go idle within %.1fs", session.idle_timeout)


def _find_user(emu: BotAPIEmulator, name: str) -> EmuUser | None:
    wanted = name.lower().lstrip("@")
    for user in emu.users.values():
        if wanted in ((user.username or "").lower(), user.first_name.lower(), str(user.id)):
            return user
    return None


def _switch_user(session: _Session, args: list[str]) -> None:
    if not args or (len(args) > 1 and args[1] not in ("ru", "en")):
        session.term.info("usage: /as NAME [ru|en]")
        return
    emu = session.emu
    lang = args[1] if len(args) > 1 else None
    user = _find_user(emu, args[0])
    if user is None:
        new_id = max([FIRST_NEW_USER_ID - 1, *emu.users]) + 1
        name = args[0].lstrip("@")
        user = emu.add_user(
            new_id, name.capitalize(), username=name.lower(), language_code=lang or "ru"
        )
        emu.add_member(session.group_id, new_id)
    elif lang:
        emu.set_language(user.id, lang)
    session.user_id = user.id
    handle = f"@{user.username}, " if user.username else ""
    session.term.info(f"you are {user.first_name} ({handle}id {user.id}, {user.language_code})")
    _catch_up(session)


def _switch_chat(session: _Session, args: list[str]) -> None:
    if args not in (["group"], ["dm"]):
        session.term.info("usage: /chat group | /chat dm")
        return
    session.mode = args[0]
    session.term.info(f"chat: {session.chat_title()}")
    _catch_up(session)


CATCH_UP_MAX = 10


def _unseen(session: _Session, chat_id: int) -> list[ChatMessage]:
    mark = session.seen.get(chat_id, 0)
    return [m for m in session.emu.chat_messages(chat_id) if m.message_id > mark and not m.deleted]


def _catch_up(session: _Session) -> None:
    """Show what arrived in the current chat while you could not see it (a private chat of
    another user, written to before ``/as``); point at your private chat if it has news."""
    chat_id = session.chat_id
    unseen = _unseen(session, chat_id)
    if unseen:
        shown = unseen[-CATCH_UP_MAX:]
        skipped = len(unseen) - len(shown)
        more = f" ({skipped} older: /recent {len(unseen)})" if skipped else ""
        session.term.info(f"while you were away{more}:")
        for msg in shown:
            _show(session, msg)
    if session.mode == "group":
        waiting = len(_unseen(session, session.user_id)) if _has_chat(session) else 0
        if waiting:
            session.term.info(f"{waiting} unread in your private chat: /chat dm")


def _has_chat(session: _Session) -> bool:
    try:
        session.emu.chat(session.user_id)
    except KeyError:
        return False
    return True


def _show(session: _Session, msg: ChatMessage) -> None:
    """One message of the current chat as the screen shows it (the bot's with its buttons)."""
    label = session.chat_label(msg.chat_id)
    if msg.from_id == session.emu.bot_id:
        session.term.message(label, msg)
    else:
        user = session.emu.users.get(msg.from_id)
        name = user.first_name if user else str(msg.from_id)
        session.term.user_message(label, name, msg)
    session.mark_seen(msg.chat_id, msg.message_id)


def _recent(session: _Session, arg: str) -> None:
    if arg and (not arg.isdigit() or int(arg) < 1):
        session.term.info("usage: /recent [N]")
        return
    count = int(arg) if arg else 10
    live = [m for m in session.emu.chat_messages(session.chat_id) if not m.deleted]
    if not live:
        session.term.info("no messages in this chat yet")
        return
    for msg in live[-count:]:
        _show(session, msg)


def _message_number(word: str) -> int | None:
    number = word.removeprefix("#")
    return int(number) if number.isdigit() else None


async def _reply(session: _Session, args: str) -> None:
    target, _, text = args.strip().partition(" ")
    number = _message_number(target)
    if number is None or not text.strip():
        session.term.info("usage: /reply #M text (M as numbered on screen; /recent lists them)")
        return
    msg = next(
        (m for m in session.emu.chat_messages(session.chat_id) if m.message_id == number), None
    )
    if msg is None or msg.deleted:
        session.term.info(f"no message #{number} in this chat; /recent lists them")
        return
    sent = session.emu.send_text(session.user_id, session.chat_id, text.strip(), reply_to=number)
    session.mark_seen(session.chat_id, sent.message_id)
    await _settle(session)


def _keyboard_message(session: _Session) -> ChatMessage | None:
    for msg in reversed(session.emu.bot_messages(session.chat_id)):
        if not msg.deleted and msg.has_keyboard:
            return msg
    return None


async def _press(session: _Session, arg: str, on: str = "") -> None:
    """Button ``arg`` of the newest message with buttons, or of message ``on`` (``#M``)."""
    if not arg.isdigit() or int(arg) < 1:
        session.term.info("usage: /press N, or /press #M N (as numbered on screen)")
        return
    if on:
        number = _message_number(on)
        msg = next(
            (m for m in session.emu.chat_messages(session.chat_id) if m.message_id == number),
            None,
        )
        if number is None or msg is None or msg.deleted or msg.from_id != session.emu.bot_id:
            session.term.info(f"no message {on} of the bot in this chat; /recent lists them")
            return
        if not msg.has_keyboard:
            session.term.info(f"message #{msg.message_id} has no buttons")
            return
    else:
        msg = _keyboard_message(session)
    if msg is None:
        session.term.info("no message with buttons in this chat")
        return
    number = int(arg)
    buttons = msg.buttons()
    if number > len(buttons):
        session.term.info(f"no button {number}; the message has {len(buttons)}")
        return
    button = buttons[number - 1]
    if "web_app" in button:
        _open_app(session)
        return
    if "callback_data" not in button:
        await _open_url(session, number, str(button.get("url", "")))
        return
    session.emu.press_button(session.user_id, session.chat_id, msg.message_id, number - 1)
    await _settle(session)


def _open_app(session: _Session) -> None:
    """The Mini App as Telegram would open it for the current user: a URL to open in a
    browser, signed for them (valid 24 hours)."""
    if session.app_url is None:
        session.term.info("the Mini App is not served in this sandbox")
        return
    user = session.user
    url = session.app_url(user.id, user.first_name, user.language_code or "ru")
    session.term.info(f"the sheet of {session.user.first_name} (open in a browser): {url}")


async def _upload(session: _Session, name: str) -> None:
    """``/import PATH``: the file uploaded to the current chat with the caption /import."""
    path = Path(name).expanduser()
    files_dir = session.term.files_dir
    if not path.is_file() and files_dir is not None and (files_dir / name).is_file():
        path = files_dir / name
    if not path.is_file():
        session.term.info(f"no file {name}")
        return
    sent = session.emu.send_document(
        session.user_id, session.chat_id, path.name, path.read_bytes(), caption="/import"
    )
    session.mark_seen(session.chat_id, sent.message_id)
    session.term.info(f"sent {path.name} ({path.stat().st_size} bytes) with the caption /import")
    await _settle(session)


async def _open_url(session: _Session, number: int, url: str) -> None:
    """A deep link to this bot opens the private chat and sends ``/start <payload>``, as the
    Telegram app does; any other link is only shown."""
    prefix = f"https://t.me/{session.emu.bot_username}?start="
    if not url.startswith(prefix):
        session.term.info(f"button {number} opens {url or '(not a callback)'}")
        return
    session.mode = "dm"
    session.term.info(f"button {number} opens the private chat with the bot")
    session.emu.send_text(session.user_id, session.chat_id, "/start " + url[len(prefix) :])
    await _settle(session)


async def _handle_line(session: _Session, line: str) -> bool:
    """Act on one input line; False means quit."""
    words = line.split()
    head = words[0].lower()
    if head in ("/quit", "/exit"):
        return False
    if head == "/sandbox":
        session.term.line(HELP)
    elif head == "/as":
        _switch_user(session, words[1:])
    elif head == "/chat":
        _switch_chat(session, [w.lower() for w in words[1:]])
    elif head == "/press" and len(words) > 2:
        await _press(session, words[2], on=words[1])
    elif head == "/press":
        await _press(session, words[1] if len(words) > 1 else "")
    elif head == "/reply":
        await _reply(session, line.partition(" ")[2])
    elif head == "/recent":
        _recent(session, words[1] if len(words) > 1 else "")
    elif head == "/app":
        _open_app(session)
    elif head == "/import" and len(words) > 1:
        await _upload(session, line.partition(" ")[2].strip())
    elif head.startswith("#") and head[1:].isdigit():
        await _press(session, head[1:])
    else:
        sent = session.emu.send_text(session.user_id, session.chat_id, line)
        session.mark_seen(session.chat_id, sent.message_id)
        await _settle(session)
    return True


async def _handle_line_safely(session: _Session, line: str) -> bool:
    try:
        return await _handle_line(session, line)
    except (LookupError, ValueError) as exc:
        # e.g. a user the tests created outside the group: say so, keep the session alive
        session.term.info(f"cannot do that: {exc}")
        return True


def _deliver(future: asyncio.Future[str], line: str) -> None:
    if not future.done():
        future.set_result(line)


async def read_line(stdin: TextIO) -> str:
    """Read one line in a daemon thread, so an abandoned read never blocks shutdown.

    (``asyncio.to_thread`` would: the loop's default executor is joined on exit.)
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def worker() -> None:
        try:
            line = stdin.readline()
        except (OSError, ValueError):  # closed stream: treat as end of input
            line = ""
        loop.call_soon_threadsafe(_deliver, future, line)

    threading.Thread(target=worker, name="sandbox-stdin", daemon=True).start()
    return await future


async def run_sandbox(
    emu: BotAPIEmulator,
    *,
    stdin: TextIO,
    stdout: TextIO,
    group_chat_id: int = -100500,
    echo_input: bool = False,
    idle_timeout: float = 10.0,
    bot_idle: Callable[[], Awaitable[object]] | None = None,
    app_url: Callable[[int, str, str], str] | None = None,
    files_dir: Path | None = None,
) -> None:
    """Chat with the bot from a terminal (or a pipe) until ``/quit`` or end of input.

    ``bot_idle`` (optional) waits until the bot has finished the updates it holds; with it,
    piped scripts see every reaction before their next line.
    """
    _ensure_world(emu, group_chat_id)
    term = Terminal(stdout, emu.bot_first_name, files_dir)
    session = _Session(
        emu, term, group_chat_id, idle_timeout=idle_timeout, bot_idle=bot_idle, app_url=app_url
    )
    unsubscribe = emu.subscribe(session.on_event)
    interactive = is_tty(stdin) and is_tty(stdout)
    term.info(
        f"sandbox: you are {session.user.first_name} in {session.chat_title()}; /sandbox for help"
    )
    try:
        while True:
            if interactive:
                term.prompt(f"{session.user.first_name}@{session.chat_label(session.chat_id)}> ")
            raw = await read_line(stdin)
            if not raw:
                break  # EOF
            line = raw.strip()
            if not line:
                continue
            if echo_input:
                term.user_line(session.chat_label(session.chat_id), session.user.first_name, line)
            if not await _handle_line_safely(session, line):
                break
    finally:
        unsubscribe()
        term.info("bye")
