"""The code's references to docs/RULES.md point at sections that exist there.

Docstrings, comments and the data files quote the rules page by a section title
(``docs/RULES.md "Recovery"``); a title renamed or gone, or a reference that names none, fails.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
# docs/RULES.md "Section title", on one line
REFERENCE = re.compile(r'docs/RULES\.md "([^"]+)"')


def _titles() -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    return {m[1].strip() for m in re.finditer(r"^#{2,6} (.+)$", text, re.MULTILINE)}


def _sources() -> list[Path]:
    src = ROOT / "src" / "gmscreen"
    return sorted(p for p in src.rglob("*") if p.suffix in (".py", ".toml", ".md"))


def test_every_reference_names_a_section_of_the_rules_page() -> None:
    titles = _titles()
    assert {"Part 1: Madness Points", "Part 2: MERP special items", "Recovery"} <= titles
    references, unnamed, missing = 0, [], []
    for path in _sources():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "RULES.md" not in line:
                continue
            where = f"{path.relative_to(ROOT)}:{n}"
            found = REFERENCE.findall(line)
            if len(found) != line.count("RULES.md"):
                unnamed.append(where)
            missing += [f"{where}: {title!r}" for title in found if title not in titles]
            references += len(found)
    assert not unnamed, f"a RULES.md reference without a quoted section title: {unnamed}"
    assert not missing, f"sections docs/RULES.md does not have: {missing}"
    assert references >= 15  # the check reads the code, not nothing
