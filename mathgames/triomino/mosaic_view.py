"""Pictures of mosaics: a pure function from a mosaic (and a puzzle outline) to SVG.

Every cell of the board is a ``<polygon data-cell="c<x>_<y>">`` (the ids of
:mod:`mathgames.triomino.geometry`), so a click on an empty cell places a
triangle there and a click on a placed one removes or selects it.

>>> svg = mosaic_svg({(0, 0): 0, (1, 0): 2}, board=(6, 3))
>>> svg.count("data-cell=")
18
>>> 'data-cell="c1_0"' in svg and 'data-filled="1"' in svg
True
>>> figure_svg({(0, 0), (1, 0)}).startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mathgames.core.svg import INK, PALETTE, num, svg_document
from mathgames.triomino.geometry import HEIGHT, Cell, cell_corners, cell_id, edge_neighbours

__all__ = ["BACK", "SCALE", "colour_of", "figure_png", "figure_svg", "mosaic_svg", "outline_path"]

#: Pixels per unit edge in the drawing's coordinates.
SCALE = 40
#: The colour of a tile's plain back (colour 0).
BACK = "#b9854f"
_EMPTY = "#ffffff"
_GRID = "#d5dbe1"
_OUTLINE_FILL = "#dfe9f3"
_SELECTED = "#0072B2"
_CURSOR = "#D55E00"
_MARGIN = 8


def colour_of(index: int) -> str:
    """The fill of colour ``index`` (0 = the tile's back, then the Okabe-Ito palette).

    >>> colour_of(0), colour_of(1)
    ('#b9854f', '#0072B2')
    """
    return BACK if index == 0 else PALETTE[(index - 1) % len(PALETTE)]


def _xy(point: tuple[int, int]) -> tuple[float, float]:
    return (point[0] / 2 * SCALE, point[1] * HEIGHT * SCALE)


def _points(cell: Cell) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in map(_xy, cell_corners(cell)))


def outline_path(figure: Iterable[Cell]) -> str:
    """An SVG path ``d`` along every boundary edge of a figure (one segment per edge).

    >>> outline_path({(0, 0)}).count("M")
    3
    """
    cells = set(figure)
    parts = []
    for cell in sorted(cells):
        corners = cell_corners(cell)
        for k, neighbour in enumerate(edge_neighbours(cell)):
            if neighbour not in cells:
                (x0, y0), (x1, y1) = _xy(corners[k]), _xy(corners[(k + 1) % 3])
                parts.append(f"M{num(x0)} {num(y0)}L{num(x1)} {num(y1)}")
    return "".join(parts)


def _extent(cells: Iterable[Cell]) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for cell in cells:
        for point in cell_corners(cell):
            x, y = _xy(point)
            xs.append(x)
            ys.append(y)
    if not xs:
        return (0.0, 0.0, float(SCALE), float(SCALE))
    return (min(xs), min(ys), max(xs), max(ys))


def mosaic_svg(cells: Mapping[Cell, int], board: tuple[int, int] = (24, 10),
               outline: Iterable[Cell] = (), selection: Iterable[Cell] = (),
               cursor: Cell | None = None, title: str = "", clickable: bool = True) -> str:
    """The board: ``board = (columns, rows)`` cells, the placed triangles in their colours,
    a puzzle ``outline`` (shaded, with a thick border), the selection and the keyboard cursor.

    With ``clickable=False`` only the figure is drawn (for a download or a worksheet).
    Triangles placed outside the outline are marked with a dashed red border.
    """
    columns, rows = board
    shape = set(outline)
    chosen = set(selection)
    grid = [(x, y) for y in range(rows) for x in range(columns)] if clickable else []
    shown = set(grid) | set(cells) | shape
    x0, y0, x1, y1 = _extent(shown)
    body = []
    for cell in grid:
        if cell in cells:
            continue
        fill = _OUTLINE_FILL if cell in shape else _EMPTY
        body.append(f'<polygon points="{_points(cell)}" fill="{fill}" stroke="{_GRID}" '
                    f'stroke-width="1" data-cell="{cell_id(cell)}"/>')
    for cell in shape - set(cells) - set(grid):
        body.append(f'<polygon points="{_points(cell)}" fill="{_OUTLINE_FILL}" '
                    f'stroke="{_GRID}" stroke-width="1"/>')
    for cell in sorted(cells, key=lambda c: (c[1], c[0])):
        attrs = f' data-cell="{cell_id(cell)}"' if clickable else ""
        stray = shape and cell not in shape
        body.append(
            f'<polygon points="{_points(cell)}" fill="{colour_of(cells[cell])}" stroke="#ffffff" '
            f'stroke-width="1.5" stroke-linejoin="round" data-filled="1"{attrs}/>')
        if stray:
            body.append(f'<polygon points="{_points(cell)}" fill="none" stroke="#D55E00" '
                        'stroke-width="2.5" stroke-dasharray="4 3" pointer-events="none" '
                        'class="mg-stray"/>')
    if shape:
        body.append(f'<path d="{outline_path(shape)}" fill="none" stroke="{INK}" '
                    'stroke-width="3.5" stroke-linecap="round" pointer-events="none" '
                    'class="mg-outline"/>')
    if chosen:
        body.append(f'<path d="{outline_path(chosen)}" fill="none" stroke="{_SELECTED}" '
                    'stroke-width="4" stroke-dasharray="6 4" stroke-linecap="round" '
                    'pointer-events="none" class="mg-selection"/>')
    if cursor is not None and clickable:
        body.append(f'<polygon points="{_points(cursor)}" fill="none" stroke="{_CURSOR}" '
                    'stroke-width="3.5" stroke-linejoin="round" pointer-events="none" '
                    'class="mg-cursor"/>')
    pad = _MARGIN
    return svg_document(x1 - x0 + 2 * pad, y1 - y0 + 2 * pad, "".join(body), title=title,
                        x=x0 - pad, y=y0 - pad)


def figure_svg(cells: Iterable[Cell] | Mapping[Cell, int], title: str = "",
               outline: bool = False) -> str:
    """A figure alone, tightly framed: for downloads, worksheets and galleries.

    ``outline=True`` draws only the silhouette (shaded, with its border): a puzzle
    to print. A plain set of cells is drawn in the tiles' back colour.

    >>> 'data-cell' in figure_svg({(0, 0)})
    False
    """
    coloured = dict(cells) if isinstance(cells, Mapping) else {c: 0 for c in cells}
    if outline:
        return mosaic_svg({}, board=(0, 0), outline=set(coloured), title=title, clickable=False)
    return mosaic_svg(coloured, board=(0, 0), title=title, clickable=False)


def figure_png(cells: Mapping[Cell, int], outline: Iterable[Cell] = (), scale: int = 48) -> bytes:
    """The figure (and a puzzle outline) as a PNG picture, drawn with Pillow.

    >>> png = figure_png({(0, 0): 0, (1, 0): 1})
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    from io import BytesIO

    from PIL import Image, ImageDraw

    shape = set(outline)
    shown = set(cells) | shape
    x0, y0, x1, y1 = _extent(shown)
    k = scale / SCALE
    pad = _MARGIN * k
    size = (max(1, round((x1 - x0) * k + 2 * pad)), max(1, round((y1 - y0) * k + 2 * pad)))
    image = Image.new("RGB", size, "#ffffff")
    draw = ImageDraw.Draw(image)

    def corners(cell: Cell) -> list[tuple[float, float]]:
        return [((x - x0) * k + pad, (y - y0) * k + pad) for x, y in map(_xy, cell_corners(cell))]

    for cell in shape - set(cells):
        draw.polygon(corners(cell), fill=_OUTLINE_FILL)
    for cell, colour in cells.items():
        draw.polygon(corners(cell), fill=colour_of(colour), outline="#ffffff",
                     width=max(1, scale // 30))
    for cell in shape:
        points = corners(cell)
        for n, neighbour in enumerate(edge_neighbours(cell)):
            if neighbour not in shape:
                draw.line([points[n], points[(n + 1) % 3]], fill=INK, width=max(2, scale // 12))
    out = BytesIO()
    image.save(out, format="PNG", compress_level=3)
    return out.getvalue()
