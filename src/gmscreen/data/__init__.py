"""Bundled data: tables, presets and UI strings, as TOML."""
