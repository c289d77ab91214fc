"""The game archive (SQLite, through sqlite-utils)."""
