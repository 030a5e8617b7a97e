"""gmscreen: a Game Master's screen in the terminal.

Its version is written once, here: the package's metadata takes it from this line when built
(pyproject.toml's ``[tool.hatch.version]``), and ``gmscreen --version`` prints it without
reading any metadata.
"""

__version__ = "0.1.0"
