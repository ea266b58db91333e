"""Coordinates of the triangular table: cells and lattice points.

**Lattice points** ``(i, j)`` use *doubled* coordinates: ``j`` is the row
(downwards, as on a screen) and ``i`` counts half edges across, so ``i + j``
is always even. The point sits at Cartesian ``(i / 2, j * sqrt(3) / 2)``
(unit edge length, y pointing down).

**Cells** ``(x, y)`` are the triangles of row ``y`` (between point rows ``y``
and ``y + 1``). A cell with ``x + y`` even points *down*; with ``x + y`` odd
it points *up*. Corners are listed clockwise (as seen on the screen), and
edge ``k`` joins corner ``k`` to corner ``k + 1``:

- down cell ``(x, y)``: top-left ``(x, y)``, top-right ``(x + 2, y)``,
  bottom ``(x + 1, y + 1)``;
- up cell ``(x, y)``: top ``(x + 1, y)``, bottom-right ``(x + 2, y + 1)``,
  bottom-left ``(x, y + 1)``.

>>> cell_corners((0, 0))
((0, 0), (2, 0), (1, 1))
>>> cell_corners((1, 0))
((2, 0), (3, 1), (1, 1))
>>> edge_neighbours((0, 0))
((0, -1), (1, 0), (-1, 0))
>>> sorted(cells_around((2, 0)))
[(0, -1), (0, 0), (1, -1), (1, 0), (2, -1), (2, 0)]
>>> all((2, 0) in cell_corners(cell) for cell in cells_around((2, 0)))
True
>>> point_xy((2, 0)), cell_xy((0, 0))
((1.0, 0.0), (0.5, 0.288675))
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache

from mathgames.core.errors import InvalidMoveError, quoted

__all__ = [
    "HEIGHT",
    "Cell",
    "Point",
    "cell_corners",
    "cell_id",
    "cell_towards",
    "cell_xy",
    "cells_around",
    "corner_names",
    "edge_neighbours",
    "is_up",
    "nearest_cell",
    "parse_cell",
    "point_id",
    "point_xy",
]

Cell = tuple[int, int]
Point = tuple[int, int]

#: Height of a cell (unit edge length).
HEIGHT = math.sqrt(3) / 2


def is_up(cell: Cell) -> bool:
    """Whether the cell points up (its apex at the top).

    >>> is_up((0, 0)), is_up((1, 0)), is_up((0, 1))
    (False, True, True)
    """
    return (cell[0] + cell[1]) % 2 == 1


@cache
def cell_corners(cell: Cell) -> tuple[Point, Point, Point]:
    """The three lattice points of a cell, clockwise (see the module docstring)."""
    x, y = cell
    if (x + y) % 2:
        return ((x + 1, y), (x + 2, y + 1), (x, y + 1))
    return ((x, y), (x + 2, y), (x + 1, y + 1))


@cache
def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    """The cells across edge 0, 1 and 2 (edge ``k`` joins corners ``k`` and ``k + 1``).

    >>> edge_neighbours((1, 0))
    ((2, 0), (1, 1), (0, 0))
    >>> all(cell in edge_neighbours(n) for n in edge_neighbours((1, 0)) for cell in [(1, 0)])
    True
    """
    x, y = cell
    if (x + y) % 2:
        return ((x + 1, y), (x, y + 1), (x - 1, y))
    return ((x, y - 1), (x + 1, y), (x - 1, y))


@cache
def cells_around(point: Point) -> tuple[Cell, ...]:
    """The six cells that share the lattice point: its hexagon.

    Raises :class:`InvalidMoveError` for a pair that is not a lattice point.
    """
    i, j = point
    if (i + j) % 2:
        raise InvalidMoveError(f"{quoted(point)} is not a lattice point (i + j must be even)")
    return ((i - 2, j - 1), (i - 1, j - 1), (i, j - 1), (i, j), (i - 1, j), (i - 2, j))


def point_xy(point: Point) -> tuple[float, float]:
    """Cartesian position of a lattice point (unit edge, y down), rounded to 6 places."""
    i, j = point
    return (round(i / 2, 6), round(j * HEIGHT, 6))


def cell_xy(cell: Cell) -> tuple[float, float]:
    """Cartesian position of a cell's centre (the centroid of its corners).

    >>> cell_xy((1, 0))
    (1.0, 0.57735)
    """
    xs, ys = zip(*(point_xy(p) for p in cell_corners(cell)), strict=True)
    return (round(sum(xs) / 3, 6), round(sum(ys) / 3, 6))


def nearest_cell(cells: Iterable[Cell], to: Cell) -> Cell:
    """The cell of ``cells`` whose centre is nearest ``to``'s (the smallest of equals).

    >>> nearest_cell([(4, 0), (1, 0), (-1, 0)], (0, 0))
    (-1, 0)
    """
    x0, y0 = cell_xy(to)
    return min(cells, key=lambda c: (math.hypot(cell_xy(c)[0] - x0, cell_xy(c)[1] - y0), c))


def cell_towards(cells: Iterable[Cell], start: Cell, direction: tuple[int, int]) -> Cell:
    """The cell of ``cells`` nearest ``start`` in a direction on screen (``(1, 0)``: right,
    ``(0, -1)``: up, as y grows downwards), within a wide cone around it, and the closer
    to the straight line the better; ``start`` itself when no cell lies that way.

    >>> cell_towards([(-2, 0), (2, 0), (4, 0)], (0, 0), (1, 0))
    (2, 0)
    >>> cell_towards([(-2, 0)], (0, 0), (1, 0))
    (0, 0)
    """
    x0, y0 = cell_xy(start)
    vx, vy = direction
    best, best_score = start, math.inf
    for cell in cells:
        x, y = cell_xy(cell)
        along = (x - x0) * vx + (y - y0) * vy
        across = abs((x - x0) * vy - (y - y0) * vx)
        if along > 0.05 and across <= along * 2.5:
            score = math.hypot(x - x0, y - y0) + across
            if score < best_score:
                best, best_score = cell, score
    return best


def corner_names(cell: Cell) -> tuple[str, str, str]:
    """Language-neutral names of the corners, clockwise: ``top-left``, ``top-right``...

    >>> corner_names((0, 0)), corner_names((1, 0))
    (('top-left', 'top-right', 'bottom'), ('top', 'bottom-right', 'bottom-left'))
    """
    if is_up(cell):
        return ("top", "bottom-right", "bottom-left")
    return ("top-left", "top-right", "bottom")


def cell_id(cell: Cell) -> str:
    """The text id of a cell (used as ``data-cell`` in the drawing).

    >>> cell_id((-3, 2)), parse_cell(cell_id((-3, 2)))
    ('c-3_2', (-3, 2))
    """
    return f"c{cell[0]}_{cell[1]}"


def point_id(point: Point) -> str:
    """The text id of a lattice point.

    >>> point_id((2, -1))
    'p2_-1'
    """
    return f"p{point[0]}_{point[1]}"


def parse_cell(text: str) -> Cell:
    """The cell of an id written by :func:`cell_id`.

    >>> parse_cell("z")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: 'z' is not a cell id like c0_0
    """
    if isinstance(text, str) and text.startswith("c") and text.count("_") == 1:
        x, _, y = text[1:].partition("_")
        try:
            cell = (int(x), int(y))
        except ValueError:
            pass
        else:
            if abs(cell[0]) < 1000 and abs(cell[1]) < 1000:
                return cell
    raise InvalidMoveError(f"{quoted(text)} is not a cell id like c0_0")
