"""Creation wizards as data: a system declares its ``Flow`` (``kinds``), one generic dialog
renders it (``dialog``). See ``docs/systems.md`` «A creation wizard as data»."""

from handlers.wizards.flow.custom import Custom
from handlers.wizards.flow.dialog import build_dialog, flow_states
from handlers.wizards.flow.kinds import Allocate, Choice, Choose, Flow, Info, Items, Text
from handlers.wizards.flow.own import own_clear, own_draft, own_fail, own_switch
from handlers.wizards.flow.screens import Screens

__all__ = [
    "Allocate",
    "Choice",
    "Choose",
    "Custom",
    "Flow",
    "Info",
    "Items",
    "Screens",
    "Text",
    "build_dialog",
    "flow_states",
    "own_clear",
    "own_draft",
    "own_fail",
    "own_switch",
]
