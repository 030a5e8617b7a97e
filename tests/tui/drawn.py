"""What a running app shows, read off the screen as a terminal would show it: its screenshot (the
SVG Textual exports of the whole screen, every layer: dialogs, pop-ups), as text, a line a row.
For tests that must read the screen itself, not a widget's or the app's own lists."""

from __future__ import annotations

import html
import re

from textual.app import App

# One run of text in Rich's SVG export: its column (x), and the row it is clipped to.
_RUN = re.compile(
    r'<text [^>]*?x="(?P<x>[\d.]+)"[^>]*?clip-path="url\(#[\w-]*?line-(?P<row>\d+)\)"[^>]*>'
    r"(?P<text>.*?)</text>"
)


def on_screen(app: App[None]) -> str:
    """The screen's text now, one line a row (styles, colours and the window title left out)."""
    rows: dict[int, list[tuple[float, str]]] = {}
    for run in _RUN.finditer(app.export_screenshot()):
        text = html.unescape(run["text"]).replace("\xa0", " ")
        rows.setdefault(int(run["row"]), []).append((float(run["x"]), text))
    return "\n".join("".join(text for _, text in sorted(rows[row])) for row in sorted(rows))
