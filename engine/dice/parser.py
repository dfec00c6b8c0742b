"""Recursive-descent parser of the dice notation (no parser generator).

Grammar (spaces are allowed between terms and operators, not inside a dice term)::

    input    := expr [label]
    expr     := term (("+" | "-") term)*
    term     := unary (("*" | "/") unary)*
    unary    := ("-" | "+") unary | primary
    primary  := NUM [dice] | dice | "(" expr ")" | "chance" | "шанс"
    dice     := ("d" | "к" | "д") (NUM | "%" | "F" | "ф") modifier*
    modifier := ("kh" | "k" | "kl" | "dh" | "dl") NUM
              | ("r" | "ro") [cmp] NUM          reroll (r: while it matches, ro: once)
              | "!" [cmp NUM]                   explode (default: on the highest face)
              | (">=" | ">") NUM                count successes
              | "f" [cmp] NUM                   such dice cancel one success (f1)
    label    := any text after a space that cannot continue the expression

A bare ``!`` after a success target is the World of Darkness "10-again" (``5d10>=7!``); an
explicit ``!>=9`` right after the dice is an explosion threshold. Limits are enforced while
reading, before any work: input length, nesting depth, dice count, die size, number size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from engine.dice.ast import (
    BinKind,
    BinOp,
    Chance,
    Cmp,
    Condition,
    Dice,
    Explode,
    Expression,
    Keep,
    KeepKind,
    Neg,
    Node,
    Num,
    Reroll,
    Success,
)
from engine.dice.errors import DiceLimitError, expected_error, invalid_error
from engine.dice.errors import DiceSyntaxError as DiceSyntaxError
from engine.dice.lexer import Lexer, Tok, Token
from engine.text import msg

MAX_LENGTH: Final = 200
# The canonical form can be longer than what was typed ("d%" → "1d100", "шанс" → "chance"), so
# notation replayed from the roll log (``stored=True``) may be up to this long.
MAX_STORED_LENGTH: Final = 600
MAX_DEPTH: Final = 20
MAX_DICE: Final = 1000
MAX_SIDES: Final = 1000

_CMP_TOKENS: Final = {
    Tok.GE: Cmp.GE,
    Tok.GT: Cmp.GT,
    Tok.EQ: Cmp.EQ,
    Tok.LE: Cmp.LE,
    Tok.LT: Cmp.LT,
}
_KEEP_TOKENS: Final = {
    Tok.KH: KeepKind.KEEP_HIGH,
    Tok.KL: KeepKind.KEEP_LOW,
    Tok.DH: KeepKind.DROP_HIGH,
    Tok.DL: KeepKind.DROP_LOW,
}
_BIN_TOKENS: Final = {
    Tok.PLUS: BinKind.ADD,
    Tok.MINUS: BinKind.SUB,
    Tok.STAR: BinKind.MUL,
    Tok.SLASH: BinKind.DIV,
}


@lru_cache(maxsize=2048)
def parse(text: str, *, stored: bool = False) -> Expression:
    """Parse a roll request such as ``"2d6+1 атака"``; raises ``DiceError`` on bad input.

    ``stored=True`` is for notation read back from the roll log (the canonical form of an
    accepted request): it may exceed ``MAX_LENGTH`` up to ``MAX_STORED_LENGTH``; every other
    limit is the same.
    """
    return _Parser(text, MAX_STORED_LENGTH if stored else MAX_LENGTH).parse()


def _matches_all(cond: Condition, sides: int) -> bool:
    """Whether every face 1..sides meets the condition (an endless explode/reroll)."""
    n = cond.number
    if cond.cmp is Cmp.EQ:
        return sides == 1 and n == 1
    if cond.cmp is Cmp.GE:
        return n <= 1
    if cond.cmp is Cmp.GT:
        return n < 1
    if cond.cmp is Cmp.LE:
        return n >= sides
    return n > sides


def _always_explodes(dice: Dice) -> bool:
    """With ``r`` (reroll until it stops matching) every face that stays also explodes."""
    assert dice.reroll is not None and dice.explode is not None
    reroll, explode = dice.reroll.condition, dice.explode.condition
    return all(explode.test(f) for f in range(1, dice.sides + 1) if not reroll.test(f))


class _Parser:
    def __init__(self, text: str, max_length: int) -> None:
        stripped = text.strip()
        if len(stripped) > max_length:
            raise DiceLimitError(
                msg("dice.limit.too_long", length=len(stripped), limit=max_length)
            )
        if not stripped:
            raise DiceSyntaxError(msg("dice.syntax.empty"))
        self.text = stripped
        self.lexer = Lexer(stripped)
        self.tok: Token = self.lexer.next()
        self.depth = 0
        self.dice_total = 0

    # -- helpers -----------------------------------------------------------------------------
    def advance(self) -> Token:
        tok = self.tok
        self.tok = self.lexer.next()
        return tok

    def fail(self, expected: str) -> DiceSyntaxError:
        return expected_error(self.tok.pos, expected, self.tok.text)

    def glued(self, kind: Tok) -> bool:
        """The current token is ``kind`` and directly follows the previous one."""
        return self.tok.kind is kind and not self.tok.space_before

    def number(self, *, spaced: bool = False) -> int:
        if self.tok.kind is not Tok.NUM or (self.tok.space_before and not spaced):
            raise self.fail("number")
        return self.advance().value

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DiceLimitError(msg("dice.limit.too_deep", pos=self.tok.pos + 1, limit=MAX_DEPTH))

    # -- grammar -----------------------------------------------------------------------------
    def parse(self) -> Expression:
        root = self.expr()
        tok = self.tok
        if tok.kind is Tok.EOF:
            label = ""
        elif tok.space_before:
            label = self.text[tok.pos :].strip()
        else:
            raise self.fail("operator")
        return Expression(root=root, label=label, dice_count=self.dice_total)

    def expr(self) -> Node:
        left = self.term()
        while self.tok.kind in (Tok.PLUS, Tok.MINUS):
            op = self.advance()
            left = BinOp(_BIN_TOKENS[op.kind], left, self.term(), op.pos)
        return left

    def term(self) -> Node:
        left = self.unary()
        while self.tok.kind in (Tok.STAR, Tok.SLASH):
            op = self.advance()
            left = BinOp(_BIN_TOKENS[op.kind], left, self.unary(), op.pos)
        return left

    def unary(self) -> Node:
        if self.tok.kind in (Tok.MINUS, Tok.PLUS):
            negative = self.advance().kind is Tok.MINUS
            self.enter()
            operand = self.unary()
            self.depth -= 1
            return Neg(operand) if negative else operand
        return self.primary()

    def primary(self) -> Node:
        tok = self.tok
        if tok.kind is Tok.NUM:
            self.advance()
            if self.glued(Tok.D):
                return self.dice(tok.value, tok.pos)
            return Num(tok.value)
        if tok.kind is Tok.D:
            return self.dice(1, tok.pos)
        if tok.kind is Tok.LPAREN:
            self.advance()
            self.enter()
            inner = self.expr()
            if self.tok.kind is not Tok.RPAREN:
                raise self.fail("rparen")
            self.advance()
            self.depth -= 1
            return inner
        if tok.kind is Tok.CHANCE:
            self.advance()
            self.count_dice(1, tok.pos)
            return Chance(tok.pos)
        raise self.fail("operand")

    def count_dice(self, count: int, pos: int) -> None:
        if count < 1:
            raise invalid_error(pos, "нужен хотя бы один кубик", "at least one die is needed")
        self.dice_total += count
        if self.dice_total > MAX_DICE:
            raise DiceLimitError(
                msg("dice.limit.too_many_dice", count=self.dice_total, limit=MAX_DICE)
            )

    def dice(self, count: int, pos: int) -> Dice:
        self.advance()  # the d
        self.count_dice(count, pos)
        tok = self.tok
        fate = False
        if tok.kind is Tok.NUM and not tok.space_before:
            sides = self.advance().value
        elif self.glued(Tok.PERCENT):
            self.advance()
            sides = 100
        elif self.glued(Tok.F):
            self.advance()
            sides, fate = 6, True
        else:
            raise self.fail("sides")
        if sides > MAX_SIDES:
            raise DiceLimitError(
                msg("dice.limit.die_too_big", pos=tok.pos + 1, sides=sides, limit=MAX_SIDES)
            )
        if sides < 1:
            raise invalid_error(tok.pos, "у кубика нет граней", "a die needs at least one side")
        return self.modifiers(Dice(count=count, sides=sides, fate=fate, pos=pos))

    def condition(self, *, default: Cmp | None) -> Condition:
        """``[cmp] NUM`` glued to the previous token; without a default the cmp is required."""
        cmp = _CMP_TOKENS.get(self.tok.kind) if not self.tok.space_before else None
        if cmp is not None:
            self.advance()
        elif default is None:
            raise self.fail("number")
        else:
            cmp = default
        return Condition(cmp, self.number())

    def modifiers(self, dice: Dice) -> Dice:
        keep, reroll, explode, success, cancel = None, None, None, None, None
        while True:
            tok = self.tok
            kind = tok.kind
            if kind in _KEEP_TOKENS and not tok.space_before:
                self.advance()
                self.once(keep, tok)
                keep = Keep(_KEEP_TOKENS[kind], self.number())
            elif kind in (Tok.R, Tok.RO) and not tok.space_before:
                self.advance()
                self.once(reroll, tok)
                reroll = Reroll(self.condition(default=Cmp.EQ), once=kind is Tok.RO)
            elif kind is Tok.BANG and not tok.space_before:
                self.advance()
                self.once(explode, tok)
                has_cmp = self.tok.kind in _CMP_TOKENS and not self.tok.space_before
                cond = self.condition(default=None) if has_cmp else Condition(Cmp.EQ, dice.sides)
                explode = Explode(cond)
            elif kind in (Tok.GE, Tok.GT):
                self.advance()
                self.once(success, tok)
                success = Condition(_CMP_TOKENS[kind], self.number(spaced=True))
            elif kind is Tok.F and not tok.space_before:
                self.advance()
                self.once(cancel, tok)
                cancel = self.condition(default=Cmp.EQ)
            else:
                break
            self.check_fate(dice, tok)
        if cancel is not None and success is None:
            raise invalid_error(
                dice.pos, "f1 имеет смысл только с подсчётом успехов (>=N)",
                "f1 only makes sense when counting successes (>=N)",
            )  # fmt: skip
        result = Dice(
            count=dice.count,
            sides=dice.sides,
            fate=dice.fate,
            reroll=reroll,
            explode=explode,
            keep=keep,
            success=Success(success, cancel) if success is not None else None,
            pos=dice.pos,
        )
        self.validate(result)
        return result

    def once(self, previous: object, tok: Token) -> None:
        if previous is not None:
            raise invalid_error(
                tok.pos, f"модификатор «{tok.text}» указан дважды",
                f"the modifier “{tok.text}” is given twice",
            )  # fmt: skip

    def check_fate(self, dice: Dice, tok: Token) -> None:
        if dice.fate and tok.kind not in _KEEP_TOKENS:
            raise invalid_error(
                tok.pos, "у кубиков Фейт можно только оставлять/отбрасывать (kh, kl, dh, dl)",
                "Fate dice only allow keep/drop (kh, kl, dh, dl)",
            )  # fmt: skip

    def validate(self, dice: Dice) -> None:
        pos = dice.pos
        if dice.keep is not None:
            n, kind = dice.keep.count, dice.keep.kind
            keeping = kind in (KeepKind.KEEP_HIGH, KeepKind.KEEP_LOW)
            top = dice.count if keeping else dice.count - 1
            if not 1 <= n <= top:
                raise invalid_error(
                    pos, f"в {kind.value} можно указать от 1 до {top}",
                    f"{kind.value} takes a number from 1 to {top}",
                )  # fmt: skip
        if dice.explode is not None and _matches_all(dice.explode.condition, dice.sides):
            raise invalid_error(
                pos, "кубик взрывался бы бесконечно: условие верно для всех граней",
                "the die would explode forever: every face meets the condition",
            )  # fmt: skip
        if dice.reroll is not None and not dice.reroll.once:
            if _matches_all(dice.reroll.condition, dice.sides):
                raise invalid_error(
                    pos, "переброс никогда бы не закончился: условие верно для всех граней",
                    "the reroll would never end: every face meets the condition",
                )  # fmt: skip
            if dice.explode is not None and _always_explodes(dice):
                raise invalid_error(
                    pos, "кубик взрывался бы бесконечно: после переброса взрывается любая грань",
                    "the die would explode forever: every face left after the reroll explodes",
                )  # fmt: skip
