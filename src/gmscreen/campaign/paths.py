"""Where campaigns live, their folder names, new campaigns, and the demo copy.

Campaigns are looked for (to open by name, and in the list ``gmscreen`` shows) in ``--dir``, else
``$GMSCREEN_CAMPAIGNS``, else in ``./campaigns`` when it exists and then the user data folder
(:mod:`gmscreen.user_folders`). ``gmscreen new`` writes to ``--dir``, else ``$GMSCREEN_CAMPAIGNS``, else the user
data folder: never into ``./campaigns`` (a source checkout has one) unless asked to, and never
into a repository's examples folder. An example of the repository opens as a throwaway copy,
as the demo does (:mod:`examples`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import stat
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path

import msgspec

from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.examples import is_example, is_examples_folder, throwaway_copy
from gmscreen.campaign.model import Campaign, Settings
from gmscreen.campaign.process import process_running
from gmscreen.campaign.safe_files import fsync_dir, resolve_folder
from gmscreen.campaign.store import CAMPAIGN_FILE, read_checkpoint, write_checkpoint
from gmscreen.data import data_path
from gmscreen.user_folders import campaigns_folder

ENV_VAR = "GMSCREEN_CAMPAIGNS"
DEMO_NAME = "party"


def user_campaigns_dir() -> Path:
    """The user data folder's campaigns (``~/.local/share/gmscreen/campaigns`` on Linux)."""
    return campaigns_folder()


def new_campaigns_dir(
    explicit: str | Path | None = None, env: Mapping[str, str] | None = None
) -> Path:
    """Where ``gmscreen new`` makes a campaign: ``--dir``, ``$GMSCREEN_CAMPAIGNS`` or the user
    data folder. Not ``./campaigns``: run inside a source checkout, that would put the GM's
    campaign among the repository's examples."""
    if explicit:
        return Path(explicit)
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR])
    return user_campaigns_dir()


def search_dirs(
    explicit: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> tuple[Path, ...]:
    """The folders campaigns are looked for in, first first: ``--dir`` or ``$GMSCREEN_CAMPAIGNS``
    alone when given, else ``./campaigns`` (when it exists) and then the user data folder."""
    env = os.environ if env is None else env
    if explicit or env.get(ENV_VAR):
        return (new_campaigns_dir(explicit, env),)
    local = (cwd or Path.cwd()) / "campaigns"
    home = user_campaigns_dir()
    return (local, home) if local.is_dir() and local.resolve() != home.resolve() else (home,)


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
    if len(trimmed) > MAX_NAME:  # campaign.toml refuses a longer one: it would never open
        raise CampaignError(
            f"a campaign name is too long: at most {MAX_NAME} characters; choose a shorter one"
        )
    return trimmed


# Names Windows reserves for devices, in any case and with any extension: a folder named so
# cannot be made or moved there, and campaigns move between computers.
RESERVED_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{device}{n}" for device in ("COM", "LPT") for n in "123456789\u00b9\u00b2\u00b3"]
)
MAX_FOLDER_BYTES = 200  # UTF-8 bytes; file systems allow 255, archives and sync tools less


def _kept(ch: str) -> bool:
    """Letters, marks and digits of any script stay in a folder name; the rest become dashes."""
    return unicodedata.category(ch)[0] in "LMN"


def slugify(name: str) -> str:
    """The folder name for a campaign name: ``"Elric's Party"`` → ``"elric-s-party"``.

    Letters, digits and combining marks of every script are kept, lowercased, in Unicode NFC
    (``"Øst"`` → ``"øst"``, ``"東京"`` → ``"東京"``); everything else (spaces, punctuation,
    separators, dots) becomes a dash, and dashes are trimmed. Refused: control characters,
    invisible formatting characters (bidi overrides, zero-width spaces and joiners), names
    Windows reserves (``CON``, ``COM1`` …) and names too long for a folder.
    """
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", check_name(name)).lower())
    for ch in text:
        if unicodedata.category(ch) == "Cf":
            what = unicodedata.name(ch, "a formatting character")
            raise CampaignError(
                f"{name!r} contains an invisible character (U+{ord(ch):04X} {what}), which a "
                "folder name cannot hold: remove it"
            )
    slug = "".join(ch if _kept(ch) else "-" for ch in text)
    slug = "-".join(part for part in slug.split("-") if part)
    if not slug:
        raise CampaignError(f"{name!r} has no letters or digits to name a folder after")
    if slug.upper() in RESERVED_NAMES:
        raise CampaignError(
            f"{name!r}: {slug!r} is a name Windows reserves for a device; choose another name"
        )
    if len(slug.encode("utf-8")) > MAX_FOLDER_BYTES:
        raise CampaignError(f"{name!r} is too long to name a folder after; choose a shorter name")
    return slug


# `gmscreen new` builds the campaign in a folder of this name beside the target and renames it
# into place; one left by a killed `new` (its process gone) is removed by the next `new`.
BUILD_PREFIX = ".gmscreen-new-"


def _host_tag() -> str:
    return "".join(
        ch if ch.isascii() and (ch.isalnum() or ch == ".") else "_" for ch in socket.gethostname()
    )


def clean_stray_builds(root: Path) -> list[Path]:
    """Remove half-built campaign folders that a killed ``gmscreen new`` on this host left."""
    removed: list[Path] = []
    prefix = f"{BUILD_PREFIX}{_host_tag()}-"
    with os.scandir(root) as entries:
        strays = [e for e in entries if e.name.startswith(prefix)]
    for entry in strays:
        pid_text = entry.name[len(prefix) :].split("-", 1)[0]
        if not pid_text.isdigit() or process_running(int(pid_text)):
            continue  # another `new` still building, or not one of ours
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
            removed.append(Path(entry.path))
    return removed


def _check_free(target: Path) -> None:
    """Raise unless ``target`` is free for a new campaign (an empty folder there is removed)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode) and (target / CAMPAIGN_FILE).exists():
        raise CampaignError(f"{target} already exists; choose another name")
    if stat.S_ISDIR(mode) and not any(target.iterdir()):
        target.rmdir()  # nothing in it to keep (an older gmscreen's interrupted `new`, say)
        return
    raise CampaignError(
        f"{target} is in the way: it is not a gmscreen campaign (no campaign.toml); "
        "choose another name, or move it away"
    )


def create_campaign(
    root: Path, name: str, settings: Settings | None = None, notices: list[str] | None = None
) -> Path:
    """A new, empty campaign in ``root/<slug>``; refuses to touch an existing folder.

    Built in a temporary folder beside the target and renamed into place: a kill leaves either
    nothing or a ``.gmscreen-new-…`` folder, which the next call removes (said in ``notices``).
    """
    campaign = Campaign(name=check_name(name), settings=settings or Settings())
    slug = slugify(name)
    with contextlib.suppress(FileExistsError):  # a file there: scandir says "Not a directory"
        root.mkdir(parents=True, exist_ok=True)
    root = resolve_folder(root)
    if is_examples_folder(root):
        raise CampaignError(
            f"{root} holds the repository's example campaigns, which gmscreen never changes "
            "(they open as throwaway copies): make yours elsewhere (without --dir, it goes to "
            "your user data folder)"
        )
    for stray in clean_stray_builds(root):
        if notices is not None:
            notices.append(f"removed {stray}, left half-made by an interrupted gmscreen new")
    target = root / slug
    _check_free(target)
    build = root / f"{BUILD_PREFIX}{_host_tag()}-{os.getpid()}-{secrets.token_hex(4)}"
    os.mkdir(build)
    try:
        write_checkpoint(build, campaign)
        _check_free(target)  # again: another `new` of the same name may have just finished
        os.rename(build, target)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    fsync_dir(root)
    return target


def resolve_campaign(arg: str | Path, roots: Path | Sequence[Path]) -> Path:
    """A campaign folder from a path or from a name in ``roots``, searched in order (resolved:
    no links left)."""
    path = Path(arg)
    folders = (roots,) if isinstance(roots, Path) else tuple(roots)
    names = [str(arg)]
    with contextlib.suppress(CampaignError):  # a path is not a name
        names.append(slugify(str(arg)))
    candidates = [path, *(root / name for root in folders for name in names)]
    for candidate in candidates:
        # Anything named campaign.toml (a link, even a dangling one, a folder): reading it says
        # what is wrong with it, which "no campaign here" would not.
        if os.path.lexists(candidate / CAMPAIGN_FILE):
            return resolve_folder(candidate)
    where = " nor in ".join(str(root) for root in folders)
    raise CampaignError(f"no campaign at {path} nor named {str(arg)!r} in {where}")


def demo_source() -> Path:
    """The demo party shipped with the package (``gmscreen/data/demo/party``: both rule modules,
    two past sessions; written by ``campaigns/make_examples.py``)."""
    path = data_path("demo", DEMO_NAME)
    if (path / CAMPAIGN_FILE).is_file():
        return path
    raise CampaignError("the demo campaign is missing from this installation")


def make_demo_copy(into: Path | None = None) -> Path:
    """A fresh copy of the demo party in a temporary folder, so the demo dirties nothing."""
    return throwaway_copy(demo_source(), "gmscreen-demo-", into)


class CampaignChoice(msgspec.Struct, frozen=True):
    """What the app should open: a campaign folder (or none) and the window title."""

    path: Path | None
    demo: bool
    title: str
    example: bool = False


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
    return opening(resolve_campaign(campaign, search_dirs(directory)))


def opening(folder: Path) -> CampaignChoice:
    """What opening the campaign in ``folder`` opens: the folder itself, or for one of the
    repository's examples a throwaway copy of it (:mod:`examples`), which the title says."""
    name = read_checkpoint(folder)[0].name
    if not is_example(folder):
        return CampaignChoice(folder, False, f"gmscreen: {name}")
    copy = throwaway_copy(folder, "gmscreen-example-")
    return CampaignChoice(copy, False, f"gmscreen: {name} (example copy, not saved)", True)
