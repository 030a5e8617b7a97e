"""The GM's first frame loads only what it draws: what it defers stays out of it.

Launch time is mostly imports and parsing (benchmarks/bench_tui.py). The dialogs, the other
screens and the whole MERP tables load when first used; this keeps them from creeping back
onto the first frame. The demo is the fullest first frame there is: both rule modules, items
in the log and the detail pane, notes, an episode and a check due.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

# What the first frame must not import, by what first needs it.
WHEN_USED = {
    # journaled items are named from rows read by section (gmscreen.rules.tables_sections)
    "rolling or browsing an item": (
        "gmscreen.rules.tables",
        "importlib.resources",
        "gmscreen.tui.item_roll",
        "gmscreen.tui.item_samples",
        "gmscreen.tui.screens.item_tables",
        "gmscreen.tui.screens.item_entry",
        "gmscreen.tui.screens.inventory",
        "gmscreen.tui.screens.merp_profile",
        "gmscreen.tui.screens.item_abandon",
    ),
    "a dialog or screen opened from the GM's": tuple(
        f"gmscreen.tui.screens.{name}"
        for name in (
            "gain",
            "check",
            "dialogs",
            "help",
            "notes",
            "player_view",
            "rulings",
            "settings",
            "settings_flow",
            "character_form",
            "replay",
            "replay_picker",
            "too_small",
        )
    ),
    "the players' screen, served or shown": (
        "gmscreen.tui.serving",
        "gmscreen.tui.show_app",
        "gmscreen.campaign.follow",
        "gmscreen.campaign.player_safe",
    ),
    "a recap or a replay": (
        "gmscreen.campaign.recap_markdown",
        "gmscreen.campaign.replay",
        "gmscreen.campaign.replay_steps",
    ),
    # brought up to date in a worker once the first frame is up
    "writing the session index": ("gmscreen.campaign.session_index",),
    "writing a checkpoint": ("tomlkit", "tomli_w"),
    # the lock file is msgspec's JSON; json only for what msgspec refuses
    "printing JSON": ("json",),
    # random names come from os.urandom: secrets would load hmac and OpenSSL
    "nothing (os.urandom)": ("secrets", "hashlib"),
    "another command": tuple(
        f"gmscreen.cli.{name}"
        for name in (
            "campaign_cmds",
            "check",
            "roll",
            "replay_cmd",
            "show_cmd",
            "serve_cmd",
            "pick_campaign",
            "crash",
        )
    ),
}
DEFERRED = {name: why for why, names in WHEN_USED.items() for name in names}

# Loaded by the first frame, so the list above is checked against a real one.
DRAWN = ("gmscreen.tui.screens.main", "gmscreen.tui.widgets.roster", "gmscreen.rules.tables_names")

FIRST_FRAME = """
import sys
from gmscreen.cli.app_command import app_for
from gmscreen.i18n import message_file

app = app_for(["--demo", "--lang", sys.argv[1]])
seen = {}

def first_frame():
    if not seen:
        seen["modules"] = sorted(sys.modules)
        seen["catalogs"] = message_file.cache_info().currsize  # languages read
        seen["keys"] = len(message_file(sys.argv[1]).known)  # messages read
        app.exit()

app.post_display_hook = first_frame
app.run(headless=True, size=(120, 40))
seen["all keys"] = len(message_file(sys.argv[1]).everything())
import json  # not before: the first frame does not import it

print(json.dumps(seen))
"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_first_frame_imports_nothing_it_defers(lang: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME, lang], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    loaded = set(seen["modules"])
    assert set(DRAWN) <= loaded
    early = {name: why for name, why in DEFERRED.items() if name in loaded}
    assert not early, f"imported by the first frame, though only needed for: {early}"
    # The catalog is read by group (gmscreen.i18n.MessageFile): the screen's words, not the
    # dialogs', recaps' or replay's; and English is read only for a key Spanish lacked (none).
    assert seen["catalogs"] == 1
    assert seen["keys"] < seen["all keys"] / 2


@pytest.mark.parametrize("name", sorted(DEFERRED))
def test_each_module_kept_out_exists(name: str) -> None:
    """A module renamed or gone would leave the check above passing for nothing."""
    assert importlib.util.find_spec(name) is not None
