"""Data files (TOML) shipped with gmscreen, read through ``importlib.resources``."""
