"""The limits of what a campaign file, a journal line or an item tree may hold.

A campaign travels between GMs: a file someone else wrote must give a message naming its line,
never a traceback or minutes of work, however large its numbers, texts or nesting. These are the
limits (README, "File formats"); each is far above anything play produces.
"""

from __future__ import annotations

# Whole numbers: JSON's safe integers (what a double holds exactly, 2**53). Fields with rules of
# their own (POW, percentages, the clock) are tighter.
MAX_INT = 2**53
# The game clock, in seconds: a million years. Far past any campaign, and far below MAX_INT.
MAX_CLOCK = 31_557_600 * 1_000_000
# Names and ids (a character, a player, a campaign, an item's id and title).
MAX_NAME = 200
# Any other text: notes, an item's notes, a note in the journal.
MAX_TEXT = 10_000
# Lists and objects inside one another (an item's rolled tree is the deepest: about 6).
MAX_DEPTH = 64
# One journal line, in bytes: an event with ten thousand-character notes and its item fits.
MAX_LINE = 1_000_000
# A whole file read at once (campaign.toml, a journal's header line with the state it holds).
MAX_FILE = 32 * 1024 * 1024  # 32 MiB
