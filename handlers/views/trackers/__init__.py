"""Renderers of the issue-10 trackers, one module per system."""
