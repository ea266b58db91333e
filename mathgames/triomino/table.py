"""The table: tiles on the triangular lattice, legal placements and bonuses.

The table keeps, besides the tiles, the digit on every touched lattice point and
the *frontier* (the empty cells that share an edge with a tile), so listing the
legal placements of a hand looks only at the frontier, never at the whole table.

>>> table = Table()
>>> table.place(Placement(Tile.parse("1-2-3"), (0, 0), 0))
>>> table.required((1, 0))      # the up cell right of it: top 2, bottom-left 3
(2, None, 3)
>>> fits = table.placements_for([Tile.parse("2-3-4"), Tile.parse("2-3-3")])
>>> [str(p) for p in fits if p.cell == (1, 0)]
['2-3-3 at c1_0 turned 0']
>>> table.check(Placement(Tile.parse("2-4-5"), (1, 0), 0))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathgames.core.errors.IllegalMoveError: the bottom-left corner of 2-4-5 shows 5 but ...
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mathgames.core.errors import IllegalMoveError, InvalidMoveError, quoted
from mathgames.core.i18n import translator
from mathgames.triomino.geometry import (
    Cell,
    Point,
    cell_corners,
    cell_id,
    cells_around,
    corner_names,
    edge_neighbours,
)
from mathgames.triomino.tiles import Tile

__all__ = ["MAX_COORD", "ORIGIN", "Bonus", "Placement", "Table", "check_placement",
           "corner_label"]

_ = translator("triomino")

#: The cell where the first tile goes.
ORIGIN: Cell = (0, 0)
#: The largest cell coordinate (56 tiles never reach further).
MAX_COORD = 999


def corner_label(name: str) -> str:
    """The translated name of a corner (``"top-left"`` ... from :func:`corner_names`).

    >>> corner_label("bottom-left")
    'bottom-left'
    """
    labels = {
        "top-left": _("top-left"), "top-right": _("top-right"), "bottom": _("bottom"),
        "top": _("top"), "bottom-right": _("bottom-right"), "bottom-left": _("bottom-left"),
    }
    return labels[name]


@dataclass(frozen=True)
class Placement:
    """A tile on a cell; corner ``k`` of the cell shows ``tile.rotated(rotation)[k]``.

    >>> p = Placement(Tile.parse("0-1-2"), (1, 0), 2)
    >>> p.digits, p.corners()
    ((2, 0, 1), ((2, 0), (3, 1), (1, 1)))
    """

    tile: Tile
    cell: Cell
    rotation: int = 0

    @property
    def digits(self) -> tuple[int, int, int]:
        """The digits on the cell's corners, clockwise from corner 0."""
        return self.tile.rotated(self.rotation)

    def corners(self) -> tuple[Point, Point, Point]:
        """The lattice points under the tile's corners."""
        return cell_corners(self.cell)

    def __str__(self) -> str:
        return f"{self.tile} at {cell_id(self.cell)} turned {self.rotation}"

    def to_list(self) -> list:
        """Plain data: ``["a-b-c", x, y, rotation]``."""
        return [str(self.tile), self.cell[0], self.cell[1], self.rotation]

    @classmethod
    def from_list(cls, data: list) -> Placement:
        """The placement of :meth:`to_list`."""
        if not (isinstance(data, list) and len(data) == 4
                and all(isinstance(v, int) and not isinstance(v, bool) for v in data[1:])
                and data[3] in (0, 1, 2) and abs(data[1]) <= MAX_COORD
                and abs(data[2]) <= MAX_COORD):
            raise InvalidMoveError(f"{quoted(data)} is not a placement [tile, x, y, rotation]")
        text, x, y, rotation = data
        return cls(Tile.parse(text), (x, y), rotation)


def check_placement(placement: Any) -> Placement:
    """``placement`` if it is well formed: a tile, a cell of two whole numbers, a rotation 0-2
    (else :class:`InvalidMoveError`); whether it fits is :meth:`Table.check`'s question.

    >>> check_placement(Placement(Tile.parse("1-2-3"), (1,), 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: '(1,)' is not a cell: give two whole numbers ...
    """
    if not isinstance(placement, Placement):
        raise InvalidMoveError(f"{quoted(str(placement))} is not a placement")
    if not isinstance(placement.tile, Tile):
        raise InvalidMoveError(f"{quoted(str(placement.tile))} is not a tile")
    cell = placement.cell
    if not (isinstance(cell, tuple) and len(cell) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_COORD
            for v in cell)):
        raise InvalidMoveError(f"{quoted(str(cell))} is not a cell: give two whole numbers "
                               f"(x, y) of at most {MAX_COORD}")
    rotation = placement.rotation
    if isinstance(rotation, bool) or rotation not in (0, 1, 2) or not isinstance(rotation, int):
        value = rotation if isinstance(rotation, (int, str)) else str(rotation)
        raise InvalidMoveError(f"{quoted(value)} is not a rotation (0, 1 or 2)")
    return placement


@dataclass(frozen=True)
class Bonus:
    """What filling a cell earns besides the tile's value (it depends on the cell only).

    ``kind`` is ``"hexagon"`` (``hexagons`` is 1, 2 or 3), ``"bridge"``,
    ``"two_sided"`` or ``None``; ``edges`` is how many edges touch tiles.
    """

    kind: str | None
    hexagons: int = 0
    edges: int = 0


class Table:
    """Tiles on the lattice. :meth:`place` is the unchecked fast path; :meth:`check` validates."""

    __slots__ = ("_digits", "_frontier", "_tiles", "order")

    def __init__(self, placements: Iterable[Placement] = ()) -> None:
        self._tiles: dict[Cell, Placement] = {}
        self._digits: dict[Point, int] = {}
        self._frontier: set[Cell] = set()
        #: The placements in the order they were made.
        self.order: list[Placement] = []
        for placement in placements:
            self.check(placement)
            self.place(placement)

    # -- reading ----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._tiles)

    def __contains__(self, cell: object) -> bool:
        return cell in self._tiles

    def __getitem__(self, cell: Cell) -> Placement:
        return self._tiles[cell]

    def tiles(self) -> list[Tile]:
        """The tiles on the table, in the order they were placed."""
        return [p.tile for p in self.order]

    def digit_at(self, point: Point) -> int | None:
        """The digit shown at a lattice point, ``None`` if no tile touches it."""
        return self._digits.get(point)

    def points(self) -> dict[Point, int]:
        """Every touched lattice point and its digit (a copy)."""
        return dict(self._digits)

    def frontier(self) -> set[Cell]:
        """The empty cells sharing an edge with a tile (a copy); ``{ORIGIN}`` when empty."""
        return set(self._frontier) if self._tiles else {ORIGIN}

    def required(self, cell: Cell) -> tuple[int | None, int | None, int | None]:
        """The digit each corner of ``cell`` must show (``None``: free)."""
        get = self._digits.get
        a, b, c = cell_corners(cell)
        return (get(a), get(b), get(c))

    # -- legality ---------------------------------------------------------------
    def fits(self, placement: Placement) -> bool:
        """Whether the placement is legal (no exception, just a yes or no)."""
        cell = placement.cell
        if cell in self._tiles:
            return False
        if not self._tiles:
            return True
        if cell not in self._frontier:
            return False
        need = self.required(cell)
        return all(n is None or n == d for n, d in zip(need, placement.digits, strict=True))

    def check(self, placement: Placement) -> None:
        """Raise :class:`IllegalMoveError` naming what is wrong, if the placement is not legal
        (:class:`InvalidMoveError` if it is not even well formed)."""
        check_placement(placement)
        cell, tile = placement.cell, placement.tile
        if cell in self._tiles:
            raise IllegalMoveError(_("cell {cell} is already taken by {tile}").format(
                cell=cell_id(cell), tile=self._tiles[cell].tile))
        if not self._tiles:
            return
        if cell not in self._frontier:
            raise IllegalMoveError(
                _("{tile} at {cell} would not share an edge with a tile on the table").format(
                    tile=tile, cell=cell_id(cell)))
        names = corner_names(cell)
        for name, need, digit in zip(names, self.required(cell), placement.digits, strict=True):
            if need is not None and need != digit:
                raise IllegalMoveError(
                    _("the {corner} corner of {tile} shows {digit} but the table has {need} "
                      "there").format(corner=corner_label(name), tile=tile, digit=digit,
                                      need=need))

    def placements_for(self, tiles: Iterable[Tile]) -> list[Placement]:
        """Every legal placement of the given tiles (each distinct rotation once).

        On an empty table the first tile goes to :data:`ORIGIN`.
        """
        unique = list(dict.fromkeys(tiles))
        if not self._tiles:
            return [Placement(t, ORIGIN, r) for t in unique for r in range(len(t.rotations()))]
        oriented = [(t, r, seq) for t in unique for r, seq in enumerate(t.rotations())]
        get = self._digits.get
        found = []
        for cell in self._frontier:
            a, b, c = cell_corners(cell)
            na, nb, nc = get(a), get(b), get(c)
            for tile, r, (da, db, dc) in oriented:
                if ((na is None or na == da) and (nb is None or nb == db)
                        and (nc is None or nc == dc)):
                    found.append(Placement(tile, cell, r))
        return found

    def can_place_any(self, tiles: Iterable[Tile]) -> bool:
        """Whether at least one of the tiles fits somewhere (stops at the first fit)."""
        unique = list(dict.fromkeys(tiles))
        if not unique:
            return False
        if not self._tiles:
            return True
        seqs = {seq for t in unique for seq in t.rotations()}
        get = self._digits.get
        for cell in self._frontier:
            a, b, c = cell_corners(cell)
            na, nb, nc = get(a), get(b), get(c)
            for da, db, dc in seqs:
                if ((na is None or na == da) and (nb is None or nb == db)
                        and (nc is None or nc == dc)):
                    return True
        return False

    # -- bonuses ----------------------------------------------------------------
    def bonus(self, cell: Cell) -> Bonus:
        """The bonus for filling the empty ``cell`` now (hexagon, bridge or two-sided fit)."""
        tiles = self._tiles
        if not tiles:
            return Bonus(None)
        neighbours = edge_neighbours(cell)
        touching = [k for k, n in enumerate(neighbours) if n in tiles]
        corners = cell_corners(cell)
        hexagons = 0
        if len(touching) >= 2:
            for point in corners:
                if all(c == cell or c in tiles for c in cells_around(point)):
                    hexagons += 1
        if hexagons:
            return Bonus("hexagon", hexagons, len(touching))
        if len(touching) == 1:
            opposite = corners[(touching[0] + 2) % 3]
            if opposite in self._digits:
                return Bonus("bridge", 0, 1)
            return Bonus(None, 0, 1)
        if len(touching) >= 2:
            return Bonus("two_sided", 0, len(touching))
        return Bonus(None, 0, len(touching))

    # -- changing ---------------------------------------------------------------
    def place(self, placement: Placement) -> None:
        """Put a tile down without checking (see :meth:`check`)."""
        cell = placement.cell
        self._tiles[cell] = placement
        self.order.append(placement)
        for point, digit in zip(cell_corners(cell), placement.digits, strict=True):
            self._digits[point] = digit
        self._frontier.discard(cell)
        for n in edge_neighbours(cell):
            if n not in self._tiles:
                self._frontier.add(n)

    def copy(self) -> Table:
        """An independent copy."""
        other = Table()
        other._tiles = dict(self._tiles)
        other._digits = dict(self._digits)
        other._frontier = set(self._frontier)
        other.order = list(self.order)
        return other

    def _repr_svg_(self) -> str:
        from mathgames.triomino.view import table_svg

        return table_svg(self)

    def bounds(self) -> tuple[int, int, int, int]:
        """Smallest and largest point coordinates touched: ``(i0, j0, i1, j1)``."""
        if not self._digits:
            return (0, 0, 2, 1)
        xs = [p[0] for p in self._digits]
        ys = [p[1] for p in self._digits]
        return (min(xs), min(ys), max(xs), max(ys))
