"""Views of the issue-10 trackers: one renderer module per system."""
