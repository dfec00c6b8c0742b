"""English counts on lifegear's fight and the roll log: «choose 1 item», «1 entry» (they read
«choose 1 items», «Roll log: 1 entries», «The log is intact: 1 entries»)."""

from __future__ import annotations

from bot.i18n import I18n
from bot.services.trackers.lifegear import Fighter
from db.repositories.games import CharacterDTO
from db.repositories.trackers import TrackerDTO
from engine.dice.verify import VerifyReport
from engine.systems import lifegear
from handlers.views import dice as dice_views
from handlers.views.trackers.lifegear import _awaited

EN = I18n("ru").translator("en")
RU = I18n("ru").translator("ru")


def _waiting(damage: int) -> list[str]:
    coat = lifegear.Item(id="coat", name="Coat", kind=lifegear.ItemKind.ITEM)
    boots = lifegear.Item(id="boots", name="Boots", kind=lifegear.ItemKind.ITEM)
    sheet = lifegear.Character(name="Zed", max_lives=5, gear=(coat, boots))
    row = CharacterDTO(
        id=7, game_id=1, owner_user_id=None, is_npc=False, system="lifegear", name="Zed",
        status="active", sheet=sheet.model_dump(mode="json"), version=1, review_comment=None,
    )  # fmt: skip
    pending = {"c": 7, "dmg": damage, "prot": [], "pick": [], "due": None}
    state = {"phase": "fight", "pending": [pending], "rolled": [7]}
    tracker = TrackerDTO(
        id=1, game_id=1, chat_id=-1, kind="lifegear_combat", exclusive=True, status="open",
        message_id=None, state=state, version=1, created_by=1,
    )  # fmt: skip
    return _awaited(EN, tracker, {7: Fighter(row, sheet)}, "UTC")


def test_the_damage_choice_counts_items_in_english() -> None:
    assert "choose 1 item (0 chosen)" in _waiting(1)[0]
    assert "choose 2 items (0 chosen)" in _waiting(2)[0]


def test_the_roll_logs_counts_entries_in_english() -> None:
    assert dice_views.log_caption(EN, 1) == "Roll log: 1 entry. Check it with /verify."
    assert dice_views.log_caption(EN, 3).startswith("Roll log: 3 entries.")
    assert "записей — 1" in dice_views.log_caption(RU, 1)
    report = VerifyReport(
        game="", entries=1, recomputed=0, revealed_epochs=(), unrevealed_epochs=(1,), problems=()
    )
    assert "intact: 1 entry, hash chain" in dice_views.verify_report(EN, "en", report)
