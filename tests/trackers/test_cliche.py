"""The cliche fight tracker end to end over the emulator and Postgres: set-up on one message,
rounds rolled by each side's owner through the log, dice lost on the sheets through the
ledger, teams, refusals, restarts and the GM's undo."""

from __future__ import annotations

from typing import Any

from tests.conftest import Harness
from tests.games.helpers import ALICE, BOB, GM, GROUP, buttons, create_game, seat_table
from tests.helpers.table import WAIT, current, press_data, tracker_rolls
from tests.trackers.cliche_helpers import (
    face_off,
    find,
    has,
    hero,
    insert,
    lost,
    open_fight,
    press,
    table,
    tracker_row,
)
from tgemu import ChatMessage

MAX_ROUNDS = 40


def _rolls(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in state["log"] if e["k"] == "roll"]


async def _roll_round(h: Harness, tracker: ChatMessage, who: dict[str, int]) -> None:
    """Everyone awaited presses 🎲 (its owner; the GM for NPCs) until the round is decided
    (a tie rolls again)."""
    decided = len([e for e in (await tracker_row(h))["state"]["log"] if e["k"] == "won"])
    for _ in range(30):
        row = await tracker_row(h)
        waiting = row["state"]["fight"]["exchange"]
        done = len([e for e in row["state"]["log"] if e["k"] == "won"])
        if row["status"] != "open" or waiting is None or done > decided:
            return
        rolled = {r["fighter"] for r in waiting["rolls"]}
        pending = [d["fighter"] for d in waiting["declarations"] if d["fighter"] not in rolled]
        key = pending[0]
        answer = await press(h, who[key], tracker, "cfr", row["state"]["people"][key]["name"])
        assert not answer.show_alert, answer.text
    raise AssertionError("the round never ended")


async def _fight_to_the_end(
    h: Harness, tracker: ChatMessage, who: dict[str, int]
) -> dict[str, Any]:
    """Roll round after round (at most ``MAX_ROUNDS``) until the fight ends; its ended row."""
    for _ in range(MAX_ROUNDS):
        if (await tracker_row(h))["status"] != "open":
            break
        await _roll_round(h, tracker, who)
    row = await tracker_row(h)
    assert row["status"] == "ended"
    return row


async def test_a_scripted_fight_from_set_up_to_the_end(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Солдат", 4), ("Хакер", 2)))
    orc = await insert(h, hero("Орк", ("Драчун", 3), ("Поэт", 3)), npc=True)
    tracker = await open_fight(h)
    assert has(h, tracker, "cfs", "Alice") and has(h, tracker, "cfs", "Орк")
    sent = len(h.emu.bot_messages(GROUP))

    # A player cannot drive the set-up.
    answer = await press(h, ALICE, tracker, "cfs", "Alice")
    assert answer.show_alert
    await press(h, GM, tracker, "cfs", "Alice")  # → side 1 (Солдат, the biggest, by default)
    await press(h, GM, tracker, "cfs", "Орк")  # → side 1
    await press(h, GM, tracker, "cfs", "Орк")  # → side 2
    # The orc fights with Поэт, inappropriate (−0): if it wins, Alice loses 3.
    await press(h, GM, tracker, "cff", "Драчун")
    await press(h, GM, tracker, "cfc", "Поэт")  # named as well
    await press(h, GM, tracker, "cfc", "Драчун")  # and Драчун no longer
    await press(h, GM, tracker, "cfa")
    await press(h, GM, tracker, "cff", "⬅️")
    shown = current(h, tracker).text
    assert "Alice (Солдат ✅)" in shown and "Орк (Поэт ⚠️" in shown
    await press(h, GM, tracker, "cfg")

    row = await tracker_row(h)
    assert row["state"]["phase"] == "fight"
    # One fighter on each side: round 1 opens by itself, Alice (side 1) attacks.
    text = current(h, tracker).text
    assert "Солдат 4/4" in text and "Поэт 3/3" in text
    # Bob presses Alice's die: refused, nothing moves.
    answer = await press(h, BOB, tracker, "cfr", "Alice")
    assert answer.show_alert
    assert (await tracker_row(h))["version"] == row["version"]
    # Alice pumps one die into her first roll: 5d6, then Солдат loses 1 whatever happens.
    await press(h, ALICE, tracker, "cfp")
    assert "Alice · 5d6" in str([b["text"] for b in buttons(current(h, tracker))])

    who = {f"c{alice}": ALICE, f"c{orc}": GM}
    row = await _fight_to_the_end(h, tracker, who)

    # Replay the rules over the logged rolls: ties cost nothing, Alice's win costs the orc 1,
    # the orc's win (inappropriate over appropriate) costs Alice 3; the pump costs 1 once.
    rolls = _rolls(row["state"])
    # Every roll is in the verifiable log under trk:<tracker>:<version>:<fighter>, with the
    # cliché's dice (Alice's first roll pumped: 5d6).
    logged = await tracker_rolls(h)
    assert [faces for _, _, faces in logged] == [r["faces"] for r in rolls]
    assert all(rid.startswith(f"trk:{row['id']}:") for rid, _, _ in logged)
    opening = next(expr for rid, expr, _ in logged if rid.endswith(f":c{alice}"))
    assert opening == "5d6"
    alice_lost, orc_lost, i = 1, 0, 0
    while i + 1 < len(rolls):
        first, second = rolls[i], rolls[i + 1]
        sums = {first["who"]: first["sum"], second["who"]: second["sum"]}
        i += 2
        if sums["Alice"] > sums["Орк"]:
            orc_lost += 1
        elif sums["Орк"] > sums["Alice"]:
            alice_lost += 3
    alice_lost, orc_lost = min(alice_lost, 4), min(orc_lost, 3)
    assert alice_lost == 4 or orc_lost == 3
    assert (await lost(h, alice))["Солдат"] == alice_lost
    assert (await lost(h, orc))["Поэт"] == orc_lost
    assert (await lost(h, orc))["Драчун"] == 0 and (await lost(h, alice))["Хакер"] == 0
    final = current(h, tracker)
    winner = "2" if alice_lost == 4 else "1"
    assert f"Сторона {winner}" in final.text and "🏁" in final.text
    assert f"Alice: −{alice_lost}" in final.text
    assert not buttons(current(h, tracker))
    # The whole fight was one message, edited: nothing else was sent to the group.
    assert len(h.emu.bot_messages(GROUP)) == sent
    assert current(h, tracker).edits >= len(rolls)
    # An ended fight's old button: refused.
    answer = await press_data(h, GM, tracker, f"cfe:{row['id']}:{row['version']}")
    assert answer.show_alert


async def test_stale_button_restart_and_undo_restore_dice(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Солдат", 3)))
    bob = await insert(h, hero("Bob", ("Драчун", 3)), owner=BOB)
    tracker = await open_fight(h)
    await face_off(h, tracker, "Alice", "Bob")
    stale = find(h, tracker, "cfg")
    await press(h, GM, tracker, "cfo", "Физический")  # a step: the Start button above is stale
    answer = await press_data(h, GM, tracker, stale)
    assert answer.show_alert
    # The GM's undo takes back set-up steps as well, newest first.
    await press(h, GM, tracker, "cfs", "Alice")  # → side 2
    assert has(h, tracker, "cfs", "2️⃣ Alice")
    await press(h, GM, tracker, "tku")
    assert has(h, tracker, "cfs", "1️⃣ Alice")
    assert (await tracker_row(h))["state"]["sides"][str(alice)] == "1"
    await press(h, GM, tracker, "tku")
    assert has(h, tracker, "cfo", "Физический: выкл")
    assert (await tracker_row(h))["state"]["graded"] is False
    await press(h, GM, tracker, "cfg")

    await h.restart()  # the fight lives in Postgres
    who = {f"c{alice}": ALICE, f"c{bob}": BOB}
    for _ in range(MAX_ROUNDS):
        await _roll_round(h, tracker, who)
        if sum((await lost(h, alice)).values()) + sum((await lost(h, bob)).values()):
            break
    before = (await lost(h, alice)), (await lost(h, bob))
    assert sum(before[0].values()) + sum(before[1].values()) == 1
    row = await tracker_row(h)
    # The GM's undo takes back the deciding roll and the die it cost.
    answer = await press(h, BOB, tracker, "tku")
    assert answer.show_alert
    await press(h, GM, tracker, "tku")
    assert (await lost(h, alice)) == {"Солдат": 0} and (await lost(h, bob)) == {"Драчун": 0}
    undone = await tracker_row(h)
    assert undone["version"] == row["version"] + 1
    assert undone["state"]["fight"]["exchange"]["rolls"]  # the first roll of the round stands
    assert "3/3" in current(h, tracker).text
    # The GM may end at any time — after a «Да, завершить»: the end has no undo. «Отмена»
    # brings the fight's buttons back untouched.
    await press(h, GM, tracker, "cfe")
    assert [b["text"] for b in buttons(current(h, tracker))] == ["🏁 Да, завершить", "Отмена"]
    assert (await tracker_row(h))["version"] == undone["version"]
    await press(h, GM, tracker, "tkn")
    assert "3/3" in current(h, tracker).text and has(h, tracker, "tku")
    await press(h, GM, tracker, "cfe")
    await press(h, GM, tracker, "cfy", "Да, завершить")
    assert (await tracker_row(h))["status"] == "ended"
    assert "🏁" in current(h, tracker).text


async def test_a_team_fight(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Солдат", 4)))
    bob = await insert(h, hero("Bob", ("Драчун", 4)), owner=BOB)
    # Eight dice against the team's three plus three: the team loses a round (and Bob can
    # shield Alice) unless it wins eight in a row, about once in 100,000 fights (with six
    # dice, once in 130: CI met it).
    orc = await insert(h, hero("Орк", ("Драчун", 8)), npc=True)
    tracker = await open_fight(h)
    for name, presses in (("Alice", 1), ("Bob", 1), ("Орк", 2)):
        for _ in range(presses):
            await press(h, GM, tracker, "cfs", name)
    await press(h, GM, tracker, "cfg")
    # Two on side 1: nothing opens by itself; the GM gathers a team, then disbands it.
    assert has(h, tracker, "cfk", "Alice") and has(h, tracker, "cfk", "Bob")
    answer = await press(h, ALICE, tracker, "cfn")
    assert answer.show_alert
    await press(h, GM, tracker, "cfn")
    await press(h, GM, tracker, "cfm", "Alice")
    await press(h, GM, tracker, "cfm", "Bob")
    await press(h, GM, tracker, "cfj")
    assert "👥 Alice + Bob" in current(h, tracker).text
    await press(h, GM, tracker, "cfd")  # disbanding: every member −1
    assert (await lost(h, alice)) == {"Солдат": 1} and (await lost(h, bob)) == {"Драчун": 1}
    assert "Солдат 3/4" in current(h, tracker).text
    await press(h, GM, tracker, "cfn")
    await press(h, GM, tracker, "cfm", "Alice")
    await press(h, GM, tracker, "cfm", "Bob")
    await press(h, GM, tracker, "cfj")
    who = {f"c{alice}": ALICE, f"c{bob}": BOB, f"c{orc}": GM}

    shielded = False
    for _ in range(MAX_ROUNDS * 3):
        row = await tracker_row(h)
        if row["status"] != "open":
            break
        fight = row["state"]["fight"]
        if fight["pending"] is not None:
            if not shielded:
                before = await lost(h, bob)
                await press(h, GM, tracker, "cfh", "🛡 Bob")  # Bob shields Alice: double
                after = await lost(h, bob)
                assert after["Драчун"] - before["Драчун"] == min(2, 4 - before["Драчун"])
                fight = (await tracker_row(h))["state"]["fight"]
                assert not fight["teams"] or fight["teams"][0]["double_next"]
                shielded = True
            else:
                await press(h, GM, tracker, "cfh", "Alice")
            continue
        if fight["exchange"] is not None:
            await _roll_round(h, tracker, who)
        elif has(h, tracker, "cfk"):
            await press(h, GM, tracker, "cfk")
        else:
            await press(h, GM, tracker, "cft")

    row = await tracker_row(h)
    assert row["status"] == "ended" and shielded
    log = row["state"]["log"]
    # A member adds only its sixes; the unit's total is the leader's sum plus them.
    for entry in (e for e in log if e["k"] == "roll" and e["member"]):
        assert entry["sum"] == sum(f for f in entry["faces"] if f == 6)
    units: tuple[list[str], list[str]] = ([], [])
    counted: dict[str, int] = {}
    checked = 0
    for entry in log:
        if entry["k"] == "round":
            units = (entry["a"].split(" + "), entry["d"].split(" + "))
            counted = {}
        elif entry["k"] == "roll":
            counted[entry["who"]] = entry["sum"]
        elif entry["k"] in ("won", "tie") and counted:
            assert entry["a"] == sum(counted.get(n, 0) for n in units[0])
            assert entry["d"] == sum(counted.get(n, 0) for n in units[1])
            counted, checked = {}, checked + 1
    assert checked
    assert "🏁" in current(h, tracker).text
    # The sheets lost what the engine took, through the ledger.
    for cid in (alice, bob, orc):
        taken = sum(
            r["dice"] for r in row["state"]["fight"]["losses"] if r["fighter"] == f"c{cid}"
        )
        assert sum((await lost(h, cid)).values()) == taken


async def test_a_physical_fight_logs_the_hard_hit_die(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Стрелок", 6)))
    orc = await insert(h, hero("Орк", ("Драчун", 2)), npc=True)
    tracker = await open_fight(h)
    await face_off(h, tracker, "Alice", "Орк")
    await press(h, GM, tracker, "cfo", "Физический")
    await press(h, GM, tracker, "cfg")
    # The GM (only) grants the orc a bonus die for cover: Драчун 2 + 1 = 3d6.
    row = await tracker_row(h)
    bonus = f"cfb:{row['id']}:{row['version']}:c{orc}"
    assert bonus in [b["callback_data"] for b in buttons(current(h, tracker))]
    assert (await press_data(h, ALICE, tracker, bonus)).show_alert
    assert not (await press_data(h, GM, tracker, bonus)).show_alert
    assert has(h, tracker, "cfr", "Орк · 3d6") and "🎁1" in current(h, tracker).text
    who = {f"c{alice}": ALICE, f"c{orc}": GM}
    row = await _fight_to_the_end(h, tracker, who)
    log = row["state"]["log"]
    logged = {rid: (expr, faces) for rid, expr, faces in await tracker_rolls(h)}
    hard = [e for e in log if e["k"] == "won" and e["kind"] == "graded"]
    dice = [faces for rid, (expr, faces) in logged.items() if rid.endswith(":g")]
    # Each hard hit (attack ≥ 2 × defence) drew one more logged 1d6: that many dice lost.
    assert [e["faces"] for e in hard] == dice
    assert all(logged[rid][0] == "1d6" for rid in logged if rid.endswith(":g"))
    for entry in (e for e in log if e["k"] == "won" and e["kind"] == "one"):
        assert entry["a"] < 2 * entry["d"] or entry["a"] < entry["d"]
    taken = {
        key: sum(r["dice"] for r in row["state"]["fight"]["losses"] if r["fighter"] == key)
        for key in who
    }
    assert (await lost(h, alice))["Стрелок"] == taken[f"c{alice}"]
    assert (await lost(h, orc))["Драчун"] == taken[f"c{orc}"]
    assert taken[f"c{orc}"] == 2 or taken[f"c{alice}"] == 6


async def test_a_member_leaves_the_team_alone(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Солдат", 4)))
    bob = await insert(h, hero("Bob", ("Драчун", 3)), owner=BOB)
    await insert(h, hero("Орк", ("Драчун", 6)), npc=True)
    tracker = await open_fight(h)
    for name, presses in (("Alice", 1), ("Bob", 1), ("Орк", 2)):
        for _ in range(presses):
            await press(h, GM, tracker, "cfs", name)
    await press(h, GM, tracker, "cfg")
    await press(h, GM, tracker, "cfn")
    await press(h, GM, tracker, "cfm", "Alice")
    await press(h, GM, tracker, "cfm", "Bob")
    await press(h, GM, tracker, "cfj")
    # Only Bob (or the GM) may take Bob out of the team.
    assert (await press(h, ALICE, tracker, "cfl", "Bob")).show_alert
    assert not (await press(h, BOB, tracker, "cfl", "Bob")).show_alert
    assert (await lost(h, bob)) == {"Драчун": 3} and (await lost(h, alice)) == {"Солдат": 0}
    text = current(h, tracker).text
    assert "Bob — Драчун 0/3" in text and "👥" not in text.split("\n\n")[0]
    row = await tracker_row(h)
    assert not row["state"]["fight"]["teams"]
    # Alice fights on alone: one fighter per side, the round opens by itself.
    assert row["state"]["fight"]["exchange"] is not None
    assert has(h, tracker, "cfr", "Alice · 4d6")


async def test_a_fighter_switches_cliche_between_rounds(running: Harness) -> None:
    h = running
    await table(h)
    alice = await insert(h, hero("Alice", ("Солдат", 4), ("Хакер", 2)))
    orc = await insert(h, hero("Орк", ("Драчун", 3)), npc=True)
    tracker = await open_fight(h)
    await press(h, GM, tracker, "cfs", "Alice")
    await press(h, GM, tracker, "cff", "Солдат")
    await press(h, GM, tracker, "cfc", "Хакер")  # the GM names a second appropriate cliché
    await press(h, GM, tracker, "cff", "⬅️")
    assert "Alice (Солдат/Хакер ✅)" in current(h, tracker).text
    await press(h, GM, tracker, "cfs", "Орк")
    await press(h, GM, tracker, "cfs", "Орк")
    await press(h, GM, tracker, "cfg")
    assert has(h, tracker, "cfr", "Alice · 4d6")
    assert (await press(h, BOB, tracker, "cfw", "Хакер")).show_alert
    assert not (await press(h, ALICE, tracker, "cfw", "Хакер")).show_alert
    assert has(h, tracker, "cfr", "Alice · 2d6") and has(h, tracker, "cfw", "Солдат")
    assert "Alice — Хакер 2/2" in current(h, tracker).text
    await _roll_round(h, tracker, {f"c{alice}": ALICE, f"c{orc}": GM})
    log = (await tracker_row(h))["state"]["log"]
    assert next(e for e in log if e["k"] == "roll" and e["who"] == "Alice")["n"] == "2d6"
    won = next(e for e in log if e["k"] == "won")
    if won["who"] == "Alice":
        assert (await lost(h, orc)) == {"Драчун": 1}
        assert (await lost(h, alice)) == {"Солдат": 0, "Хакер": 0}
    else:
        assert (await lost(h, alice)) == {"Солдат": 0, "Хакер": 1}
        assert "Alice — Хакер 1/2" in current(h, tracker).text
    await press(h, GM, tracker, "cfe")
    await press(h, GM, tracker, "cfy")
    assert (await tracker_row(h))["status"] == "ended"


async def test_fight_command_refusals(running: Harness) -> None:
    h = running
    seat_table(h)
    h.emu.send_text(GM, GROUP, "/fight")
    assert "/newgame" in (await h.emu.wait_bot_message(GROUP, timeout=WAIT)).text
    await create_game(h, "cliche", "Кампания")
    await insert(h, hero("Alice", ("Солдат", 3)))
    before = h.emu.last_bot_message(GROUP)
    h.emu.send_text(ALICE, GROUP, "/fight")
    reply = await h.emu.wait_bot_message(
        GROUP, after=before.message_id if before else 0, timeout=WAIT
    )
    assert "мастер" in reply.text  # the group's Russian, though Alice reads English
    first = await open_fight(h)
    assert has(h, first, "cfs")
    h.emu.send_text(GM, GROUP, "/fight")
    again = await h.emu.wait_bot_message(GROUP, after=first.message_id, timeout=WAIT)
    assert "/tracker" in again.text
    # Ending during the set-up frees the table for a new fight.
    await press(h, GM, first, "cfe")
    await press(h, GM, first, "cfy")
    assert "🏁" in current(h, first).text and not buttons(current(h, first))
    second = await open_fight(h)
    assert second.message_id != first.message_id and has(h, second, "cfs", "Alice")
