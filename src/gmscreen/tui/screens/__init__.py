"""Screens and modals of the GM's screen."""
