"""The per-system option buttons of a pending request card and the lines they add to it."""

from __future__ import annotations

from html import escape

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton

from bot.i18n import N_, Translator
from bot.services.request_options import Offer, matter_modifiers, matter_pool
from db.repositories.requests import RequestDTO
from engine.systems.matter.rolls import MODIFIER_DICE, Modifier


class PumpCD(CallbackData, prefix="rqp"):
    request_id: int
    dice: int


class MatterModCD(CallbackData, prefix="rqm"):
    request_id: int
    dice: int


class GearCD(CallbackData, prefix="rqw"):
    request_id: int
    weapon: int  # the sheet's gear index; -1: no weapon; -2: keep
    stat: int = -1  # the sheet's stat index; -1: keep
    boost: int = -1  # the sheet's gear index of an ability / Help / item to toggle


MODIFIER_NAMES = {
    Modifier.ADVANTAGE: N_("advantage"),
    Modifier.OVERWHELMING: N_("overwhelming advantage"),
    Modifier.COMPLICATION: N_("complication"),
    Modifier.ALL_AGAINST: N_("everything against"),
}

BUTTON_NAMES = {
    1: N_("+1 advantage"),
    3: N_("+3 overwhelming"),
    -1: N_("−1 complication"),
    -3: N_("−3 all against"),
}


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


# Telegram refuses a keyboard of more than 100 buttons: a character with a long gear list
# offers its first choices (the card's own buttons and the pump and modifier rows stay).
MAX_CHOICES = 24
MAX_STATS = 8  # one row


def option_rows(
    t: Translator, request: RequestDTO, offer: Offer
) -> list[list[InlineKeyboardButton]]:
    rows: list[list[InlineKeyboardButton]] = []
    rid = request.id
    if offer.pump_max:
        pumps = [
            InlineKeyboardButton(
                text=t("💥 Pump +{dice}", dice=n),
                callback_data=PumpCD(request_id=rid, dice=n).pack(),
            )
            for n in range(1, offer.pump_max + 1)
        ]
        rows += [pumps[i : i + 3] for i in range(0, len(pumps), 3)]
    if offer.matter:
        active = {MODIFIER_DICE[m] for m in matter_modifiers(request.options)}
        for pair in ((1, 3), (-1, -3)):
            rows.append(
                [
                    InlineKeyboardButton(
                        text=("✓ " if d in active else "") + t(BUTTON_NAMES[d]),
                        callback_data=MatterModCD(request_id=rid, dice=d).pack(),
                    )
                    for d in pair
                ]
            )
    chosen = request.options.get("weapon")
    for weapon in offer.weapons[:MAX_CHOICES]:
        mark = "• " if request.options.get("weapon_name") == weapon.name and chosen else ""
        extra = f" (+{weapon.dice})" if weapon.dice else ""
        rows.append(
            [
                InlineKeyboardButton(
                    text=f"{mark}⚔️ {weapon.name[:28]}{extra[:12]}",
                    callback_data=GearCD(request_id=rid, weapon=weapon.index).pack(),
                )
            ]
        )
    if offer.weapons and chosen:
        rows.append(
            [
                InlineKeyboardButton(
                    text="✋ " + t("No weapon"),
                    callback_data=GearCD(request_id=rid, weapon=-1).pack(),
                )
            ]
        )
    boosts = set(request.options.get("boosts", ()))
    names = set(request.options.get("boost_names", ()))
    toggles = [
        InlineKeyboardButton(
            text=("• " if item.name in names and boosts else "")
            + f"✨ {item.name[:24]} (+{item.dice[:10]})",
            callback_data=GearCD(request_id=rid, weapon=-2, boost=item.index).pack(),
        )
        for item in offer.boosts[:MAX_CHOICES]
    ]
    rows += [toggles[i : i + 2] for i in range(0, len(toggles), 2)]
    if offer.stats:
        rows.append(
            [
                InlineKeyboardButton(
                    text=("• " if request.options.get("stat") == name else "") + name[:24],
                    callback_data=GearCD(request_id=rid, weapon=-2, stat=i).pack(),
                )
                for i, name in offer.stats[:MAX_STATS]
            ]
        )
    return rows


def option_lines(
    t: Translator, request: RequestDTO, offer: Offer | None = None, *, rolled: bool = False
) -> list[str]:
    """What the options did to the roll, for the card (pending or rolled)."""
    lines: list[str] = []
    options = request.options
    if offer is not None and offer.pump_max:
        lines.append(
            t(
                "💥 Pumping «{cliche}»: +N dice for this roll, then the cliché loses N dice.",
                cliche=escape(str(options.get("cliche", ""))),
            )
        )
    if offer is not None and offer.matter and not matter_modifiers(options):
        lines.append(t("🎚 GM: add a modifier (±1, ±3) before the roll if the scene calls for it."))
    if options.get("pump"):
        text = (
            N_("💥 Pumped +{dice}: «{cliche}» lost that many dice after the roll.")
            if rolled
            else N_("💥 Pumped +{dice}: after the roll «{cliche}» loses that many dice.")
        )
        lines.append(t(text, dice=options["pump"], cliche=escape(str(options["cliche"]))))
    mods = matter_modifiers(options)
    if mods:
        named = ", ".join(t(MODIFIER_NAMES[m]) + " " + _signed(MODIFIER_DICE[m]) for m in mods)
        pool = matter_pool(request)
        lines.append(
            t(
                "🎚 GM's modifiers: {mods} → pool {pool}",
                mods=named,
                pool=pool if pool and pool > 0 else t("chance roll"),
            )
        )
    if options.get("weapon_name"):
        lines.append(
            t(
                "⚔️ {weapon} with {stat}",
                weapon=f"<b>{escape(str(options['weapon_name']))}</b>",
                stat=escape(str(options.get("stat", ""))),
            )
        )
    elif options.get("requested_stat") and options.get("stat") != options["requested_stat"]:
        lines.append(t("Stat: {stat}", stat=escape(str(options["stat"]))))
    if options.get("boost_names"):
        used = ", ".join(escape(str(name)) for name in options["boost_names"])
        lines.append(
            t("✨ Used: {items} (spent after the roll per their rules)", items=used)
            if not rolled
            else t("✨ Used and spent per their rules: {items}", items=used)
        )
    return lines
