"""Where campaigns live, their folder names, new campaigns, and the demo copy.

The campaigns folder is ``--dir``, else ``$GMSCREEN_CAMPAIGNS``, else ``./campaigns`` when it
exists, else the user data folder (platformdirs).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.model import Campaign, Settings
from gmscreen.campaign.store import CAMPAIGN_FILE, read_checkpoint, write_checkpoint
from gmscreen.data import data_path

ENV_VAR = "GMSCREEN_CAMPAIGNS"
DEMO_NAME = "example"


def campaigns_dir(
    explicit: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR])
    local = (cwd or Path.cwd()) / "campaigns"
    if local.is_dir():
        return local
    return Path(platformdirs.user_data_dir("gmscreen")) / "campaigns"


def check_name(name: str) -> str:
    """The name, trimmed, or a :class:`CampaignError` saying what is wrong with it."""
    trimmed = name.strip()
    if not trimmed:
        raise CampaignError("a campaign needs a name")
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise CampaignError("a campaign name cannot contain control characters")
    if "/" in name or "\\" in name:
        raise CampaignError(f"{name!r}: a campaign name cannot contain / or \\")
    if ".." in name:
        raise CampaignError(f"{name!r}: a campaign name cannot contain ..")
    return trimmed


def slugify(name: str) -> str:
    """``"Elric's Party"`` → ``"elric-s-party"``: letters and digits, the rest as dashes."""
    plain = unicodedata.normalize("NFKD", check_name(name))
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch)).lower()
    slug = "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in plain)
    slug = "-".join(part for part in slug.split("-") if part)
    if not slug:
        raise CampaignError(f"{name!r} has no letters or digits to name a folder after")
    return slug


def create_campaign(root: Path, name: str, settings: Settings | None = None) -> Path:
    """A new, empty campaign in ``root/<slug>``; refuses to touch an existing folder."""
    folder = root / slugify(name)
    if folder.exists():
        raise CampaignError(f"{folder} already exists; choose another name")
    folder.mkdir(parents=True)
    write_checkpoint(folder, Campaign(name=check_name(name), settings=settings or Settings()))
    return folder


def resolve_campaign(arg: str | Path, root: Path) -> Path:
    """A campaign folder from a path or from a name in ``root``."""
    path = Path(arg)
    if (path / CAMPAIGN_FILE).is_file():
        return path
    candidates = [root / str(arg)]
    with contextlib.suppress(CampaignError):  # a path is not a name
        candidates.append(root / slugify(str(arg)))
    for candidate in candidates:
        if (candidate / CAMPAIGN_FILE).is_file():
            return candidate
    raise CampaignError(f"no campaign at {path} nor named {str(arg)!r} in {root}")


def demo_source() -> Path:
    """The example campaign shipped with the package (``gmscreen/data/demo/example``)."""
    path = data_path("demo", DEMO_NAME)
    if (path / CAMPAIGN_FILE).is_file():
        return path
    repo = Path(__file__).resolve().parents[3] / "campaigns" / DEMO_NAME
    if (repo / CAMPAIGN_FILE).is_file():
        return repo
    raise CampaignError("the demo campaign is missing from this installation")


def make_demo_copy(into: Path | None = None) -> Path:
    """A fresh copy of the example campaign in a temporary folder, so the demo dirties nothing."""
    parent = Path(tempfile.mkdtemp(prefix="gmscreen-demo-", dir=into))
    if into is None:
        # Nobody else knows about this folder: remove it when the process ends, or every
        # `gmscreen --demo` (and every test and benchmark run) leaves one behind.
        atexit.register(shutil.rmtree, parent, True)
    target = parent / DEMO_NAME
    shutil.copytree(demo_source(), target, ignore=shutil.ignore_patterns(".lock", "*.tmp"))
    return target


@dataclass(frozen=True, slots=True)
class CampaignChoice:
    """What the app should open: a campaign folder (or none) and the window title."""

    path: Path | None
    demo: bool
    title: str


def campaign_to_open(
    campaign: str | None, demo: bool = False, directory: str | None = None
) -> CampaignChoice:
    """Resolve the CLI's ``[CAMPAIGN] [--demo] [--dir]`` (the demo makes a temporary copy)."""
    if demo:
        path = make_demo_copy()
        name = read_checkpoint(path)[0].name
        return CampaignChoice(path, True, f"gmscreen: {name} (demo copy, not saved)")
    if campaign is None:
        return CampaignChoice(None, False, "gmscreen")
    path = resolve_campaign(campaign, campaigns_dir(directory))
    return CampaignChoice(path, False, f"gmscreen: {read_checkpoint(path)[0].name}")
