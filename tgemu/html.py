"""Telegram's HTML parse mode, re-implemented after tdlib's ``parse_html``.

Produces the plain text and the MessageEntity dicts (offsets and lengths in UTF-16 code
units, as the Bot API reports them) or raises :class:`HtmlParseError` carrying Telegram's
wording.  One deliberate difference: a bare ``&`` that does not start a known entity is an
error here (real Telegram keeps it as text) so tests catch missing escaping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

SIMPLE_TAGS: dict[str, str] = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
SUPPORTED_TAGS = frozenset({*SIMPLE_TAGS, "a", "span"})
NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_ENTITY_RE = re.compile(r"&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,4}));")
_USER_LINK_RE = re.compile(r"^tg://user\?id=(\d+)$")
_SPECIAL_RE = re.compile(r"[<&]")
_TAG_NAME_RE = re.compile(r"[^\s>]*")


class HtmlParseError(ValueError):
    """Raised with the text Telegram puts after "can't parse entities: "."""


def utf16_len(text: str) -> int:
    if text.isascii():  # most chunks: no encoding needed
        return len(text)
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _OpenTag:
    name: str
    attrs: dict[str, str]
    start: int  # UTF-16 offset in the output
    language: str | None = None


class _Parser:
    def __init__(self, source: str) -> None:
        self.src = source
        self.pos = 0
        self.out: list[str] = []
        self.out_len = 0  # UTF-16 units written so far
        self.stack: list[_OpenTag] = []
        self.entities: list[dict[str, Any]] = []

    def byte_offset(self, index: int) -> int:
        return len(self.src[:index].encode("utf-8"))

    def emit(self, chunk: str) -> None:
        self.out.append(chunk)
        self.out_len += utf16_len(chunk)

    def run(self) -> tuple[str, list[dict[str, Any]]]:
        src = self.src
        while self.pos < len(src):
            char = src[self.pos]
            if char == "&":
                self.read_entity()
            elif char == "<":
                if src.startswith("</", self.pos):
                    self.read_end_tag()
                else:
                    self.read_start_tag()
            else:
                # copy a run of ordinary characters in one go
                nxt = _next_special(src, self.pos)
                self.emit(src[self.pos : nxt])
                self.pos = nxt
        if self.stack:
            name = self.stack[-1].name
            raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{name}"')
        return "".join(self.out), self.entities

    def read_entity(self) -> None:
        match = _ENTITY_RE.match(self.src, self.pos)
        decoded = _decode_entity(match) if match else None
        if match is None or decoded is None:
            raise HtmlParseError(
                f'Unescaped "&" at byte offset {self.byte_offset(self.pos)}; '
                "use &amp; for a literal ampersand"
            )
        self.emit(decoded)
        self.pos = match.end()

    def read_start_tag(self) -> None:
        begin = self.pos
        src = self.src
        i = _TAG_NAME_RE.match(src, begin + 1).end()  # type: ignore[union-attr]  # matches ""
        if i >= len(src):
            raise HtmlParseError(f"Unclosed start tag at byte offset {self.byte_offset(begin)}")
        name = src[begin + 1 : i].lower()
        if name not in SUPPORTED_TAGS:
            raise HtmlParseError(
                f'Unsupported start tag "{name}" at byte offset {self.byte_offset(begin)}'
            )
        attrs, self.pos = self.read_attributes(name, i, begin)
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise HtmlParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self.byte_offset(begin)}'
            )
        self.stack.append(_OpenTag(name=name, attrs=attrs, start=self.out_len))

    def read_attributes(self, tag: str, i: int, begin: int) -> tuple[dict[str, str], int]:
        src = self.src
        attrs: dict[str, str] = {}
        if src.startswith(">", i):  # a bare tag, the usual case
            return attrs, i + 1
        while True:
            while i < len(src) and src[i].isspace():
                i += 1
            if i >= len(src):
                raise HtmlParseError(
                    f"Unclosed start tag at byte offset {self.byte_offset(begin)}"
                )
            if src[i] == ">":
                return attrs, i + 1
            name_start = i
            while i < len(src) and not src[i].isspace() and src[i] not in "=>":
                i += 1
            attr = src[name_start:i].lower()
            if i < len(src) and src[i] == "=":
                value, i = self.read_attribute_value(tag, i + 1, begin)
            else:
                value = ""  # valueless attribute, e.g. <blockquote expandable>
            attrs[attr] = value

    def read_attribute_value(self, tag: str, i: int, begin: int) -> tuple[str, int]:
        src = self.src
        if i >= len(src):
            raise HtmlParseError(f"Unclosed start tag at byte offset {self.byte_offset(begin)}")
        quote = src[i]
        if quote in "\"'":
            end = src.find(quote, i + 1)
            if end == -1:
                raise HtmlParseError(
                    f'Unclosed start tag "{tag}" at byte offset {self.byte_offset(begin)}'
                )
            return unescape(src[i + 1 : end]), end + 1
        end = i
        while end < len(src) and not src[end].isspace() and src[end] != ">":
            end += 1
        return unescape(src[i:end]), end

    def read_end_tag(self) -> None:
        begin = self.pos
        close = self.src.find(">", begin)
        if close == -1:
            raise HtmlParseError(f"Unclosed end tag at byte offset {self.byte_offset(begin)}")
        name = self.src[begin + 2 : close].strip().lower()
        if not self.stack:
            raise HtmlParseError(f"Unexpected end tag at byte offset {self.byte_offset(begin)}")
        open_tag = self.stack[-1]
        if name != open_tag.name:
            raise HtmlParseError(
                f"Unmatched end tag at byte offset {self.byte_offset(begin)}, "
                f'expected "</{open_tag.name}>", found "</{name}>"'
            )
        self.stack.pop()
        self.pos = close + 1
        self.close_entity(open_tag)

    def close_entity(self, tag: _OpenTag) -> None:
        length = self.out_len - tag.start
        parent = self.stack[-1] if self.stack else None
        language = _code_language(tag)
        if tag.name == "code" and parent and parent.name == "pre" and language:
            # <pre><code class="language-x"> is one pre entity with a language
            parent.language = language
            return
        entity = _make_entity(tag, length)
        if entity is not None and length > 0:
            self.entities.append(entity)


def _code_language(tag: _OpenTag) -> str | None:
    cls = tag.attrs.get("class", "")
    return cls[len("language-") :] if cls.startswith("language-") else None


def _make_entity(tag: _OpenTag, length: int) -> dict[str, Any] | None:
    entity: dict[str, Any] = {"offset": tag.start, "length": length}
    if tag.name == "a":
        href = tag.attrs.get("href", "")
        if not href:
            return None
        user = _USER_LINK_RE.match(href)
        if user:
            uid = int(user.group(1))
            entity.update(type="text_mention", user={"id": uid, "is_bot": False, "first_name": ""})
        else:
            entity.update(type="text_link", url=href)
        return entity
    if tag.name == "span":
        entity["type"] = "spoiler"
        return entity
    if tag.name == "blockquote" and "expandable" in tag.attrs:
        entity["type"] = "expandable_blockquote"
        return entity
    entity["type"] = SIMPLE_TAGS[tag.name]
    if tag.name == "pre" and tag.language:
        entity["language"] = tag.language
    return entity


def _next_special(src: str, pos: int) -> int:
    found = _SPECIAL_RE.search(src, pos)
    return found.start() if found else len(src)


def _decode_entity(match: re.Match[str]) -> str | None:
    dec, hexa, name = match.groups()
    if name is not None:
        return NAMED_ENTITIES.get(name)
    code = int(dec) if dec is not None else int(hexa, 16)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code)


def unescape(text: str) -> str:
    """Decode the entities Telegram knows, leaving anything else untouched."""

    def repl(match: re.Match[str]) -> str:
        decoded = _decode_entity(match)
        return decoded if decoded is not None else match.group(0)

    return _ENTITY_RE.sub(repl, text)


def parse_html(source: str) -> tuple[str, list[dict[str, Any]]]:
    """Return ``(plain_text, entities)``; entities sorted like Telegram sorts them."""
    text, entities = _Parser(source).run()
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return text, entities


def strip_text(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Trim surrounding whitespace like Telegram does, clipping entities to what remains."""
    if not text or not (text[0].isspace() or text[-1].isspace()):
        result, shift = text, 0  # nothing to trim (the usual case): no re-measuring
    else:
        stripped_left = text.lstrip()
        shift = utf16_len(text) - utf16_len(stripped_left)
        result = stripped_left.rstrip()
    total = utf16_len(result)
    clipped: list[dict[str, Any]] = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        end = min(entity["offset"] + entity["length"] - shift, total)
        if end > start:
            clipped.append({**entity, "offset": start, "length": end - start})
    return result, clipped
