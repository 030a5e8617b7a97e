"""Pure game logic (docs/RULES.md "Part 1: Madness Points", "Part 2: MERP special items"): no
Textual, no campaign file; the only files read are gmscreen's bundled data. Randomness comes in
as a ``random.Random`` or as typed dice."""
