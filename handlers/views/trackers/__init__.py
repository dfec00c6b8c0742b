"""Tracker views, one module per system."""
