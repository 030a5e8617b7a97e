"""Pure game logic: no I/O, no Textual. Randomness comes in as a ``random.Random``."""
