"""Growing or shrinking a line-API view's scroll range without laying out the whole screen."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView


def set_line_count(view: ScrollView, lines: int) -> None:
    """Give ``view`` a scroll range of ``lines`` lines.

    Assigning ``virtual_size`` asks for a layout of the whole screen (Widget's reactive has
    ``layout=True``): ~10 ms on the GM's screen, for every new log line. When the view's size
    cannot depend on it and the vertical scrollbar neither appears nor goes away, only the range
    and the bar change: the value is set without its layout, and the bar told through its public
    reactives. Otherwise (the bar shows or hides, or nothing is laid out yet) the reactive is
    assigned and Textual lays out as usual.
    """
    size = Size(view.size.width, lines)
    old = view.virtual_size
    if size == old:
        return
    height = view.container_size.height - view.scrollbar_size_horizontal
    if height <= 0 or not view.is_mounted or (lines > height) != (old.height > height):
        view.virtual_size = size
        return
    view.set_reactive(ScrollView.virtual_size, size)
    if view.show_vertical_scrollbar:
        bar = view.vertical_scrollbar
        bar.window_virtual_size = lines
        bar.window_size = height
    view.scroll_y = min(view.scroll_y, view.max_scroll_y)
