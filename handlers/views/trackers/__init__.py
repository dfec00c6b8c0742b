"""Renderers of the trackers (issue 10): one module per system."""
