"""Helpers shared by the end-to-end tests of several features."""
