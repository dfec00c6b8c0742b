"""Recursive-descent parser of the dice notation (no parser generator).

Grammar (spaces are allowed between terms and operators, not inside a dice term)::

    input    := ["(" label ")"] total [label | "!" comment]
    total    := expr [cmp expr]                 a comparison of totals gives 1 or 0
    expr     := term (("+" | "-") term)*
    term     := unary (("*" | "/" | "%") unary)*
    unary    := ("-" | "+") unary | tagged
    tagged   := primary ["[" tag "]"]
    primary  := NUM [dice] | dice | "(" expr ")" | "chance" | "шанс"
    dice     := ("d" | "к" | "д") (NUM | "%" | "F" | "ф") modifier*
    modifier := ("kh" | "k" | "kl" | "dh" | "dl" | "d") NUM   keep/drop (bare d: drop lowest)
              | ("r" | "rr" | "ir" | "ro") [cmp] NUM  reroll (ro: once, else while it matches)
              | "!" [cmp NUM] | "ie" [[cmp] NUM]   explode (default: on the highest face)
              | "e" [[cmp] NUM]                 explode once (the extra dice do not explode)
              | (">=" | ">") NUM | "t" NUM      count successes
              | "f" [cmp] NUM                   such dice cancel one success (f1)
              | ("mi" | "ma") NUM               floor / ceiling of each die
    label    := text after a space that holds no dice term and does not start with an
                operator, a comparison, a modifier, "[" or ";" (see ``labels``)

A modifier may also follow a space when it is a word of its own (Dice Maiden's ``4d6 k3``).
Leading ``+d20``/``-d20`` (``+d%``/``-d%``) are advantage/disadvantage and ``4cod``, ``4cod9``,
``4wod8`` the d10-pool aliases of Dice Maiden (``aliases``). What is not understood is refused,
with a hint when it is a known idiom of another bot (``hints``).

A bare ``!`` after a success target is the World of Darkness "10-again" (``5d10>=7!``); an
explicit ``!>=9`` right after the dice is an explosion threshold. Limits are enforced while
reading, before any work: input length, nesting depth, dice count, die size, number size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from engine.dice.aliases import rewrite
from engine.dice.ast import (
    BinKind,
    BinOp,
    Chance,
    Cmp,
    Compare,
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
    Tagged,
)
from engine.dice.errors import (
    DiceLimitError,
    expected_error,
    hint_error,
    invalid_error,
    too_long_error,
)
from engine.dice.errors import DiceSyntaxError as DiceSyntaxError
from engine.dice.hints import VERSUS_ALONE, label_problem, word_hint
from engine.dice.lexer import Lexer, Tok, Token
from engine.text import msg

MAX_LENGTH: Final = 500
# The canonical form can be longer than what was typed ("d%" → "1d100", "шанс" → "chance"), so
# notation replayed from the roll log (``stored=True``) may be up to this long.
MAX_STORED_LENGTH: Final = 1600
MAX_TAG: Final = 40
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
    Tok.PERCENT: BinKind.MOD,
}
# Modifier tokens that may also stand after a space, as a word of their own ("4d6 k3").
_SPACED_MODIFIERS: Final = frozenset(
    {
        *_KEEP_TOKENS,
        Tok.R,
        Tok.RO,
        Tok.RA,
        Tok.E,
        Tok.IE,
        Tok.T,
        Tok.MI,
        Tok.MA,
        Tok.F,
        Tok.D,
        Tok.B,
    }
)


@lru_cache(maxsize=2048)
def parse(text: str, *, stored: bool = False) -> Expression:
    """Parse a roll request such as ``"2d6+1 атака"``; raises ``DiceError`` on bad input.

    ``stored=True`` is for notation read back from the roll log (the canonical form of an
    accepted request): it may exceed ``MAX_LENGTH`` up to ``MAX_STORED_LENGTH``; every other
    limit is the same.
    """
    return _Parser(text, MAX_STORED_LENGTH if stored else MAX_LENGTH, stored=stored).parse()


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
    def __init__(self, text: str, max_length: int, *, stored: bool = False) -> None:
        stripped = text.strip()
        if len(stripped) > max_length:
            raise too_long_error(len(stripped), max_length)
        if not stripped:
            raise DiceSyntaxError(msg("dice.syntax.empty"))
        self.stored = stored
        self.head_label = ""
        if not stored:
            self.head_label, stripped = rewrite(stripped)
        self.text = stripped
        self.lexer = Lexer(stripped)
        self.tok: Token = self.lexer.next()
        self.last: Token | None = None  # the token before ``tok``
        self.depth = 0
        self.dice_total = 0

    # -- helpers -----------------------------------------------------------------------------
    def advance(self) -> Token:
        tok = self.tok
        self.last = tok
        self.tok = self.lexer.next()
        return tok

    def fail(self, expected: str) -> DiceSyntaxError:
        last = self.last
        after = (last.pos, last.text) if last is not None else None
        return expected_error(self.tok.pos, expected, self.tok.text, after=after)

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
        cmp = _CMP_TOKENS.get(self.tok.kind)
        if cmp is not None:
            self.advance()
            root = Compare(root, cmp, self.expr())
        label = self.label()
        if self.head_label:
            label = f"{self.head_label} {label}".strip()
        return Expression(root=root, label=label, dice_count=self.dice_total)

    def label(self) -> str:
        """The trailing text, if it is a label; anything else after the expression is refused,
        naming what was not understood (never read as a label: it would roll something else)."""
        tok = self.tok
        if tok.kind is Tok.EOF:
            return ""
        rest = self.text[tok.pos :]
        if tok.kind is Tok.BANG and (len(rest) == 1 or rest[1].isspace()):
            return rest[1:].strip()  # Dice Maiden's "2d6 ! fire damage"
        if tok.kind is Tok.SEMI:
            raise hint_error(
                tok.pos, ";", "несколько бросков через «;» пишутся в /r",
                "several rolls separated by “;” go to /r",
            )  # fmt: skip
        if not tok.space_before or self.stored:
            if self.stored and tok.space_before:
                return rest.strip()
            raise self.not_understood(tok)
        versus = VERSUS_ALONE.match(rest)
        if versus is not None:  # "1d6 vs": the number was left out, not a label "vs"
            expression = self.text[: tok.pos].strip()
            raise hint_error(
                tok.pos, versus.group(1),
                f"после «{versus.group(1)}» нужно число; бросок против 4: {expression}>=4",
                f"“{versus.group(1)}” needs a number after it; a roll against 4: {expression}>=4",
            )  # fmt: skip
        problem = label_problem(rest)
        if problem is not None:
            raise hint_error(tok.pos, problem.found, problem.ru, problem.en)
        return rest.strip()

    def not_understood(self, tok: Token, expected: str = "operator") -> DiceSyntaxError:
        """An error for text that cannot continue the expression, with a hint if it is an idiom
        of another dice bot (``6d10t7`` → ``6d10>=7``)."""
        end = tok.pos
        text = self.text
        while end < len(text) and not text[end].isspace():
            end += 1
        word = text[tok.pos : end] or tok.text
        hint = word_hint(word)
        if hint is not None:
            return hint_error(tok.pos, word, hint[0], hint[1])
        return self.fail(expected)

    def expr(self) -> Node:
        left = self.term()
        while self.tok.kind in (Tok.PLUS, Tok.MINUS):
            op = self.advance()
            left = BinOp(_BIN_TOKENS[op.kind], left, self.term(), op.pos)
        return left

    def term(self) -> Node:
        left = self.unary()
        while self.tok.kind in (Tok.STAR, Tok.SLASH, Tok.PERCENT):
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
        node = self.primary()
        if self.tok.kind is Tok.LBRACKET:
            node = Tagged(node, self.tag())
        return node

    def tag(self) -> str:
        """``[text]``: read raw to the closing bracket (any characters but brackets)."""
        start = self.tok.pos
        close = self.text.find("]", start + 1)
        inner = self.text[start + 1 : close] if close >= 0 else ""
        if close < 0 or "[" in inner:
            raise invalid_error(start, "метка «[…]» не закрыта", "the tag “[…]” is not closed")
        tag = " ".join(inner.split())
        if not tag or len(tag) > MAX_TAG:
            raise invalid_error(
                start, f"в метке «[…]» нужно от 1 до {MAX_TAG} знаков",
                f"a tag “[…]” takes 1 to {MAX_TAG} characters",
            )  # fmt: skip
        self.lexer.skip_to(close + 1)
        self.advance()
        return tag

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
                raise self.not_understood(self.tok, "rparen")
            self.advance()
            self.depth -= 1
            return inner
        if tok.kind is Tok.CHANCE:
            self.advance()
            self.count_dice(1, tok.pos)
            return Chance(tok.pos)
        raise self.not_understood(tok, "operand")

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

    def is_modifier(self, tok: Token) -> bool:
        """Glued to the dice, or a word of its own after a space (``4d6 k3``, ``3d6 e``)."""
        if not tok.space_before:
            return True
        if tok.kind not in _SPACED_MODIFIERS or self.stored:
            return False
        end = tok.pos + len(tok.text)
        if tok.kind is Tok.D:  # "4d6 d1" drops the lowest; "2d6 к урону" is a label
            return tok.text in ("d", "D") and self.text[end : end + 1].isdigit()
        return end >= len(self.text) or not self.text[end].isalpha()

    def modifiers(self, dice: Dice) -> Dice:
        keep, reroll, explode, success, cancel = None, None, None, None, None
        floor, ceil, botches = None, None, None
        while True:
            tok = self.tok
            kind = tok.kind
            if (kind in _KEEP_TOKENS or kind is Tok.D) and self.is_modifier(tok):
                self.advance()
                self.once(keep, tok)
                keep = Keep(_KEEP_TOKENS.get(kind, KeepKind.DROP_LOW), self.number())
            elif kind in (Tok.R, Tok.RO, Tok.RA) and self.is_modifier(tok):
                self.advance()
                self.once(reroll, tok)
                # Dice Maiden's ir2 rerolls 2 or less; r2, rr2 (d20) and ro2 a face of 2.
                default = Cmp.LE if tok.text.lower() == "ir" else Cmp.EQ
                add = kind is Tok.RA
                cond = self.condition(default=default)
                reroll = Reroll(cond, once=kind is not Tok.R, add=add)
            elif kind is Tok.B and self.is_modifier(tok):
                self.advance()
                self.once(botches, tok)
                has_number = self.tok.kind is Tok.NUM and not self.tok.space_before
                has_cmp = self.tok.kind in _CMP_TOKENS and not self.tok.space_before
                botches = (
                    self.condition(default=Cmp.LE)
                    if has_number or has_cmp
                    else Condition(Cmp.LE, 1)
                )
            elif kind is Tok.BANG and not tok.space_before:
                self.advance()
                self.once(explode, tok)
                has_cmp = self.tok.kind in _CMP_TOKENS and not self.tok.space_before
                cond = self.condition(default=None) if has_cmp else Condition(Cmp.EQ, dice.sides)
                explode = Explode(cond)
            elif kind in (Tok.E, Tok.IE) and self.is_modifier(tok):
                self.advance()
                self.once(explode, tok)
                explode = Explode(self.optional_condition(dice.sides), once=kind is Tok.E)
            elif kind in (Tok.GE, Tok.GT):
                self.advance()
                self.once(success, tok)
                success = Condition(_CMP_TOKENS[kind], self.number(spaced=True))
            elif kind is Tok.T and self.is_modifier(tok):
                self.advance()
                self.once(success, tok)
                success = Condition(Cmp.GE, self.number())
            elif kind is Tok.F and self.is_modifier(tok):
                self.advance()
                self.once(cancel, tok)
                bare = self.tok.kind is Tok.NUM and not self.tok.space_before
                cancel = self.condition(default=Cmp.EQ)
                if bare and cancel.number != 1 and not self.stored:
                    n = cancel.number
                    raise hint_error(
                        tok.pos, f"f{n}",
                        f"неоднозначно: пишите f<={n} (≤{n}) или f={n} (ровно {n})",
                        f"ambiguous: write f<={n} (at most {n}) or f={n} (exactly {n})",
                    )  # fmt: skip
            elif kind in (Tok.MI, Tok.MA) and self.is_modifier(tok):
                self.advance()
                if kind is Tok.MI:
                    self.once(floor, tok)
                    floor = self.bound(dice, tok)
                else:
                    self.once(ceil, tok)
                    ceil = self.bound(dice, tok)
            else:
                break
            self.check_fate(dice, tok)
        if botches is not None and success is None:
            raise hint_error(
                dice.pos, "b", "провалы (b) считаются вместе с успехами: 4d10t7b1",
                "botches (b) are counted with successes: 4d10t7b1",
            )  # fmt: skip
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
            success=Success(success, cancel, botches) if success is not None else None,
            floor=floor,
            ceil=ceil,
            pos=dice.pos,
        )
        self.validate(result)
        return result

    def optional_condition(self, sides: int) -> Condition:
        """After ``e``/``ie``: ``[cmp] NUM`` glued, or nothing (the highest face). A bare
        number is a threshold, as in Dice Maiden: ``e6`` explodes on 6 or more."""
        tok = self.tok
        if tok.space_before or (tok.kind is not Tok.NUM and tok.kind not in _CMP_TOKENS):
            return Condition(Cmp.EQ, sides)
        cond = self.condition(default=Cmp.GE)
        if cond.cmp is Cmp.GE and cond.number == sides:
            return Condition(Cmp.EQ, sides)
        return cond

    def bound(self, dice: Dice, tok: Token) -> int:
        value = self.number()
        if not 1 <= value <= dice.sides:
            raise invalid_error(
                tok.pos, f"в {tok.text.lower()} можно указать от 1 до {dice.sides}",
                f"{tok.text.lower()} takes a number from 1 to {dice.sides}",
            )  # fmt: skip
        return value

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
        if dice.floor is not None and dice.ceil is not None and dice.floor > dice.ceil:
            raise invalid_error(pos, "mi больше, чем ma", "mi is above ma")
        if dice.success is not None and not self.stored:
            cond = dice.success.condition
            if not any(cond.test(face) for face in range(1, dice.sides + 1)):
                text = self.text[pos : self.tok.pos].strip()
                raise hint_error(
                    pos, text,
                    f"на d{dice.sides} не выпадает {cond.notation()}, успехов не будет никогда; "
                    f"сравнить сумму: ({dice.count}d{dice.sides}){cond.notation()}",
                    f"a d{dice.sides} never rolls {cond.notation()}, so no die would ever "
                    f"succeed; to compare the total: ({dice.count}d{dice.sides}){cond.notation()}",
                )  # fmt: skip
        if dice.keep is not None:
            n, kind = dice.keep.count, dice.keep.kind
            keeping = kind in (KeepKind.KEEP_HIGH, KeepKind.KEEP_LOW)
            top = dice.count if keeping else dice.count - 1
            if not 1 <= n <= top:
                raise invalid_error(
                    pos, f"в {kind.value} можно указать от 1 до {top}",
                    f"{kind.value} takes a number from 1 to {top}",
                )  # fmt: skip
        endless = dice.explode is not None and not dice.explode.once
        if (
            dice.explode is not None
            and endless
            and _matches_all(dice.explode.condition, dice.sides)
        ):
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
            if endless and _always_explodes(dice):
                raise invalid_error(
                    pos, "кубик взрывался бы бесконечно: после переброса взрывается любая грань",
                    "the die would explode forever: every face left after the reroll explodes",
                )  # fmt: skip
