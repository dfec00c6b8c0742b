"""Every view of ``handlers/views`` rendered with hostile strings (tags, ``&``, ``<``,
right-to-left and zero-width marks, 64-character names) and lists of up to 80 items: what it
returns is Telegram HTML that parses under the emulator's rules (which are Telegram's, a bare
``&`` included) and shows at most 4,096 characters; its keyboards fit Telegram's limits.

Arguments are derived from each view's type hints (``tests/safehtml/hostile.py``), so a new
view is driven without a line here — or fails ``test_every_view_is_driven`` until it is
listed below with the reason it cannot be.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.services.games import option_fields
from bot.services.inline_rolls import Offer
from db.repositories.rolls import StoredRoll
from handlers.views.dice import LOG_PAGE_SIZE
from tests.safehtml.hostile import SYSTEM, Mode, for_type
from tests.safehtml.views import (
    Override,
    View,
    all_views,
    arguments,
    check_html,
    check_rendered,
    derivable,
)

# Plain text by contract (a button label, a URL, a code, a name the caller escapes): driven
# with hostile strings too, so each must not fail, but its result is not HTML.
PLAIN = frozenset(
    {
        "dice.short_hash",
        "games.deep_link",
        "request_builder.matter_label",
        "request_builder.sheet_text",
        "sheets.fate.short",
        "sheets.fate.skill_name",
        "sheets.matter.ordered_skills",
        "sheets.matter.render_violation",
        "sheets.matter.trait_name",
        "sheets.page_title",
        "sheet_changes.describe",
        "trackers.fate.skill_name",
    }
)
# Parts of a message that the caller cuts to size (``render_sheet`` and ``sheet_pages`` page
# a sheet's body): checked to be HTML, their length is the caller's.
FRAGMENTS = frozenset(
    {
        "sheets.cliche.render_sheet",
        "sheets.fate.render_sheet",
        "sheets.lifegear.render_sheet",
        "sheets.lifegear.role_details",
        "sheets.lifegear.role_summary",
        "sheets.lifegear.stats_line",
        "sheets.matter.render_sheet",
        "sheets.matter.violation_lines",
        "sheets.storyteller.render_sheet",
        "trackers.lifegear.fighter_line",
    }
)
_TRACKER_STATE = "reads a tracker's state, JSON that each system's tracker service builds"
NOT_DRIVEN: dict[str, str] = {
    "dice.rolled_many": "a LoggedRoll list nests too deep to generate; tests/dice_bot/"
    "test_roll_many.py drives it (labels are escaped and cut to 60)",
    "requests.roll_for_keyboard": "takes a callback-data factory; its buttons' texts are fixed",
    "verify.cpu_failed": "takes a CpuError: tests/dice_bot/test_verify_upload.py drives it",
    "verify.engine_error": "takes an EngineError: the hostile-input tests drive it end to end",
    "verify.too_large": "takes a VerifyTooLarge: tests/dice_bot/test_verify_upload.py drives it",
    "edit.edit_text": "sends an edit (a coroutine), renders nothing",
    "edit.edit_markup": "sends an edit (a coroutine), renders nothing",
    "safe.error_text": "takes an EngineError: the hostile-input tests drive it end to end",
    "safe.clip_list": "takes a callback; tests/safehtml/test_text_limits.py drives it",
    "secret.has_reveal_button": "reads a keyboard, renders nothing",
    "grants.what": "reads a cliché's name from the character's sheet (a generated sheet is no "
    "valid one); tests/wizards2/test_gm_gates.py drives it",
    "grants.request_text": "calls grants.what; tests/wizards2/test_gm_gates.py drives it",
    "grants.decided_text": "calls grants.what; tests/wizards2/test_gm_gates.py drives it",
    "grants.with_trust": "adds a fixed button to a keyboard it is given; tests/wizards2/"
    "test_gm_gates.py drives /options",
    "sheets.fate.engine_name": "takes any engine enum; every sheet renderer calls it",
    "resources.change_line": "an Applied pairs an operation with its own system's sheets",
    "resources.change_summary": "an Applied pairs an operation with its own system's sheets",
    "trackers.cards.text": _TRACKER_STATE,
    "trackers.cards.render": _TRACKER_STATE,
    "trackers.cliche.log_line": _TRACKER_STATE,
    "trackers.cliche.render": _TRACKER_STATE,
    "trackers.fate.absorb_label": _TRACKER_STATE,
    "trackers.fate.log_line": _TRACKER_STATE,
    "trackers.fate.render": _TRACKER_STATE,
    "trackers.lifegear.log_line": _TRACKER_STATE,
    "trackers.lifegear.text": _TRACKER_STATE,
    "trackers.storyteller.event_line": _TRACKER_STATE,
    "trackers.storyteller.scene_text": _TRACKER_STATE,
    "trackers.matter.scene_text": "its rows and sheets are keyed by the same scene members",
    "inline.rolled": "an InlineRoll nests LoggedRoll lists too deep to generate; tests/inline "
    "drives it (dice.rolled and dice.rolled_many inside, plain() around the rest)",
}


def _diff_value(mode: Mode) -> st.SearchStrategy[Any]:
    text = for_type(str, mode)
    entry = st.fixed_dictionaries({"id": text, "name": text, "state": text, "dice": text})
    return st.none() | text | st.integers() | st.lists(entry, max_size=3) | st.lists(text)


# Parameters that carry HTML the caller made (escaped text inside tags), or codes.
_HTML = st.just("<b>x</b> &amp; <i>y</i>")
OVERRIDES: dict[tuple[str, str], Override] = {
    ("resources.panel_text", "line"): lambda mode: _HTML,
    ("sheets.fit", "text"): lambda mode: _HTML,
    ("trackers.matter.member_line", "marker"): lambda mode: st.sampled_from(["•", "▶", "⏸"]),
    ("trackers.matter.scene_text", "hint"): lambda mode: _HTML,
    ("npcs.created", "sheet_page"): lambda mode: _HTML,
    ("deferred.resumed", "notice"): lambda mode: st.one_of(st.none(), _HTML),
    ("games.options_text", "fields"): lambda mode: SYSTEM.map(option_fields),
    ("games.options_keyboard", "fields"): lambda mode: SYSTEM.map(option_fields),
    # a sheet's diff: JSON paths with hostile values, lists of entries among them
    ("sheet_changes.describe", "changes"): lambda mode: st.lists(
        st.fixed_dictionaries(
            {
                "path": st.sampled_from(["name", "gear", "states", "skills.x", "fate_points"]),
                "before": _diff_value(mode),
                "after": _diff_value(mode),
            }
        ),
        max_size=4,
    ),
    # an inline offer's id is a token (bot/services/inline_rolls.py: new_offer_id)
    ("inline.placeholder_keyboard", "offer_id"): lambda mode: st.just("AbCd_-123456EfGh"),
    ("inline.results", "offers"): lambda mode: st.lists(
        st.builds(
            Offer,
            id=st.just("AbCd_-123456EfGh"),
            query=for_type(str, mode),
            title=for_type(str, mode),
            game_title=st.none() | for_type(str, mode),
            character=st.none() | for_type(str, mode),
        ),
        max_size=50,
    ),
    # a page of the log: the handler reads LOG_PAGE_SIZE rolls at a time
    ("dice.log_page", "rolls"): lambda mode: st.lists(
        for_type(StoredRoll, mode, depth=1), max_size=LOG_PAGE_SIZE
    ),
}


def overrides_of(key: str) -> dict[str, Override]:
    return {param: make for (view, param), make in OVERRIDES.items() if view == key}


VIEWS = all_views()
DRIVEN = sorted(key for key in VIEWS if key not in NOT_DRIVEN)


def test_every_view_is_driven() -> None:
    """A view that hostile values cannot be derived for must be listed with its reason."""
    undrivable = {
        key: why for key in DRIVEN if (why := derivable(VIEWS[key], overrides_of(key))) is not None
    }
    assert undrivable == {}
    assert set(NOT_DRIVEN) <= set(VIEWS)  # no stale entries
    assert PLAIN | FRAGMENTS <= set(DRIVEN)


def _check(key: str, value: Any) -> None:
    if key in PLAIN:
        return
    if key in FRAGMENTS:
        check_html(value, limit=None)
        return
    check_rendered(value)


def _drive(key: str, mode: Mode, examples: int) -> None:
    view: View = VIEWS[key]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,  # the same cases every run (explored with 60 random ones each)
        suppress_health_check=list(HealthCheck),
        # no shrinking: on a shared machine it can take minutes; the failing case is printed
        phases=[Phase.explicit, Phase.generate],
    )
    @given(arguments(view, mode, overrides_of(key)))
    def render(kwargs: dict[str, Any]) -> None:
        _check(key, view(**kwargs))

    render()


@pytest.mark.parametrize("key", DRIVEN)
def test_view_renders_hostile_strings(key: str) -> None:
    _drive(key, Mode.ANY, 10)


@pytest.mark.parametrize("key", DRIVEN)
def test_view_renders_the_largest_case(key: str) -> None:
    """64-character names everywhere and 80 items in every list the view is given."""
    _drive(key, Mode.WORST, 2)
