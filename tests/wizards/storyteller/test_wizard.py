"""The storyteller creation wizard end to end: the emulator, the running bot, real Postgres."""

from __future__ import annotations

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GROUP, approve_latest
from tests.wizards.storyteller.driver import Player, count_characters, press_as

# Small budgets set by the GM keep the script short; every budget is spent exactly.
OPTIONS = {
    "attribute_dots": [3, 2, 1], "ability_dots": [4, 3, 2], "arts_dots": 1, "realms_dots": 2,
    "backgrounds_dots": 2, "freebies": 9,
}  # fmt: skip
ATTRIBUTES = {"dexterity": 2, "charisma": 1, "appearance": 1, "wits": 1}
TALENTS = {"alertness": 3, "brawl": 1}
SKILLS = {"crafts": 2, "stealth": 1}
KNOWLEDGES = {"enigmas": 2}
ARTS = {"wayfare": 1}
REALMS = {"fae": 2}
BACKGROUNDS = {"chimera": 1, "dreamers": 1}


TOTAL = 15


def step(n: int, title: str) -> str:
    return f"Step {n} of {TOTAL}: {title}"


async def _to_attributes(p: Player, name: str = "Lily <Thorn>") -> None:
    await p.start()
    await p.say(name)
    assert step(2, "Concept") in p.text
    await p.say("runaway poet")
    assert step(3, "Kith") in p.text
    assert "Now:" not in p.text  # nothing chosen yet: no empty «Now:» line
    await p.press("nx")  # skip kith
    assert step(4, "Seeming") in p.text
    await p.press("nx")  # skip seeming
    assert step(5, "Priorities") in p.text
    await p.press("nx")
    assert step(6, "Attributes") in p.text


async def _skip_to_preview(p: Player) -> None:
    while step(15, "Preview") not in p.text:
        await p.press("nx")


async def test_valid_character_approved_and_shown_by_sheet(running: Harness) -> None:
    p = Player(running)
    await p.start(OPTIONS)
    await p.say("Lily <Thorn>")
    await p.say("runaway poet")
    await p.press("skith:pooka")
    assert step(4, "Seeming") in p.text
    await p.press("sseeming:wilder")
    # priorities: Social moves above Physical; Skills above Talents; then back
    await p.press("pa:social")
    await p.press("pb:skills")
    assert p.labels()[:2] == ["1. Social — 3", "2. Physical — 2"]
    assert p.labels()[3:5] == ["1. Skills — 4", "2. Talents — 3"]
    await p.press("pa:physical")
    await p.press("pb:talents")
    assert p.labels()[0] == "1. Physical — 3" and p.labels()[3] == "1. Talents — 4"
    await p.press("nx")
    await p.plus(**ATTRIBUTES)
    assert "Physical: 2/3" in p.text and "Social: 2/2" in p.text and "Mental: 1/1" in p.text
    await p.press("d:dexterity:p")  # the third physical dot
    assert p.label_of("d:dexterity:n") == "Dexterity ●●●●○"
    for title, dots in (("Talents", TALENTS), ("Skills", SKILLS), ("Knowledges", KNOWLEDGES)):
        await p.press("nx")
        assert title in p.text
        await p.plus(**dots)
    assert "Knowledges: 2/2" in p.text
    for dots in (ARTS, REALMS, BACKGROUNDS):
        await p.press("nx")
        await p.plus(**dots)
    await p.press("nx")
    assert step(13, "Glamour, Banality, Willpower") in p.text
    await p.plus(glamour=3, banality=2, willpower=3)  # starting ratings 4 / 3 / 4
    await p.press("nx")
    assert step(14, "Freebies") in p.text and "0 of 9 spent, 9 left" in p.text

    # freebies, with the running cost after every press
    await p.press("fattrs")
    await p.plus(wits=1)
    assert "Mental: 1/1 +1 ⇒ 5 fp" in p.text and "5 of 9 spent, 4 left" in p.text
    await p.press("nx")
    assert step(14, "Freebies") in p.text
    await p.press("ftalents")
    await p.plus(alertness=1)  # 4 dots: fine with freebies
    assert p.label_of("d:alertness:n") == "Alertness ●●●●○"
    assert "Talents: 4/4 +1 ⇒ 2 fp" in p.text and "7 of 9 spent, 2 left" in p.text
    await p.press("nx")
    await p.press("fctr")
    await p.plus(willpower=1)
    assert "9 of 9 spent, 0 left" in p.text
    await p.press("d:glamour:p")
    assert p.last_answer.show_alert and "Not enough freebies: this dot costs 3" in p.text
    await p.press("d:banality:p")
    assert "Banality cannot be bought" in p.last_answer.text
    await p.press("nx")
    assert "Willpower: +1 ⇒ 2 fp" in p.text and "Glamour:" not in p.text
    await p.press("nx")

    assert step(15, "Preview") in p.text and "Pooka · Wilder" in p.text
    assert p.message is not None and "Lily &lt;Thorn&gt;" in p.message.html  # escaped
    assert "Alertness 4" in p.text and "⛔" not in p.text and "⚠️" not in p.text
    await p.press("ok")
    await running.emu.wait_bot_message(ALICE, contains="Lily")
    assert await count_characters(running) == 1

    card = await running.emu.wait_bot_message(GROUP, contains="Lily")
    # the approval card in the group is in the group's language (Russian by default)
    russian = ("Пука · Бродяга", "Ловкость 4", "Бдительность 4", "Гламур 4/4", "Воля 5/5")
    for ru in (*russian, "Банальность 3"):
        assert ru in card.text, ru
    await approve_latest(running)
    before = running.emu.last_bot_message(GROUP)
    running.emu.send_text(ALICE, GROUP, "/sheet")
    sheet = await running.emu.wait_bot_message(GROUP, after=before.message_id if before else 0)
    assert "Lily <Thorn>" in sheet.text and "runaway poet" in sheet.text
    # Alice reads English; the sheet in the group is in the group's language (its GM's Russian)
    for ru in ("Ловкость 4", "Бдительность 4", "Фэйри 2", "Гламур 4/4", "Воля 5/5"):
        assert ru in sheet.text, ru


async def test_ability_at_four_from_creation_dots_is_refused(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await p.press("nx")
    assert step(7, "Talents") in p.text
    await p.plus(alertness=3)
    await p.press("d:alertness:p")  # a fourth dot from the talents' creation dots
    reason = "No ability above 3 from the creation dots"
    assert p.last_answer.show_alert and reason in p.last_answer.text
    assert reason in p.text and step(7, "Talents") in p.text  # the wizard stays on the step
    assert p.label_of("d:alertness:n") == "Alertness ●●●○○"
    assert "Talents: 3/13" in p.text and "0 of 15 spent" in p.text
    assert await count_characters(running) == 0
    # the step still works after the refusal; the refusal is shown once
    await p.press("d:athletics:p")
    assert reason not in p.text and "Talents: 4/13" in p.text


async def test_category_budget_is_refused_on_creation_steps(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await p.plus(perception=2, wits=1)  # mental is tertiary: 3 dots
    await p.press("d:intelligence:p")
    assert "Mental: all 3 creation dots are spent" in p.last_answer.text
    assert p.label_of("d:intelligence:n") == "Intelligence ●○○○○"
    await p.press("d:strength:m")
    assert "Strength cannot go below 1" in p.last_answer.text


async def test_restart_resumes_at_the_same_step_with_the_data(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await p.plus(strength=2)
    await p.press("nx")
    await p.plus(brawl=2)
    await running.restart()
    await p.press("d:brawl:p")  # the old message's button, pressed after the restart
    assert step(7, "Talents") in p.text
    assert p.label_of("d:brawl:n") == "Brawl ●●●○○" and "Talents: 3/13" in p.text
    await p.press("bk")
    assert p.label_of("d:strength:n") == "Strength ●●●○○" and "Physical: 2/7" in p.text


async def test_another_user_pressing_changes_nothing(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await p.plus(strength=1)
    assert p.message is not None
    shown = p.message.text
    edits = p.message.edits
    for suffix in ("d:strength:p", "nx", "bk"):
        query = press_as(running, BOB, ALICE, p.message.message_id, p.data_of(suffix))
        answer = await running.emu.wait_callback_answer(query)
        # aiogram-dialog knows no wizard of Bob's here; the bot's error handler answers
        assert answer.show_alert and answer.user_id == BOB
    await running.emu.wait_idle()
    latest = running.emu.last_bot_message(ALICE)
    assert latest is not None and latest.message_id == p.message.message_id
    assert latest.text == shown and latest.edits == edits
    assert running.emu.bot_messages(BOB) == []
    await p.press("d:strength:p")  # Alice's wizard is untouched and still hers
    assert p.label_of("d:strength:n") == "Strength ●●●○○"


async def test_preview_jumps_back_to_any_step_and_cancel_ends(running: Harness) -> None:
    p = Player(running)
    await _to_attributes(p)
    await _skip_to_preview(p)
    assert "Lily" in p.text and "runaway poet" in p.text
    assert "⚠️" in p.text  # unspent dots are warnings, listed in the preview
    titles = [
        ("jname", step(1, "Name")),
        ("jconcept", step(2, "Concept")),
        ("jkith", step(3, "Kith")),
        ("jseeming", step(4, "Seeming")),
        ("jprio", step(5, "Priorities")),
        ("jattrs", step(6, "Attributes")),
        ("jtalents", step(7, "Talents")),
        ("jskills", step(8, "Skills")),
        ("jknowl", step(9, "Knowledges")),
        ("jarts", step(10, "Arts")),
        ("jrealms", step(11, "Realms")),
        ("jbgs", step(12, "Backgrounds")),
        ("jctr", step(13, "Glamour, Banality, Willpower")),
        ("jfreebies", step(14, "Freebies")),
    ]
    for jump, title in titles:
        await p.press(jump)
        assert title in p.text
        await p.press("nx")  # Next returns straight to the preview
        assert step(15, "Preview") in p.text
    await p.press("jarts")
    await p.plus(autumn=1)
    await p.press("nx")
    assert "Autumn 1" in p.text
    await p.press("jname")
    await p.say("/")  # a wrong answer repeats the question with the reason
    assert "That does not fit" in p.text and step(1, "Name") in p.text
    await p.say("Rose")
    assert step(15, "Preview") in p.text and "Rose" in p.text
    await p.press("jkith")
    await p.say("Nunnehi")  # a kith outside the list, in the player's own words
    assert step(15, "Preview") in p.text and "Nunnehi" in p.text

    sent = running.emu.send_text(ALICE, ALICE, "/cancel")
    done = await running.emu.wait_bot_message(ALICE, after=sent.message_id)
    assert "Cancelled" in done.text
    assert await count_characters(running) == 0


async def test_raising_the_first_group_says_it_is_first_and_leaves_the_screen(
    running: Harness,
) -> None:
    """A tap on the group already first moved nothing, redrew nothing («message is not
    modified» in the log) and answered nothing; now it says so and leaves the message be."""
    p = Player(running)
    await p.start(OPTIONS)
    await p.say("Lily")
    await p.say("poet")
    await p.press("nx")
    await p.press("nx")
    assert step(5, "Priorities") in p.text
    assert p.message is not None
    edits = p.message.edits
    await p.press("pa:physical")  # physical is first already
    assert p.last_answer.text == "Already first." and not p.last_answer.show_alert
    assert p.message.edits == edits and p.labels()[0] == "1. Physical — 3"
