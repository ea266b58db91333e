"""A tiny demonstration of the board widget: a 4x4 grid of switches.

Clicking a cell (or moving the cursor with the arrow keys and pressing Enter)
switches it on or off; Python redraws the SVG with the new colours and a count.
It is the smallest complete example of the pattern every game follows: a pure
view (state -> SVG), a board widget, and callbacks that change the state.

>>> demo = BoardDemo()
>>> demo.board.click_cell("r1c2")
>>> demo.on_cells
frozenset({'r1c2'})
>>> 'data-on="1"' in demo.board.svg
True
>>> demo.board.press_key("ArrowRight"); demo.board.press_key("Enter")
>>> sorted(demo.on_cells)
['r1c2', 'r1c3']
"""

from __future__ import annotations

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.i18n import translator
from mathgames.core.svg import INK, PALETTE, esc, svg_document

__all__ = ["BoardDemo", "render_demo"]

_ = translator("core")
SIZE = 4


def render_demo(on_cells: frozenset[str], cursor: tuple[int, int], clicks: int) -> str:
    """The demo board as SVG: lit cells in blue, the cursor outlined in orange."""
    parts = []
    for r in range(SIZE):
        for c in range(SIZE):
            cell = f"r{r}c{c}"
            lit = cell in on_cells
            parts.append(
                f'<rect data-cell="{cell}" data-on="{int(lit)}" x="{c * 10 + 1}" y="{r * 10 + 1}"'
                f' width="9" height="9" rx="1" fill="{PALETTE[0] if lit else "#ffffff"}"'
                f' stroke="{INK}" stroke-width="0.4"/>'
            )
    r, c = cursor
    parts.append(
        f'<rect x="{c * 10 + 0.6}" y="{r * 10 + 0.6}" width="9.8" height="9.8" rx="1.2"'
        f' fill="none" stroke="{PALETTE[1]}" stroke-width="0.9" pointer-events="none"/>'
    )
    count = _.ngettext("{n} click", "{n} clicks", clicks).format(n=clicks)
    parts.append(
        f'<text class="mg-demo-count" x="{SIZE * 5 + 0.5}" y="{SIZE * 10 + 6}" font-size="4.5"'
        f' text-anchor="middle" fill="{INK}">{esc(count)}</text>'
    )
    return svg_document(SIZE * 10 + 1, SIZE * 10 + 9, "".join(parts), title=_("Board"))


class BoardDemo(w.VBox):
    """The board widget's demo: click cells, or use the arrows and Enter."""

    def __init__(self) -> None:
        self.on_cells: frozenset[str] = frozenset()
        self.cursor = (0, 0)
        self.clicks = 0
        self.board = BoardWidget(label=_("Board"))
        self.board.layout.max_width = "420px"
        self.status = w.HTML()
        self.status.add_class("mg-status")
        self.board.on_cell_click(self._toggle)
        self.board.on_key(self._key)
        self._redraw()
        super().__init__([self.board, self.status])

    def _toggle(self, cell: str) -> None:
        self.on_cells = self.on_cells ^ {cell}
        self.clicks += 1
        r, c = int(cell[1]), int(cell[3])
        self.cursor = (r, c)
        self.status.value = esc(_("Clicked cell {cell}").format(cell=cell))
        self._redraw()

    def _key(self, key: str) -> None:
        moves = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1),
                 "ArrowRight": (0, 1)}
        if key in moves:
            dr, dc = moves[key]
            r, c = self.cursor
            self.cursor = (min(SIZE - 1, max(0, r + dr)), min(SIZE - 1, max(0, c + dc)))
            self.status.value = esc(_("Pressed key {key}").format(key=key))
            self._redraw()
        elif key in ("Enter", " "):
            self._toggle(f"r{self.cursor[0]}c{self.cursor[1]}")

    def _redraw(self) -> None:
        self.board.svg = render_demo(self.on_cells, self.cursor, self.clicks)
