"""Repositories: one per aggregate, on the unit of work's session. They never commit."""
