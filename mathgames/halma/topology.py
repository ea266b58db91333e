"""The two boards as data: cells, names, positions, neighbour and jump tables, camps.

Both games share one set of movement rules; only the board differs. A
:class:`Topology` numbers its cells ``0 .. n-1`` (integers internally, for
speed) and gives each a name, an integer lattice coordinate and a Cartesian
position in units of the distance between neighbouring cells.

**Halma** (:data:`HALMA`): a 16x16 board of squares; cells are named ``a1`` ..
``p16``: the column letter ``a``-``p`` from the left, the row ``1``-``16`` from
the bottom. Every cell has up to 8 neighbours (straight and diagonal). The
camps sit in the corners ``SW`` (around ``a1``), ``NW`` (``a16``), ``NE``
(``p16``) and ``SE`` (``p1``); a camp has 19 cells (two players) or 13 cells
(three or four players).

**Chinese checkers** (:data:`STAR`): the 121-hole star, 17 rows of holes of
lengths 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1 from the
bottom. A hole is named by its *position in its row* as a letter (``a`` = the
leftmost hole of that row) followed by the *row number* ``1``-``17`` from the
bottom: the bottom tip is ``a1``, the centre is ``e9``, the top tip ``a17``,
and row 5 runs ``a5`` .. ``m5``. Every hole has up to 6 neighbours. The six
triangular camps (10 holes each) are the star's points ``S``, ``SW``, ``NW``,
``N``, ``NE``, ``SE`` (clockwise from the bottom).

Each player's target is the camp in the opposite corner or point.

>>> HALMA.size, STAR.size
(256, 121)
>>> len(HALMA.camp("SW", 19)), len(HALMA.camp("SW", 13)), len(STAR.camp("S"))
(19, 13, 10)
>>> HALMA.name(HALMA.index("c3")), HALMA.position("c3")
('c3', (2.0, 2.0))
>>> sorted(HALMA.name(i) for i in HALMA.neighbours[HALMA.index("a1")])
['a2', 'b1', 'b2']
>>> STAR.name(STAR.center), len(STAR.neighbours[STAR.center])
('e9', 6)
>>> STAR.distance("a1", "a17"), HALMA.distance("a1", "p16")
(16, 15)
>>> STAR.opposite("NW"), HALMA.opposite("SW")
('SE', 'NE')
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

from mathgames.core.errors import InvalidMoveError, quoted

__all__ = ["BOARDS", "HALMA", "STAR", "Topology", "get_topology"]

Coord = tuple[int, int]
LETTERS = "abcdefghijklmnopq"


class Topology:
    """One board: cells, their names and positions, the move tables and the camps.

    Cells are integers ``0 .. size-1``. Public tables (all tuples, indexed by cell):

    - ``neighbours[c]``: the cells one step away;
    - ``jumps[c]``: ``(over, land)`` pairs: jumping from ``c`` over ``over``
      lands on ``land`` (straight on, same direction);
    - ``coords[c]``: the integer lattice coordinate; ``positions[c]``: the
      Cartesian position ``(x, y)``, neighbours at distance 1.
    """

    def __init__(self, key: str, title: str, coords: Iterable[Coord],
                 directions: tuple[Coord, ...], scale: tuple[float, float],
                 names: dict[Coord, str], corners: tuple[str, ...],
                 camps: dict[tuple[str, int], frozenset[Coord]],
                 apexes: dict[str, Coord],
                 setups: dict[int, tuple[tuple[str, ...], int]]) -> None:
        self.key = key
        self.title = title
        self.coords: tuple[Coord, ...] = tuple(sorted(coords, key=lambda c: (c[1], c[0])))
        self.size = len(self.coords)
        self._index = {c: i for i, c in enumerate(self.coords)}
        self.directions = directions
        sx, sy = scale
        self.positions: tuple[tuple[float, float], ...] = tuple(
            (round(x * sx, 9), round(y * sy, 9)) for x, y in self.coords)
        self.names: tuple[str, ...] = tuple(names[c] for c in self.coords)
        self._by_name = {n: i for i, n in enumerate(self.names)}
        neighbours, jumps, dir_tables = [], [], []
        for x, y in self.coords:
            ns, js, row = [], [], []
            for dx, dy in directions:
                n = self._index.get((x + dx, y + dy))
                land = self._index.get((x + 2 * dx, y + 2 * dy))
                row.append(-1 if n is None else n)
                if n is not None:
                    ns.append(n)
                    if land is not None:
                        js.append((n, land))
            neighbours.append(tuple(ns))
            jumps.append(tuple(js))
            dir_tables.append(tuple(row))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.jumps: tuple[tuple[tuple[int, int], ...], ...] = tuple(jumps)
        #: ``step_table[c][d]``: the neighbour of ``c`` in direction ``d`` or -1.
        self.step_table: tuple[tuple[int, ...], ...] = tuple(dir_tables)
        self.corners = corners
        self._camps = {k: frozenset(self._index[c] for c in v) for k, v in camps.items()}
        self.apexes = {k: self._index[c] for k, c in apexes.items()}
        #: players -> (corners of the players in turn order, pieces per player)
        self.setups = setups
        self.center = min(range(self.size), key=lambda i: math.hypot(*self._centered(i)))
        self._distances: dict[int, tuple[int, ...]] = {}

    def _centered(self, cell: int) -> tuple[float, float]:
        xs = [p[0] for p in self.positions]
        ys = [p[1] for p in self.positions]
        x, y = self.positions[cell]
        return x - (min(xs) + max(xs)) / 2, y - (min(ys) + max(ys)) / 2

    def __repr__(self) -> str:
        return f"<Topology {self.key}: {self.size} cells>"

    # -- names ----------------------------------------------------------------
    def index(self, name: str | int) -> int:
        """The cell index of a name such as ``"c3"`` (an index passes through).

        >>> HALMA.index("q1")
        Traceback (most recent call last):
        ...
        mathgames.core.errors.InvalidMoveError: 'q1' is not a cell of the Halma board
        """
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name < self.size:
            return name
        if isinstance(name, str):
            found = self._by_name.get(name.strip().lower())
            if found is not None:
                return found
        raise InvalidMoveError(f"{quoted(name)} is not a cell of the {self.title} board")

    def name(self, cell: int) -> str:
        """The name of a cell index."""
        return self.names[cell]

    def position(self, cell: str | int) -> tuple[float, float]:
        """The Cartesian position of a cell (unit: the distance between neighbours)."""
        return self.positions[self.index(cell)]

    # -- camps ----------------------------------------------------------------
    def camp(self, corner: str, pieces: int | None = None) -> frozenset[int]:
        """The cells of the camp in ``corner`` for ``pieces`` pieces (Halma: 19 or 13)."""
        if pieces is None:
            pieces = max(size for c, size in self._camps if c == corner) if any(
                c == corner for c, _s in self._camps) else 0
        key = (corner, pieces)
        if key not in self._camps:
            raise ValueError(f"the {self.title} board has no {pieces}-cell camp at {corner!r}")
        return self._camps[key]

    def camp_sizes(self) -> tuple[int, ...]:
        """The possible camp sizes (pieces per player)."""
        return tuple(sorted({size for _c, size in self._camps}, reverse=True))

    def opposite(self, corner: str) -> str:
        """The corner opposite ``corner`` (where that camp's owner is going)."""
        n = len(self.corners)
        return self.corners[(self.corners.index(corner) + n // 2) % n]

    # -- distances ------------------------------------------------------------
    def distances_from(self, cell: int | str) -> tuple[int, ...]:
        """Step distances from ``cell`` to every cell (an empty board, steps only)."""
        start = self.index(cell)
        if start not in self._distances:
            dist = [-1] * self.size
            dist[start] = 0
            queue = deque([start])
            while queue:
                c = queue.popleft()
                for n in self.neighbours[c]:
                    if dist[n] < 0:
                        dist[n] = dist[c] + 1
                        queue.append(n)
            self._distances[start] = tuple(dist)
        return self._distances[start]

    def distance(self, a: int | str, b: int | str) -> int:
        """The number of single steps from ``a`` to ``b`` on an empty board."""
        return self.distances_from(a)[self.index(b)]

    def rows_to(self, corner: str) -> tuple[int, ...]:
        """For each cell, how many rows it lies from the apex of ``corner``'s camp.

        Rows run across the line from the board's centre to the apex (Halma: the
        anti-diagonals ``r + c``; star: the rows of holes parallel to the camp's base).
        The camp is the set of cells fewest rows from its apex.
        """
        apex = self.apexes[corner]
        ax, ay = self.positions[apex]
        if self.key == "halma":
            return tuple(round(abs(x - ax) + abs(y - ay)) for x, y in self.positions)
        cx, cy = self._centered(apex)
        length = math.hypot(cx, cy)
        ux, uy = cx / length, cy / length
        row = math.sqrt(3) / 2
        return tuple(round(((ax - x) * ux + (ay - y) * uy) / row) for x, y in self.positions)


def _halma() -> Topology:
    n = 16
    coords = [(x, y) for x in range(n) for y in range(n)]
    names = {(x, y): f"{LETTERS[x]}{y + 1}" for x, y in coords}
    directions = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
    origins = {"SW": (0, 0, 1, 1), "NW": (0, n - 1, 1, -1), "NE": (n - 1, n - 1, -1, -1),
               "SE": (n - 1, 0, -1, 1)}
    camps = {}
    for corner, (x0, y0, sx, sy) in origins.items():
        for size, reach in ((19, 5), (13, 4)):
            cells = frozenset(
                (x0 + sx * c, y0 + sy * r) for r in range(reach + 1) for c in range(reach + 1)
                if r + c <= reach and (r, c) not in ((0, reach), (reach, 0)))
            camps[(corner, size)] = cells
    apexes = {corner: (x0, y0) for corner, (x0, y0, _sx, _sy) in origins.items()}
    setups = {1: (("SW",), 19), 2: (("SW", "NE"), 19), 3: (("SW", "NW", "NE"), 13),
              4: (("SW", "NW", "NE", "SE"), 13)}
    return Topology("halma", "Halma", coords, directions, (1.0, 1.0), names,
                    ("SW", "NW", "NE", "SE"), camps, apexes, setups)


def _star() -> Topology:
    # Doubled coordinates: (x, y) with x + y even; y is the row (-8 .. 8, 0 = centre).
    # The star is the union of a triangle pointing up (apex (0, 8)) and one pointing down.
    up = {(x, y) for y in range(-4, 9) for x in range(-(8 - y), 8 - y + 1, 2)}
    down = {(x, y) for y in range(-8, 5) for x in range(-(8 + y), 8 + y + 1, 2)}
    coords = up | down
    names = {}
    for y in range(-8, 9):
        row = sorted(x for x, yy in coords if yy == y)
        for i, x in enumerate(row):
            names[(x, y)] = f"{LETTERS[i]}{y + 9}"
    directions = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
    camps = {
        ("S", 10): frozenset(c for c in coords if c[1] <= -5),
        ("N", 10): frozenset(c for c in coords if c[1] >= 5),
        ("NE", 10): frozenset(c for c in down - up if 1 <= c[1] <= 4 and c[0] > 0),
        ("NW", 10): frozenset(c for c in down - up if 1 <= c[1] <= 4 and c[0] < 0),
        ("SE", 10): frozenset(c for c in up - down if -4 <= c[1] <= -1 and c[0] > 0),
        ("SW", 10): frozenset(c for c in up - down if -4 <= c[1] <= -1 and c[0] < 0),
    }
    apexes = {"S": (0, -8), "N": (0, 8), "NE": (12, 4), "NW": (-12, 4), "SE": (12, -4),
              "SW": (-12, -4)}
    setups = {1: (("S",), 10), 2: (("S", "N"), 10), 3: (("S", "NW", "NE"), 10),
              4: (("SW", "NW", "NE", "SE"), 10), 6: (("S", "SW", "NW", "N", "NE", "SE"), 10)}
    return Topology("star", "Chinese checkers", coords, directions, (0.5, math.sqrt(3) / 2),
                    names, ("S", "SW", "NW", "N", "NE", "SE"), camps, apexes, setups)


HALMA = _halma()
STAR = _star()
#: The boards by key.
BOARDS: dict[str, Topology] = {"halma": HALMA, "star": STAR}


def get_topology(board: str | Topology) -> Topology:
    """The board called ``board`` (``"halma"`` or ``"star"``), or the topology itself.

    >>> get_topology("star") is STAR
    True
    """
    if isinstance(board, Topology):
        return board
    if board in BOARDS:
        return BOARDS[board]
    raise ValueError(f"unknown board {board!r}; choose 'halma' or 'star'")
