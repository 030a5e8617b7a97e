"""Widgets of the GM's screen."""
