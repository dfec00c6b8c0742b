"""Renderers of the trackers: fights, conflicts, scenes and multi-roll cards."""
