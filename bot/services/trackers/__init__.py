"""Live trackers: fights, conflicts, scenes and multi-roll cards, one per edited message.

``core`` is the shared use case (open, step with a version check, undo, end); each system's
module keeps its own state in ``TrackerDTO.state`` and drives its engine's state machine.
"""
