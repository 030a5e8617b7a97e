"""What the benchmark scripts share: the figures' formatting and the bare Textual baseline.

The scripts are run as ``python benchmarks/bench_NAME.py``, which puts this folder on
``sys.path``: they import this module as ``common``.
"""

from __future__ import annotations

import statistics

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static

SIZE = (120, 40)  # the terminal the screen benchmarks draw in
WIDTH = 58  # the label column of the figures


def percentile(values: list[float], p: float) -> float:
    """The ``p`` (0 to 1) percentile of ``values``, in any order: the value at index ``n * p``
    of the sorted values (the largest for ``p`` = 1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def summary(label: str, times: list[float]) -> str:
    """One line of figures for ``times`` in seconds: median, p90, p99 and max in ms, and n."""
    ms = sorted(t * 1000 for t in times)
    return (
        f"{label:<{WIDTH}} median {statistics.median(ms):7.2f} ms   p90 {percentile(ms, 0.9):7.2f} ms"
        f"   p99 {percentile(ms, 0.99):7.2f} ms   max {ms[-1]:7.2f} ms   n={len(ms)}"
    )


class BareApp(App[None]):
    """The baseline for the screen's figures: a bare Textual app, a header, a line, a footer."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("bare")
        yield Footer()
