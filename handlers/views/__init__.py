"""Views: pure functions from typed results to Telegram HTML text and keyboards."""
