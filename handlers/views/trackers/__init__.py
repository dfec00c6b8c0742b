"""Views of the live trackers: one renderer per system (and the multi-roll cards)."""
