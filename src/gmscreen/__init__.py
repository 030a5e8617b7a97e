"""gmscreen: a Game Master's screen in the terminal."""

__version__ = "0.1.0"
