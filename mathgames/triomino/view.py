"""Drawing: a table or a rack as SVG text (pure functions, no Jupyter).

Positions come from :mod:`mathgames.triomino.geometry`, so drawing, clicks and
tests agree. Every empty cell that may be clicked carries ``data-cell`` with its
:func:`~mathgames.triomino.geometry.cell_id`; rack tiles carry ``data-cell="t<tile>"``.

>>> from mathgames.triomino.table import Placement, Table
>>> from mathgames.triomino.tiles import Tile
>>> table = Table([Placement(Tile.parse("1-2-3"), (0, 0), 0)])
>>> svg = table_svg(table, clickable={(1, 0)})
>>> svg.startswith("<svg") and 'data-cell="c1_0"' in svg and ">3<" in svg
True
>>> 't0-1-2' in rack_svg([Tile.parse("0-1-2")])
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from mathgames.core.svg import INK, PALETTE, esc, num, svg_document
from mathgames.triomino.geometry import HEIGHT, Cell, cell_corners, cell_id, cell_xy, point_xy
from mathgames.triomino.table import Placement, Table
from mathgames.triomino.tiles import Tile

__all__ = ["SCALE", "rack_id", "rack_svg", "table_svg", "tile_polygon", "view_box"]

#: SVG units per unit edge.
SCALE = 100
TILE_FILL = "#fbf6e9"
EMPTY_FILL = "#eef1f4"
HINT_FILL = "#b9e4c9"
HINT_OTHER_FILL = "#e3f3e8"
SELECT = "#d55e00"
DIGIT_INSET = 0.42  # how far (a fraction of the way) a digit sits from its corner to the centre


def _xy(point: tuple[float, float]) -> tuple[float, float]:
    return (point[0] * SCALE, point[1] * SCALE)


def tile_polygon(cell: Cell) -> str:
    """The ``points`` attribute of a cell's triangle, in SVG units.

    >>> tile_polygon((0, 0)), tile_polygon((1, 0))
    ('0,0 100,0 50,86.6', '100,0 150,86.6 50,86.6')
    """
    return " ".join(f"{num(x)},{num(y)}" for x, y in (_xy(point_xy(p))
                                                       for p in cell_corners(cell)))


def _digits(cell: Cell, digits: Sequence[int], colour: str = INK, size: float = 0.25,
            opacity: float = 1.0) -> str:
    cx, cy = _xy(cell_xy(cell))
    parts = []
    for point, digit in zip(cell_corners(cell), digits, strict=True):
        px, py = _xy(point_xy(point))
        x = px + (cx - px) * DIGIT_INSET
        y = py + (cy - py) * DIGIT_INSET
        parts.append(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size * SCALE)}" '
            f'font-weight="bold" fill="{colour}" text-anchor="middle" '
            f'dominant-baseline="central" opacity="{opacity}">{digit}</text>')
    return "".join(parts)


def view_box(table: Table, extra: Iterable[Cell] = (), zoom: float = 1.0,
             centre: Cell | None = None, min_width: float = 6.0) -> tuple[float, ...]:
    """``(x, y, width, height)`` in SVG units: the tiles (and ``extra`` cells) with a margin.

    ``zoom`` > 1 shows a part of that, centred on ``centre`` (the last tile by default).

    >>> [round(v) for v in view_box(Table())]  # an empty table: at least 6 units wide
    [-250, -122, 600, 330]
    """
    points = [p for placement in table.order for p in cell_corners(placement.cell)]
    points += [p for cell in extra for p in cell_corners(cell)]
    if not points:
        points = list(cell_corners((0, 0)))
    xs = [point_xy(p)[0] for p in points]
    ys = [point_xy(p)[1] for p in points]
    x0, x1, y0, y1 = min(xs) - 0.4, max(xs) + 0.4, min(ys) - 0.4, max(ys) + 0.4
    width, height = max(x1 - x0, min_width), max(y1 - y0, min_width * 0.55)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if zoom > 1:
        width, height = max(width / zoom, 3.0), max(height / zoom, 3.0 * HEIGHT)
        if centre is None and table.order:
            centre = table.order[-1].cell
        if centre is not None:
            cx, cy = cell_xy(centre)
    return (( cx - width / 2) * SCALE, (cy - height / 2) * SCALE, width * SCALE,
            height * SCALE)


def table_svg(table: Table, *, clickable: Collection[Cell] = (),
              hints: Mapping[Cell, bool] | None = None, ghost: Mapping[Cell, Sequence[int]]
              | None = None, owners: Mapping[Cell, int] | None = None,
              last: Cell | None = None, zoom: float = 1.0, title: str = "",
              cursor: Cell | None = None, place_label: str = "{n}/{total}") -> str:
    """The table as SVG.

    ``clickable``: empty cells drawn as outlines with ``data-cell`` ids;
    ``hints``: cells to highlight (True: the tile fits as it is turned now, False:
    it fits turned another way); ``ghost``: digits shown over a cell while the pointer
    is on it (``data-hover-for``); ``owners``: cell -> player index (a coloured edge);
    ``last``: the most recent tile (outlined); ``cursor``: the keyboard cursor's cell
    (a thick frame, with the ghost digits shown); ``place_label``: the name of a free
    place for screen readers, with ``{n}`` and ``{total}``.
    """
    hints = hints or {}
    ghost = ghost or {}
    owners = owners or {}
    x, y, width, height = view_box(table, clickable, zoom)
    body = [f'<rect x="{num(x)}" y="{num(y)}" width="{num(width)}" height="{num(height)}" '
            f'fill="#ffffff"/>']
    places = sorted(clickable)
    for number, cell in enumerate(places, 1):
        name = esc(place_label.format(n=number, total=len(places)))
        fill = HINT_FILL if hints.get(cell) else HINT_OTHER_FILL if cell in hints else EMPTY_FILL
        stroke = "#009e73" if cell in hints else "#9aa5b1"
        body.append(
            f'<polygon data-cell="{cell_id(cell)}" points="{tile_polygon(cell)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="3" stroke-dasharray="10 7">'
            f'<title>{name}</title></polygon>')
        if cell in hints and not hints[cell]:
            cx, cy = _xy(cell_xy(cell))
            body.append(f'<text x="{num(cx)}" y="{num(cy)}" font-size="{num(0.28 * SCALE)}" '
                        f'fill="#007a5a" text-anchor="middle" dominant-baseline="central" '
                        f'pointer-events="none">↻</text>')
    for placement in table.order:
        body.append(_tile(placement, owners.get(placement.cell), placement.cell == last))
    for cell, digits in ghost.items():
        body.append(f'<g data-hover-for="{cell_id(cell)}">'
                    f'<polygon points="{tile_polygon(cell)}" fill="#fff3c4" fill-opacity="0.85" '
                    f'stroke="{SELECT}" stroke-width="5"/>'
                    f'{_digits(cell, digits, colour=SELECT)}</g>')
    if cursor is not None:
        digits = ghost.get(cursor)
        body.append(f'<g class="mg-cursor" pointer-events="none">'
                    f'<polygon points="{tile_polygon(cursor)}" fill="#fff3c4" '
                    f'fill-opacity="{0.85 if digits else 0.4}" stroke="{INK}" stroke-width="7" '
                    f'stroke-linejoin="round"/>'
                    + (_digits(cursor, digits, colour=SELECT) if digits else "") + "</g>")
    return svg_document(width, height, "".join(body), title=title, x=x, y=y)


def _tile(placement: Placement, owner: int | None, is_last: bool) -> str:
    cell = placement.cell
    stroke = PALETTE[owner % len(PALETTE)] if owner is not None else INK
    width = 8 if is_last else 4
    return (f'<g class="mg-tile" data-tile="{esc(placement.tile)}">'
            f'<polygon points="{tile_polygon(cell)}" fill="{TILE_FILL}" stroke="{INK}" '
            f'stroke-width="3" stroke-linejoin="round"/>'
            + (f'<polygon points="{tile_polygon(cell)}" fill="none" stroke="{stroke}" '
               f'stroke-width="{width}" stroke-linejoin="round" transform-origin="'
               f'{num(_xy(cell_xy(cell))[0])} {num(_xy(cell_xy(cell))[1])}" '
               f'transform="scale(0.93)"/>' if is_last or owner is not None else "")
            + _digits(cell, placement.digits) + "</g>")


def rack_id(tile: Tile) -> str:
    """The ``data-cell`` id of a rack tile.

    >>> rack_id(Tile.parse("0-1-2"))
    't0-1-2'
    """
    return f"t{tile}"


def rack_svg(tiles: Sequence[Tile], *, selected: Tile | None = None, rotation: int = 0,
             hidden: bool = False, playable: Collection[Tile] | None = None,
             title: str = "", tile_label: str = "{tile}") -> str:
    """A rack: each tile as an upward triangle, the selected one turned by ``rotation``.

    ``hidden`` draws the backs only; tiles not in ``playable`` (when given) are dimmed;
    ``tile_label`` names a tile for screen readers (with ``{tile}``).
    """
    body = []
    gap = 0.15
    for k, tile in enumerate(tiles):
        cell = (2 * k + 1, 0)  # up cells side by side, one edge apart
        offset = k * gap * SCALE
        is_selected = tile == selected
        digits = tile.rotated(rotation) if is_selected else tile.digits
        fill = "#c9ced6" if hidden else ("#ffe9a8" if is_selected else TILE_FILL)
        stroke = SELECT if is_selected else INK
        dim = playable is not None and tile not in playable and not hidden
        attrs = "" if hidden else f' data-cell="{esc(rack_id(tile))}"'
        body.append(
            f'<g transform="translate({num(offset)} 0)"{attrs} opacity="{0.45 if dim else 1}">'
            f'<polygon points="{tile_polygon(cell)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{8 if is_selected else 3}" stroke-linejoin="round"/>'
            + ("" if hidden else f"<title>{esc(tile_label.format(tile=tile))}</title>"
               + _digits(cell, digits, size=0.27)) + "</g>")
    count = max(len(tiles), 9)  # room for a full rack, so tiles keep their size
    width = (count + 1) * 1.0 + count * gap
    return svg_document(width * SCALE, (HEIGHT + 0.2) * SCALE, "".join(body), title=title,
                        x=-0.1 * SCALE, y=-0.1 * SCALE)
