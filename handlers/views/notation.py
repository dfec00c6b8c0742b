"""/help dice: the dice notation, with an example of every idiom and where peers disagree."""

from __future__ import annotations

from bot.i18n import Translator

HELP_TOPICS = ("dice", "кубики", "notation")


def notation_help(t: Translator) -> str:
    rows = [
        ("2d6+1 " + t("attack"), t("dice, arithmetic and a label after a space")),
        ("4d6k3 · 4d6 k3 · 4d6kh3 · 2d20kl1 · 4d6d1 · 4d6dl1", t("keep / drop")),
        ("6d10t7 · 6d10>=7 · 7d10>=6f1", t("successes at or above N; f1: ones cancel one each")),
        ("3d6e · 3d6e5 · 3d6ie · 3d6! · 3d6!>=5", t("explode: e once, ie and ! without end")),
        (
            "4d6r1 · 4d6ir2 · 4d6ro1 · 2d6ra6",
            t("reroll: r until the die passes, ir2 two or less, ro once, ra adds a die"),
        ),
        ("4d10t7b1", t("botches: counted and shown, not subtracted")),
        ("8d6mi2 · 10d6ma5", t("each die counts at least / at most N")),
        ("+d20 · -d20 · +d% · -d%", t("advantage / disadvantage")),
        ("1d20+5 > 10", t("compare the total: passed or not")),
        ("13 % 2", t("remainder of a division")),
        ("3d6[fire] + 1d4[piercing]", t("tags: each term shown and summed")),
        ("(Attack) 1d20+5 · 2d6 ! " + t("fire"), t("a label before, a comment after")),
        ("6 4d6k3", t("a roll set: 2 to 20 rolls")),
        ("1d20+5; 2d6+3", t("up to 4 rolls in one message")),
        ("s 4d6k3 · 4d6k3 s", t("totals only")),
        ("ul 3d100 · 2d6; ul 3d100", t("accepted; dice are never sorted here anyway")),
        ("4cod · 4cod9 · 4wod8", t("d10 pools: 4d10>=8!, 9-again, 4d10>=8f1")),
    ]
    lines = [f"<b>{t('Dice notation')}</b>"]
    lines += [f"<code>{example}</code> — {text}" for example, text in rows]
    lines += [
        "",
        f"<b>{t('Where other dice bots differ')}</b>",
        t("• d% is 1 to 100 (as Dice Maiden and Roll20; in d20 it is a tens die)."),
        t(
            "• r rerolls until the die passes (as Roll20); Dice Maiden's r2 is our ro&lt;=2, "
            "d20's rr1 is our r1."
        ),
        t("• Multiplication before addition (as d20; Dice Maiden goes left to right)."),
        t(
            "• e explodes once (as Dice Maiden); d20's endless e is our ie or !; "
            "a number after e or ie is a threshold: e5 is 5 or more."
        ),
        t(
            "• k3 keeps the 3 highest (as Dice Maiden); in d20 it keeps threes. "
            "Write f&lt;=2 or f=2: a bare f2 is refused."
        ),
        t(
            "• 4d10&gt;=8 right after dice counts the dice of 8 or more (as Roll20); to compare "
            "the total write (4d10)&gt;=8 or 4d10+0&gt;=8 (as d20). / drops the fraction."
        ),
        t("Anything not understood is refused with a hint, never rolled as something else."),
    ]
    return "\n".join(lines)
