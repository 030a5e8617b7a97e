"""The madness meter: madness against POW, with the overflow and the fumble range past POW."""

from __future__ import annotations

from textual.content import Content

from gmscreen.campaign.wording import fumble_range
from gmscreen.rules.madness import MadnessState, check_due, fumble_from
from gmscreen.tui.i18n import Translate

FULL = "█"
OVER = "▓"
EMPTY = "░"

# Styles: the fill changes colour as madness nears POW; the overflow is always the error colour.
FILL_STYLES = ((0.5, "$success"), (0.75, "$warning 70%"), (1.0, "$warning"))
OVER_STYLE = "$error"
EMPTY_STYLE = "$foreground 25%"
NARROWEST = 6  # cells of bar a meter keeps however narrow: past that its text wraps


def _fill_style(ratio: float) -> str:
    for limit, style in FILL_STYLES:
        if ratio < limit:
            return style
    return FILL_STYLES[-1][1]


def meter_bar(state: MadnessState, width: int) -> Content:
    """``width`` cells: filled up to POW, and past POW the overflow in another colour.

    The scale is POW while madness is below it and madness itself once it is over, so the part
    past POW stays visible however large it grows.
    """
    scale = max(state.pow, state.madness, 1)
    within = min(state.madness, state.pow)
    fill = round(within * width / scale)
    if within and not fill:
        fill = 1
    over = round((state.madness - state.pow) * width / scale) if state.madness > state.pow else 0
    if state.madness > state.pow and not over:
        over = 1
        fill = min(fill, width - 1)
    fill = min(fill, width - over)
    empty = width - fill - over
    return Content.assemble(
        (FULL * fill, _fill_style(state.madness / state.pow)),
        (OVER * over, OVER_STYLE),
        (EMPTY * empty, EMPTY_STYLE),
    )


def meter(state: MadnessState, fumble_base: int, t: Translate, width: int = 24) -> Content:
    """``Madness ████▓░ 14/13 · fumbles 00``: the bar, the numbers and, once due, the fumble range."""
    parts: list[str | Content | tuple[str, str]] = [
        (t("stat.madness"), "dim"),
        " ",
        meter_bar(state, width),
        " ",
        (f"{state.madness}/{state.pow}", "bold"),
    ]
    over = state.madness - state.pow
    if over > 0:
        parts.append((f" +{over}", OVER_STYLE))
    if check_due(state):
        parts.append(
            (
                " · " + t("meter.fumbles", range=fumble_range(fumble_from(state, fumble_base), t)),
                f"bold {OVER_STYLE}",
            )
        )
    return Content.assemble(*parts)


def fitted_meter(
    state: MadnessState, fumble_base: int, t: Translate, cells: int, widest: int = 24
) -> Content:
    """The meter in ``cells`` cells: the bar shortens (down to ``NARROWEST``, up to ``widest``)
    so that the numbers and the fumble range stay on its line; at 0 cells, ``widest``."""
    if cells <= 0:
        return meter(state, fumble_base, t, widest)
    narrowest = meter(state, fumble_base, t, NARROWEST)
    bar = max(NARROWEST, min(widest, cells - (narrowest.cell_length - NARROWEST)))
    return narrowest if bar == NARROWEST else meter(state, fumble_base, t, bar)
