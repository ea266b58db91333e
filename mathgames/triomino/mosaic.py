"""Mosaics: figures of face-down Triomino tiles on the triangular lattice.

Turned face down, the 56 Triomino tiles are plain triangles, and children build
figures from them: a snake, a bird, a cat, a samurai with a sword. A figure made
of ``n`` triangles joined edge to edge is a *polyiamond*. This module is the
rules core of the mosaic: figures as plain data (frozen sets of cells, in the
coordinates of :mod:`mathgames.triomino.geometry`), the twelve symmetries of the
lattice, canonical forms, counting polyiamonds by generating them, perimeters,
the lattice points inside a figure, cutting a figure into given pieces, and the
editable :class:`Mosaic` with undo and JSON save and load.

>>> triamond = frozenset({(0, 0), (1, 0), (2, 0)})
>>> is_connected(triamond), perimeter(triamond)
(True, 5)
>>> [count_polyiamonds(n) for n in range(1, 7)]
[1, 1, 1, 3, 4, 12]
>>> hexagon = from_rows([".###", ".###"])   # the six triangles around a point
>>> perimeter(hexagon), interior_points(hexagon)
(6, frozenset({(3, 1)}))
>>> canonical(hexagon) == canonical(transform(hexagon, 3, mirror=True))
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from mathgames.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidMoveError,
    quoted,
    read_save,
    shorten,
)
from mathgames.triomino.geometry import (
    Cell,
    Point,
    cell_corners,
    cell_id,
    cells_around,
    edge_neighbours,
    is_up,
    parse_cell,
)

__all__ = [
    "COLOURS",
    "MAX_TILES",
    "SAVE_FORMAT",
    "SYMMETRIES",
    "Figure",
    "Mosaic",
    "canonical",
    "corner_vector",
    "count_polyiamonds",
    "cut_into",
    "figure_from_ids",
    "figure_ids",
    "from_rows",
    "has_holes",
    "interior_points",
    "is_connected",
    "normalise",
    "perimeter",
    "polyiamonds",
    "to_rows",
    "transform",
]

Figure = frozenset[Cell]

#: A Triomino set has 56 tiles: a mosaic uses at most that many triangles.
MAX_TILES = 56
#: How many colours a triangle may have (0 is the plain back of a tile).
COLOURS = 6
SAVE_FORMAT = "mathgames-mosaic"
SAVE_VERSION = 1
#: The twelve symmetries of the lattice about a point: (turns of 60 degrees, mirrored).
SYMMETRIES: tuple[tuple[int, bool], ...] = tuple(
    (turns, mirror) for mirror in (False, True) for turns in range(6))


# -- symmetries -----------------------------------------------------------------
def _point_transform(point: Point, turns: int, mirror: bool) -> Point:
    # Doubled coordinates (i, j) -> the lattice basis e1 = (1, 0), e2 = (1/2, h):
    # a = (i - j) / 2, b = j. A turn of 60 degrees (clockwise on the screen, where
    # y points down) maps e1 -> e2 and e2 -> e2 - e1: (a, b) -> (-b, a + b).
    i, j = point
    a, b = (i - j) // 2, j
    if mirror:  # about the horizontal axis: e1 -> e1, e2 -> e1 - e2
        a, b = a + b, -b
    for _ in range(turns % 6):
        a, b = -b, a + b
    return (2 * a + b, b)


def _cell_of_corners(corners: Iterable[Point]) -> Cell:
    points = sorted(corners, key=lambda p: (p[1], p[0]))
    top = points[0][1]
    if points[1][1] == top:  # a flat top edge: a down cell, named by its top-left corner
        return (points[0][0], top)
    return (points[0][0] - 1, top)  # an apex at the top: an up cell


@cache
def _cell_transform(cell: Cell, turns: int, mirror: bool) -> Cell:
    return _cell_of_corners(_point_transform(p, turns, mirror) for p in cell_corners(cell))


def transform(figure: Iterable[Cell], turns: int = 1, mirror: bool = False) -> Figure:
    """The figure mirrored (about a horizontal line), then turned ``turns`` x 60 degrees.

    Both maps fix the lattice point ``(0, 0)``; the result is not moved back.

    >>> sorted(transform({(0, 0)}, 1))
    [(-1, 0)]
    >>> transform(transform({(0, 0), (1, 0)}, 2), 4) == {(0, 0), (1, 0)}
    True
    """
    turns %= 6
    return frozenset(_cell_transform(cell, turns, mirror) for cell in figure)


def normalise(figure: Iterable[Cell]) -> Figure:
    """The figure moved by a lattice vector so that its top row is 0 and its left column 0 or 1.

    >>> sorted(normalise({(5, 3), (6, 3)})), sorted(normalise({(4, 3)}))
    ([(0, 0), (1, 0)], [(1, 0)])
    """
    cells = list(figure)
    dx, dy = corner_vector(cells)
    return frozenset((x + dx, y + dy) for x, y in cells)


def corner_vector(figure: Iterable[Cell]) -> tuple[int, int]:
    """The lattice vector that :func:`normalise` moves the figure by.

    >>> corner_vector({(5, 3), (6, 3)}), corner_vector({(-3, -2)}), corner_vector(())
    ((-5, -3), (4, 2), (0, 0))
    """
    cells = list(figure)
    if not cells:
        return (0, 0)
    dy = -min(y for _, y in cells)
    dx = -min(x for x, _ in cells)
    if (dx + dy) % 2:  # a lattice vector keeps i + j even
        dx += 1
    return (dx, dy)


def _key(figure: Figure) -> tuple[Cell, ...]:
    return tuple(sorted(figure, key=lambda c: (c[1], c[0])))


def canonical(figure: Iterable[Cell], free: bool = True) -> tuple[Cell, ...]:
    """The canonical form: the least normalised image under the lattice's symmetries.

    ``free=True`` uses all twelve symmetries (turns and mirror images),
    ``free=False`` the six turns only. Two figures are the same polyiamond
    exactly when their canonical forms are equal.

    >>> bar = {(0, 0), (1, 0)}
    >>> canonical(bar) == canonical(transform(bar, 5))
    True
    >>> canonical(set())
    ()
    """
    cells = frozenset(figure)
    if not cells:
        return ()
    return min(_key(normalise(transform(cells, turns, mirror)))
               for turns, mirror in SYMMETRIES if free or not mirror)


# -- properties -------------------------------------------------------------------
def is_connected(figure: Iterable[Cell]) -> bool:
    """Whether every triangle can be reached from every other across shared edges.

    >>> is_connected({(0, 0), (1, 0)}), is_connected({(0, 0), (2, 0)}), is_connected(set())
    (True, False, True)
    """
    cells = set(figure)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for neighbour in edge_neighbours(todo.pop()):
            if neighbour in cells and neighbour not in seen:
                seen.add(neighbour)
                todo.append(neighbour)
    return len(seen) == len(cells)


def perimeter(figure: Iterable[Cell]) -> int:
    """The number of unit edges on the figure's boundary (holes included).

    >>> perimeter({(0, 0)}), perimeter({(0, 0), (1, 0)})
    (3, 4)
    """
    cells = set(figure)
    return sum(1 for cell in cells for n in edge_neighbours(cell) if n not in cells)


def interior_points(figure: Iterable[Cell]) -> frozenset[Point]:
    """The lattice points inside the figure: all six triangles around them belong to it.

    >>> interior_points({(0, 0), (1, 0), (2, 0)})
    frozenset()
    """
    cells = set(figure)
    points = {p for cell in cells for p in cell_corners(cell)}
    return frozenset(p for p in points if all(c in cells for c in cells_around(p)))


def has_holes(figure: Iterable[Cell]) -> bool:
    """Whether some empty triangle is enclosed by the figure.

    >>> notched = from_rows([".###", ".#.#"])   # a hexagon without one triangle
    >>> has_holes(notched), has_holes(from_rows(["###", "#.#"]))
    (False, True)
    """
    cells = set(figure)
    if not cells:
        return False
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 2, max(xs) + 2, min(ys) - 1, max(ys) + 1
    outside = (x0, y0)
    seen, todo = {outside}, [outside]
    while todo:
        for n in edge_neighbours(todo.pop()):
            if (n not in seen and n not in cells and x0 <= n[0] <= x1 and y0 <= n[1] <= y1):
                seen.add(n)
                todo.append(n)
    empty = (x1 - x0 + 1) * (y1 - y0 + 1) - len(cells)
    return len(seen) < empty


# -- counting ---------------------------------------------------------------------
def polyiamonds(n: int, free: bool = True) -> list[tuple[Cell, ...]]:
    """Every polyiamond of ``n`` triangles, once each, as canonical forms (sorted).

    Generated, not looked up: each polyiamond of ``n`` triangles is a polyiamond
    of ``n - 1`` triangles with one triangle added along an edge, so the forms of
    size ``n`` are the canonical forms of all such extensions.

    >>> polyiamonds(3)
    [((0, 0), (1, 0), (1, 1))]
    >>> len(polyiamonds(4, free=False))
    4
    """
    if not isinstance(n, int) or n < 0:
        raise InvalidMoveError(
            f"the size of a polyiamond must be a whole number >= 0, not {quoted(n)}")
    return list(_polyiamonds(n, free))


@cache
def _polyiamonds(n: int, free: bool) -> tuple[tuple[Cell, ...], ...]:
    """The sorted canonical forms of size ``n``, each size grown once from the one below."""
    if n == 0:
        return ((),)
    if n == 1:
        return (canonical({(0, 0)}, free),)
    bigger = set()
    for form in _polyiamonds(n - 1, free):
        cells = frozenset(form)
        for cell in form:
            for neighbour in edge_neighbours(cell):
                if neighbour not in cells:
                    bigger.add(canonical(cells | {neighbour}, free))
    return tuple(sorted(bigger))


def count_polyiamonds(n: int, free: bool = True) -> int:
    """How many polyiamonds of ``n`` triangles there are.

    ``free=True``: up to turns and mirror images (OEIS A000577);
    ``free=False``: up to turns only, a figure and its mirror image count twice
    unless they coincide (OEIS A006534).

    >>> [count_polyiamonds(n, free=False) for n in range(1, 7)]
    [1, 1, 1, 4, 6, 19]
    """
    return len(polyiamonds(n, free))


# -- cutting into pieces ------------------------------------------------------------
def _orientations(piece: Iterable[Cell]) -> list[tuple[Cell, ...]]:
    forms = {_key(normalise(transform(frozenset(piece), t, m))) for t, m in SYMMETRIES}
    return sorted(forms)


def cut_into(figure: Iterable[Cell], pieces: Iterable[Iterable[Cell]]) -> list[Figure] | None:
    """A way to cut the figure into exactly the given pieces, or ``None`` if there is none.

    Each piece may be turned and mirrored and used once; the pieces together must
    cover the figure exactly. Returns the pieces as placed (sets of cells).

    >>> hexagon = from_rows([".###", ".###"])
    >>> triamond, diamond = {(0, 0), (1, 0), (2, 0)}, {(0, 0), (1, 0)}
    >>> len(cut_into(hexagon, [triamond, triamond])), len(cut_into(hexagon, [diamond] * 3))
    (2, 3)
    >>> big_triangle = from_rows([".#", "###"])
    >>> cut_into(big_triangle, [diamond, diamond]) is None
    True
    """
    target = frozenset(figure)
    shapes = [frozenset(p) for p in pieces]
    if sum(len(p) for p in shapes) != len(target) or any(not p for p in shapes):
        return None
    # Identical pieces are interchangeable: group them by canonical form.
    groups: dict[tuple[Cell, ...], int] = {}
    for shape in shapes:
        form = canonical(shape)
        groups[form] = groups.get(form, 0) + 1
    orientations = {form: _orientations(form) for form in groups}
    order = sorted(target, key=lambda c: (c[1], c[0]))
    placed: list[Figure] = []
    covered: set[Cell] = set()

    def search() -> bool:
        first = next((c for c in order if c not in covered), None)
        if first is None:
            return True
        for form, left in groups.items():
            if not left:
                continue
            for shape in orientations[form]:
                anchor = shape[0]  # its first cell in (row, column) order covers `first`
                if is_up(anchor) != is_up(first):
                    continue
                dx, dy = first[0] - anchor[0], first[1] - anchor[1]
                cells = frozenset((x + dx, y + dy) for x, y in shape)
                if cells <= target and not cells & covered:
                    groups[form] -= 1
                    covered.update(cells)
                    placed.append(cells)
                    if search():
                        return True
                    placed.pop()
                    covered.difference_update(cells)
                    groups[form] += 1
        return False

    return list(placed) if search() else None


# -- text forms ---------------------------------------------------------------------
def from_rows(rows: Iterable[str]) -> Figure:
    """A figure drawn as text: row ``y`` is line ``y``, ``#`` (or any letter) at column ``x``
    is the cell ``(x, y)``; ``.`` and spaces are empty. Cells with ``x + y`` odd point up.

    >>> sorted(from_rows(["##", ".#"]))
    [(0, 0), (1, 0), (1, 1)]
    """
    return frozenset((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row)
                     if ch not in ". ")


def to_rows(figure: Iterable[Cell]) -> list[str]:
    """The text drawing of a figure, moved to the top-left (see :func:`from_rows`).

    >>> to_rows({(3, 2), (4, 2), (4, 3)})
    ['.##', '..#']
    """
    cells = normalise(figure)
    if not cells:
        return []
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    return ["".join("#" if (x, y) in cells else "." for x in range(width)).rstrip(".")
            for y in range(height)]


def figure_ids(figure: Iterable[Cell]) -> list[str]:
    """The cell ids of a figure, in reading order.

    >>> figure_ids({(1, 0), (0, 0)})
    ['c0_0', 'c1_0']
    """
    return [cell_id(c) for c in _key(frozenset(figure))]


def figure_from_ids(ids: Iterable[str]) -> Figure:
    """The figure of a list of cell ids (:class:`InvalidMoveError` for a bad id).

    >>> sorted(figure_from_ids(["c0_0", "c1_0", "c0_0"]))
    [(0, 0), (1, 0)]
    """
    return frozenset(parse_cell(text) for text in ids)


# -- the editable mosaic -----------------------------------------------------------------
class Mosaic:
    """A figure being built: triangles with colours, a selection, and an undo history.

    Every change is checked first and either happens entirely or raises a typed
    error and changes nothing. ``cells`` maps each placed cell to its colour
    (0 = the plain back of a tile).

    >>> m = Mosaic()
    >>> m.place((0, 0)); m.place((1, 0), colour=2); len(m)
    2
    >>> m.place((0, 0))
    Traceback (most recent call last):
    ...
    mathgames.core.errors.IllegalMoveError: there is already a triangle at c0_0
    >>> m.select([(0, 0), (1, 0)]); m.move_selection(2, 0); sorted(m.cells)
    [(2, 0), (3, 0)]
    >>> m.undo(); sorted(m.cells)
    [(0, 0), (1, 0)]
    >>> Mosaic.from_json(m.to_json()).cells == m.cells
    True
    """

    def __init__(self, cells: dict[Cell, int] | None = None, limit: int = MAX_TILES) -> None:
        self.limit = limit
        self.cells: dict[Cell, int] = {}
        self.selection: set[Cell] = set()
        self.history: list[dict[Cell, int]] = []
        for cell, colour in (cells or {}).items():
            self._check_new(cell, colour)
            self.cells[cell] = colour

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def figure(self) -> Figure:
        """The placed cells, colours forgotten."""
        return frozenset(self.cells)

    def _check_new(self, cell: Any, colour: Any) -> None:
        if (not isinstance(cell, tuple) or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
            raise InvalidMoveError(f"{quoted(cell)} is not a cell (x, y)")
        if not isinstance(colour, int) or isinstance(colour, bool) or not 0 <= colour < COLOURS:
            raise InvalidMoveError(f"colour {quoted(colour)} is not 0..{COLOURS - 1}")
        if cell in self.cells:
            raise IllegalMoveError(f"there is already a triangle at {cell_id(cell)}")
        if len(self.cells) >= self.limit:
            raise IllegalMoveError(f"all {self.limit} tiles are used")

    def _remember(self) -> None:
        self.history.append(dict(self.cells))

    def place(self, cell: Cell, colour: int = 0) -> None:
        """Put a triangle on an empty cell (at most :data:`MAX_TILES` in all)."""
        self._check_new(cell, colour)
        self._remember()
        self.cells[cell] = colour

    def remove(self, cell: Cell) -> None:
        """Take the triangle off a cell."""
        if cell not in self.cells:
            raise IllegalMoveError(f"there is no triangle at {cell_id(cell)}")
        self._remember()
        del self.cells[cell]
        self.selection.discard(cell)

    def clear(self) -> None:
        """Take every triangle off (undoable)."""
        if self.cells:
            self._remember()
        self.cells.clear()
        self.selection.clear()

    def undo(self) -> None:
        """Go back one change; :class:`IllegalMoveError` when there is nothing to undo."""
        if not self.history:
            raise IllegalMoveError("there is nothing to undo")
        self.cells = self.history.pop()
        self.selection &= set(self.cells)

    # -- the selection ----------------------------------------------------------------
    def select(self, cells: Iterable[Cell]) -> None:
        """Make these placed cells the selection (empty cells are refused)."""
        wanted = set(cells)
        stray = sorted(wanted - set(self.cells))
        if stray:
            raise IllegalMoveError(f"there is no triangle at {cell_id(stray[0])} to select")
        self.selection = wanted

    def toggle_selected(self, cell: Cell) -> None:
        """Add a placed cell to the selection, or take it out."""
        if cell in self.selection:
            self.selection.discard(cell)
        else:
            self.select(self.selection | {cell})

    def _replace_selection(self, moved: dict[Cell, int]) -> None:
        others = {c: v for c, v in self.cells.items() if c not in self.selection}
        clash = sorted(set(moved) & set(others))
        if clash:
            raise IllegalMoveError(
                f"the selection would land on the triangle at {cell_id(clash[0])}")
        self._remember()
        others.update(moved)
        self.cells = others
        self.selection = set(moved)

    def move_selection(self, dx: int, dy: int) -> None:
        """Move the selection by a lattice vector ``(dx, dy)`` (``dx + dy`` even)."""
        if not all(isinstance(v, int) for v in (dx, dy)) or (dx + dy) % 2:
            raise InvalidMoveError(f"({dx}, {dy}) is not a lattice vector (dx + dy must be even)")
        if not self.selection:
            raise IllegalMoveError("nothing is selected")
        self._replace_selection({(x + dx, y + dy): self.cells[(x, y)]
                                 for x, y in self.selection})

    def _turn_selection(self, turns: int, mirror: bool) -> None:
        if not self.selection:
            raise IllegalMoveError("nothing is selected")
        before = sorted(self.selection, key=lambda c: (c[1], c[0]))
        moved = {}
        for cell in before:
            (image,) = transform({cell}, turns, mirror)
            moved[image] = self.cells[cell]
        # Move back near where the selection was: match the bounding boxes' top-left.
        dy = min(y for _, y in before) - min(y for _, y in moved)
        dx = min(x for x, _ in before) - min(x for x, _ in moved)
        if (dx + dy) % 2:
            dx += 1
        self._replace_selection({(x + dx, y + dy): v for (x, y), v in moved.items()})

    def rotate_selection(self, turns: int = 1) -> None:
        """Turn the selection by ``turns`` x 60 degrees clockwise, keeping it in place."""
        self._turn_selection(turns, False)

    def mirror_selection(self) -> None:
        """Mirror the selection left to right, keeping it in place."""
        self._turn_selection(3, True)  # a mirror about the vertical axis

    def remove_selection(self) -> None:
        """Take every selected triangle off."""
        if not self.selection:
            raise IllegalMoveError("nothing is selected")
        self._remember()
        for cell in self.selection:
            del self.cells[cell]
        self.selection = set()

    # -- saving -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The mosaic as JSON-able data: ``cells`` is a list of ``[x, y, colour]``."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
                "cells": [[x, y, self.cells[(x, y)]] for x, y in _key(self.figure)]}

    def to_json(self) -> str:
        """The mosaic as JSON text (the figure and its colours, not the history)."""
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, limit: int = MAX_TILES) -> Mosaic:
        """A mosaic from :meth:`to_dict` data; :class:`CorruptSaveError` if anything is wrong."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise CorruptSaveError("not a saved mosaic")
        if data.get("version") != SAVE_VERSION:
            raise CorruptSaveError(f"unknown mosaic version {quoted(data.get('version'))}")
        rows = data.get("cells")
        if not isinstance(rows, list):
            raise CorruptSaveError("'cells' must be a list of [x, y, colour]")
        if len(rows) > limit:
            raise CorruptSaveError(f"{len(rows)} triangles, more than the {limit} tiles")
        cells: dict[Cell, int] = {}
        for number, row in enumerate(rows):
            if (not isinstance(row, list) or len(row) != 3
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in row)):
                raise CorruptSaveError(f"cell {number}: {shorten(str(row))} is not [x, y, colour]")
            x, y, colour = row
            if abs(x) > 999 or abs(y) > 999:
                raise CorruptSaveError(f"cell {number}: ({x}, {y}) is too far out")
            if (x, y) in cells:
                raise CorruptSaveError(f"cell {number}: ({x}, {y}) appears twice")
            if not 0 <= colour < COLOURS:
                raise CorruptSaveError(f"cell {number}: colour {colour} is not 0..{COLOURS - 1}")
            cells[(x, y)] = colour
        return cls(cells, limit=limit)

    @classmethod
    def from_json(cls, text: Any, limit: int = MAX_TILES) -> Mosaic:
        """A mosaic from :meth:`to_json` text; :class:`CorruptSaveError` if it is bad.

        >>> Mosaic.from_json('{"format": "mathgames-mosaic", "version": 1, "cells": [[0, 0, 9]]}')
        Traceback (most recent call last):
        ...
        mathgames.core.errors.CorruptSaveError: cell 0: colour 9 is not 0..5
        """
        if not isinstance(text, str) or len(text) > 100_000:
            raise CorruptSaveError("a saved mosaic must be JSON text of a sensible size")
        return cls.from_dict(read_save(text, "saved mosaic"), limit=limit)

