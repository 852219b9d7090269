"""Locale format overrides (settings.FORMAT_MODULE_PATH)."""
