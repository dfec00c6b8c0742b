"""Lexer of the dice notation: text → tokens, on demand.

Letters are read as one run and split greedily into known words (``kh``, ``ro``, ``d``…), so
``4d6kh3`` and ``4дф`` lex as expected while an unknown word (``attack``) becomes one ``WORD``
token. The parser decides whether a ``WORD`` starts the label or is an error, so the lexer never
raises on unknown text; it only refuses numbers longer than ``MAX_DIGITS`` (checked before any
``int()`` call, so a 5,000-digit number costs nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from engine.dice.errors import DiceLimitError
from engine.text import msg

MAX_DIGITS: Final = 7
MAX_NUMBER: Final = 10**MAX_DIGITS - 1


class Tok(StrEnum):
    NUM = "num"
    D = "d"  # d, к, д
    F = "f"  # f, ф (Fate dice after d; "fail on" modifier elsewhere)
    PERCENT = "%"
    PLUS = "+"
    MINUS = "-"
    STAR = "*"
    SLASH = "/"
    LPAREN = "("
    RPAREN = ")"
    BANG = "!"
    GE = ">="
    GT = ">"
    LE = "<="
    LT = "<"
    EQ = "="
    KH = "kh"
    KL = "kl"
    DH = "dh"
    DL = "dl"
    R = "r"
    RO = "ro"
    E = "e"  # explode once (Dice Maiden)
    IE = "ie"  # explode without end (Dice Maiden's spelling of "!")
    T = "t"  # count successes >= N (Dice Maiden)
    RA = "ra"  # reroll and add (d20)
    B = "b"  # count botches (Dice Maiden)
    MI = "mi"  # floor of each die (d20)
    MA = "ma"  # ceiling of each die (d20)
    LBRACKET = "["  # a tag: "[fire]", read to the closing bracket
    SEMI = ";"
    CHANCE = "chance"
    WORD = "word"  # anything unknown: a label or an error
    EOF = "eof"


@dataclass(frozen=True, slots=True)
class Token:
    kind: Tok
    text: str
    pos: int  # 0-based offset in the source text
    space_before: bool
    value: int = 0


# Known letter words, longest first within the greedy split. Cyrillic к/д are d, ф is F.
_WORDS: Final[dict[str, Tok]] = {
    "chance": Tok.CHANCE,
    "шанс": Tok.CHANCE,
    "kh": Tok.KH,
    "kl": Tok.KL,
    "dh": Tok.DH,
    "dl": Tok.DL,
    "ro": Tok.RO,
    "rr": Tok.R,  # d20: reroll until none match
    "ir": Tok.R,  # Dice Maiden: reroll indefinitely
    "ie": Tok.IE,
    "ra": Tok.RA,
    "b": Tok.B,
    "mi": Tok.MI,
    "ma": Tok.MA,
    "e": Tok.E,
    "t": Tok.T,
    "k": Tok.KH,  # bare k = keep highest
    "r": Tok.R,
    "d": Tok.D,
    "к": Tok.D,
    "д": Tok.D,
    "f": Tok.F,
    "ф": Tok.F,
}
_MAX_WORD: Final = max(len(w) for w in _WORDS)

_SYMBOLS: Final[dict[str, Tok]] = {
    ">=": Tok.GE,
    "<=": Tok.LE,
    "+": Tok.PLUS,
    "-": Tok.MINUS,
    "−": Tok.MINUS,  # U+2212, as phones sometimes type it
    "*": Tok.STAR,
    "×": Tok.STAR,
    "/": Tok.SLASH,
    "(": Tok.LPAREN,
    ")": Tok.RPAREN,
    "!": Tok.BANG,
    ">": Tok.GT,
    "<": Tok.LT,
    "=": Tok.EQ,
    "%": Tok.PERCENT,
    "==": Tok.EQ,
    "[": Tok.LBRACKET,
    ";": Tok.SEMI,
}


def _split_word(word: str) -> list[tuple[str, Tok]] | None:
    """Greedy longest-match split of a lowercase letter run into known words, or None."""
    parts: list[tuple[str, Tok]] = []
    i = 0
    while i < len(word):
        for size in range(min(_MAX_WORD, len(word) - i), 0, -1):
            kind = _WORDS.get(word[i : i + size])
            if kind is not None:
                parts.append((word[i : i + size], kind))
                i += size
                break
        else:
            return None
    return parts


class Lexer:
    """Produces tokens one at a time; ``tokens()`` lexes everything (used by tests)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._pos = 0
        self._pending: list[Token] = []

    def next(self) -> Token:
        if self._pending:
            return self._pending.pop(0)
        text = self.text
        start = self._pos
        while self._pos < len(text) and text[self._pos].isspace():
            self._pos += 1
        space = self._pos > start
        pos = self._pos
        if pos >= len(text):
            return Token(Tok.EOF, "", pos, space)
        ch = text[pos]
        if "0" <= ch <= "9":
            return self._number(pos, space)
        if ch.isalpha():
            return self._word(pos, space)
        two = text[pos : pos + 2]
        if two in _SYMBOLS:
            self._pos += 2
            return Token(_SYMBOLS[two], two, pos, space)
        if ch in _SYMBOLS:
            self._pos += 1
            return Token(_SYMBOLS[ch], ch, pos, space)
        self._pos += 1
        return Token(Tok.WORD, ch, pos, space)

    def _number(self, pos: int, space: bool) -> Token:
        text = self.text
        end = pos
        while end < len(text) and "0" <= text[end] <= "9":
            end += 1
        self._pos = end
        if end - pos > MAX_DIGITS:
            raise DiceLimitError(msg("dice.limit.number_too_big", pos=pos + 1, limit=MAX_NUMBER))
        return Token(Tok.NUM, text[pos:end], pos, space, int(text[pos:end]))

    def _word(self, pos: int, space: bool) -> Token:
        text = self.text
        end = pos
        while end < len(text) and text[end].isalpha():
            end += 1
        self._pos = end
        raw = text[pos:end]
        parts = _split_word(raw.lower()) if end - pos <= 32 else None
        if parts is None:
            return Token(Tok.WORD, raw, pos, space)
        tokens: list[Token] = []
        offset = pos
        for i, (part, kind) in enumerate(parts):
            tokens.append(Token(kind, text[offset : offset + len(part)], offset, space and i == 0))
            offset += len(part)
        self._pending.extend(tokens[1:])
        return tokens[0]

    def skip_to(self, pos: int) -> None:
        """Continue lexing at ``pos`` (the parser read a tag's raw text up to there)."""
        self._pending.clear()
        self._pos = pos

    def tokens(self) -> list[Token]:
        out = [self.next()]
        while out[-1].kind is not Tok.EOF:
            out.append(self.next())
        return out
