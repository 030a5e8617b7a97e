"""Campaign names in any script, and ``gmscreen new`` that a kill cannot leave half done.

The folder name keeps every letter, digit and mark of the name (NFC, lowercased); separators,
punctuation and spaces become dashes; control and invisible formatting characters and names
Windows reserves are refused. ``new`` builds in a ``.gmscreen-new-…`` folder and renames it
into place, so a kill leaves nothing at the target, and the next ``new`` removes the stray.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gmscreen.campaign import CampaignError, CampaignFileError, open_campaign
from gmscreen.campaign.bounds import MAX_NAME
from gmscreen.campaign.paths import (
    BUILD_PREFIX,
    RESERVED_NAMES,
    create_campaign,
    resolve_campaign,
    slugify,
)
from gmscreen.campaign.process import process_running
from gmscreen.campaign.safe_files import component_problem
from gmscreen.cli import main


def _kept(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN"


@pytest.mark.parametrize(
    ("name", "folder"),
    [
        ("東京", "東京"),
        ("Øst", "øst"),
        ("Москва ночью", "москва-ночью"),
        ("Αθήνα", "αθήνα"),
        ("القاهرة", "القاهرة"),
        ("Crème Brûlée", "crème-brûlée"),
        ("Cre\u0300me", "crème"),  # decomposed input: the folder is NFC
        ("Elric's Party", "elric-s-party"),
        ("  Ñandú Ciudad  ", "ñandú-ciudad"),
        ("Straße", "straße"),
    ],
)
def test_folder_names_keep_every_script(name: str, folder: str) -> None:
    assert slugify(name) == folder
    assert unicodedata.is_normalized("NFC", slugify(name))


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("CON", "Windows reserves"),
        ("com1", "Windows reserves"),
        ("Lpt9", "Windows reserves"),
        ("nul.", "Windows reserves"),
        ("aux ", "Windows reserves"),
        ("Imrryr\u202eelbat", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("zero\u200bwidth", "U+200B ZERO WIDTH SPACE"),
        ("joined\u200dname", "U+200D ZERO WIDTH JOINER"),
        ("bell\x07", "control characters"),
        ("a/b", "cannot contain /"),
        ("a\\b", "cannot contain /"),
        ("..", "cannot contain .."),
        ("?!", "no letters or digits"),
        ("x" * 201, "too long"),
    ],
)
def test_unfit_folder_names_are_refused_with_a_reason(name: str, why: str) -> None:
    with pytest.raises(CampaignError, match=why.replace(".", r"\.").replace("+", r"\+")):
        slugify(name)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_name_becomes_a_safe_folder_without_losing_a_letter(name: str) -> None:
    try:
        folder = slugify(name)
    except CampaignError:
        text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name.strip()).lower())
        refusable = (
            not any(_kept(ch) for ch in text)
            or any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name)
            or "/" in name
            or "\\" in name
            or ".." in name
            or len(text.encode()) > 200
            or "-".join(
                p for p in "".join(c if _kept(c) else "-" for c in text).split("-") if p
            ).upper()
            in RESERVED_NAMES
        )
        assert refusable, f"{name!r} was refused for no reason"
        return
    text = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).lower())
    assert [ch for ch in folder if ch != "-"] == [ch for ch in text if _kept(ch)]  # no letter lost
    assert unicodedata.is_normalized("NFC", folder)
    assert component_problem(folder) is None  # no separator, control, '..', Windows character
    assert not folder.startswith("-") and not folder.endswith("-") and "--" not in folder
    assert folder.upper() not in RESERVED_NAMES
    assert slugify(folder) == folder  # the folder's own name finds it again


@settings(max_examples=25, deadline=None)
@given(st.text(alphabet=st.characters(categories=["L", "M", "N", "Zs", "P"]), max_size=20))
def test_any_accepted_name_makes_a_campaign_that_opens(name: str) -> None:
    try:
        slugify(name)
    except CampaignError:
        return
    with tempfile.TemporaryDirectory(prefix="files-names-") as root:
        folder = create_campaign(Path(root), name)
        assert resolve_campaign(name, Path(root)) == folder
        with open_campaign(folder, rng=random.Random(1)) as live:
            assert live.state.name == name.strip()


def test_new_tokyo_opens_validates_and_exports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "東京", "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"created {tmp_path / '東京'}"
    assert main(["validate", "東京", "--dir", str(tmp_path)]) == 0
    with open_campaign(tmp_path / "東京", rng=random.Random(1)) as live:
        live.note("初めてのセッション")
    assert main(["export", "東京", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "東京" in out and "初めてのセッション" in out


def _stray(root: Path, pid: int) -> Path:
    host = "".join(
        c if c.isascii() and (c.isalnum() or c == ".") else "_" for c in socket.gethostname()
    )
    return root / f"{BUILD_PREFIX}{host}-{pid}-0badc0de"


KILLED_NEW = r"""
import os, sys
from pathlib import Path
import gmscreen.campaign.paths as paths

real = paths.write_checkpoint
def write_then_die(folder, campaign):
    real(folder, campaign)
    os._exit(9)  # killed after the checkpoint is written, before the folder is in place
paths.write_checkpoint = write_then_die
paths.create_campaign(Path(sys.argv[1]), "Dreaming City")
"""


def test_a_killed_new_leaves_no_campaign_and_the_next_new_cleans_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    done = subprocess.run([sys.executable, "-c", KILLED_NEW, str(tmp_path)], timeout=60)
    assert done.returncode == 9
    assert not (tmp_path / "dreaming-city").exists()  # nothing half-made at the target
    strays = [p for p in tmp_path.iterdir() if p.name.startswith(BUILD_PREFIX)]
    assert len(strays) == 1 and (strays[0] / "campaign.toml").is_file()
    assert main(["new", "Dreaming City", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"note: removed {strays[0]}, left half-made by an interrupted gmscreen new" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dreaming-city"]
    with open_campaign(tmp_path / "dreaming-city", rng=random.Random(1)) as live:
        assert live.state.name == "Dreaming City"


def test_a_build_of_a_running_new_is_left_alone(tmp_path: Path) -> None:
    ours = _stray(tmp_path, os.getpid())  # a `new` still running (this process)
    ours.mkdir()
    create_campaign(tmp_path, "Pan Tang")
    assert ours.is_dir()
    assert process_running(os.getpid())


@pytest.mark.parametrize("leftover", ["empty folder", "folder with a file", "file"])
def test_new_never_says_exists_for_something_that_is_not_a_campaign(
    tmp_path: Path, leftover: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "vilmir"
    if leftover == "file":
        target.write_text("x")
    else:
        target.mkdir()
        if leftover == "folder with a file":
            (target / "notes.txt").write_text("mine")
    status = main(["new", "Vilmir", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    if leftover == "empty folder":  # nothing in it to keep: the campaign is made there
        assert status == 0
        with open_campaign(target, rng=random.Random(1)):
            pass
        return
    assert status == 2 and "already exists" not in err
    assert "is in the way: it is not a gmscreen campaign (no campaign.toml)" in err
    with pytest.raises((CampaignFileError, CampaignError)):
        open_campaign(target, rng=random.Random(1))


def test_new_says_exists_for_a_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "Vilmir", "--dir", str(tmp_path)]) == 0
    assert main(["new", "Vilmir", "--dir", str(tmp_path)]) == 2
    assert "already exists; choose another name" in capsys.readouterr().err


def test_new_refuses_a_name_longer_than_campaign_toml_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    longest = "Z" + "!" * (MAX_NAME - 1)  # its folder is "z": only the name is long
    assert main(["new", "--dir", str(tmp_path), longest]) == 0
    assert main(["validate", str(tmp_path / "z")]) == 0
    capsys.readouterr()
    assert main(["new", "--dir", str(tmp_path / "other"), longest + "!"]) == 2
    assert f"at most {MAX_NAME} characters" in capsys.readouterr().err
    assert not (tmp_path / "other" / "z").exists()
