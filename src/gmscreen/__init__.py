"""gmscreen: a Game Master's screen in the terminal.

Its version is written once, in pyproject.toml: ``gmscreen --version`` (or
``importlib.metadata.version("gmscreen")``) reads it from the installed package.
"""
