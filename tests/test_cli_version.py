"""``gmscreen --version`` says the version written once, in ``gmscreen/__init__.py``, which the
package's metadata takes too when it is built."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import gmscreen


def test_version_is_the_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gmscreen", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"gmscreen {gmscreen.__version__}\n",
        "",
    )


def test_the_metadata_says_the_same() -> None:
    # the installed metadata comes from [tool.hatch.version]: a version written elsewhere too
    # (pyproject's [project]) would let the two drift apart
    assert version("gmscreen") == gmscreen.__version__
