"""Views of the chat trackers (issue 10), one module per system."""
