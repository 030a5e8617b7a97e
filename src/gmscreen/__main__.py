"""`python -m gmscreen` runs the same entry point as the `gmscreen` command."""

from gmscreen.cli import main

raise SystemExit(main())
