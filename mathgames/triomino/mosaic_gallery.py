"""The gallery of silhouette puzzles: figures to fill exactly with face-down tiles.

The Russian Triomino text ends with what families do with the tiles turned face
down: children build a samurai with a sword, a snake, a bird, a cat. The gallery
holds those figures, drawn by us on the triangular lattice, from easy (6
triangles) to hard (52), each with a stored solution: the order in which one
student filled it. :class:`Puzzle` is plain data; a figure saved by anybody can
become a puzzle with :meth:`Puzzle.from_figure`.

>>> [p.key for p in GALLERY]
['honeycomb', 'fish', 'bird', 'snake', 'cat', 'samurai']
>>> [p.size for p in GALLERY]
[6, 8, 19, 27, 39, 52]
>>> from mathgames.triomino.mosaic import figure_from_ids
>>> fish = puzzle("fish")
>>> fish.is_filled_by(figure_from_ids(fish.solution))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mathgames.core.errors import IllegalMoveError, InvalidMoveError, quoted
from mathgames.core.i18n import translator
from mathgames.triomino.geometry import Cell
from mathgames.triomino.mosaic import (
    MAX_TILES,
    Figure,
    from_rows,
    has_holes,
    is_connected,
    normalise,
    perimeter,
    to_rows,
)

__all__ = ["GALLERY", "Puzzle", "puzzle"]

_ = translator("mosaic")


@dataclass(frozen=True)
class Puzzle:
    """A silhouette: ``rows`` draw it (see :func:`mathgames.triomino.mosaic.from_rows`),
    ``solution`` lists cell ids in the order one student placed the triangles."""

    key: str
    rows: tuple[str, ...]
    solution: tuple[str, ...] = ()
    level: str = "own"  # "easy", "medium", "hard" or "own" (made from a saved figure)

    @property
    def outline(self) -> Figure:
        """The cells to fill, with the figure's top-left at the origin."""
        return from_rows(self.rows)

    @property
    def size(self) -> int:
        """How many triangles fill it."""
        return len(self.outline)

    @property
    def perimeter(self) -> int:
        """The length of its border, in tile edges."""
        return perimeter(self.outline)

    @property
    def title(self) -> str:
        """The puzzle's name in the current language."""
        return {
            "honeycomb": _("Honeycomb"), "fish": _("Fish"), "bird": _("Bird"),
            "snake": _("Snake"), "cat": _("Cat"), "samurai": _("Samurai with a sword"),
        }.get(self.key, _("Your own figure"))

    def is_filled_by(self, figure: Iterable[Cell], offset: tuple[int, int] = (0, 0)) -> bool:
        """Whether ``figure`` covers the outline (moved by ``offset``) exactly: no gap, no extra.

        >>> p = puzzle("honeycomb")
        >>> p.is_filled_by({(x + 2, y + 2) for x, y in p.outline}, offset=(2, 2))
        True
        >>> p.is_filled_by(p.outline - {(1, 0)})
        False
        """
        dx, dy = offset
        return frozenset(figure) == frozenset((x + dx, y + dy) for x, y in self.outline)

    @classmethod
    def from_figure(cls, figure: Iterable[Cell], key: str = "own") -> Puzzle:
        """A new puzzle from any figure (a saved mosaic): it must be one connected piece
        of at most 56 triangles; its solution is the figure itself.

        >>> Puzzle.from_figure({(5, 3), (6, 3), (6, 4)}).rows
        ('##', '.#')
        >>> Puzzle.from_figure({(0, 0), (2, 0)})
        Traceback (most recent call last):
        ...
        mathgames.core.errors.IllegalMoveError: a puzzle must be one piece (joined edge to edge)
        """
        cells = normalise(figure)
        if not cells:
            raise IllegalMoveError("a puzzle needs at least one triangle")
        if len(cells) > MAX_TILES:
            raise IllegalMoveError(f"a puzzle may use at most {MAX_TILES} triangles")
        if not is_connected(cells):
            raise IllegalMoveError("a puzzle must be one piece (joined edge to edge)")
        rows = tuple(to_rows(cells))
        solution = tuple(f"c{x}_{y}" for x, y in sorted(cells, key=lambda c: (c[1], c[0])))
        return cls(key, rows, solution, "own")

    @property
    def has_holes(self) -> bool:
        """Whether the silhouette encloses empty triangles."""
        return has_holes(self.outline)


def _ids(text: str) -> tuple[str, ...]:
    return tuple(text.split())


#: The gallery, from the easiest to the hardest.
GALLERY: tuple[Puzzle, ...] = (
    Puzzle("honeycomb", (".###", ".###"), _ids("c3_1 c2_1 c1_1 c3_0 c2_0 c1_0"), "easy"),
    Puzzle("fish", ("####", "####"), _ids("c3_1 c2_1 c1_1 c0_1 c3_0 c2_0 c1_0 c0_0"), "easy"),
    Puzzle("bird", (".....#", "....###...###", ".##########", "..##"), _ids(
        "c3_3 c2_3 c10_2 c9_2 c8_2 c7_2 c6_2 c5_2 c4_2 c3_2 c2_2 c1_2 c12_1 c11_1 c10_1 c6_1 "
        "c5_1 c4_1 c5_0"), "medium"),
    Puzzle("snake", ("...............###", "......#####...####", "...#####..#####", "#####"),
           _ids("c4_3 c3_3 c2_3 c1_3 c0_3 c14_2 c13_2 c12_2 c11_2 c10_2 c7_2 c6_2 c5_2 c4_2 "
                "c3_2 c17_1 c16_1 c15_1 c14_1 c10_1 c9_1 c8_1 c7_1 c6_1 c17_0 c16_0 c15_0"),
           "medium"),
    Puzzle("cat", (".#...#", ".#####", "..###", "..###", ".#####.....#", "#######...##",
                   "###########"), _ids(
        "c10_6 c9_6 c8_6 c7_6 c6_6 c5_6 c4_6 c3_6 c2_6 c1_6 c0_6 c11_5 c10_5 c6_5 c5_5 c4_5 "
        "c3_5 c2_5 c1_5 c0_5 c11_4 c5_4 c4_4 c3_4 c2_4 c1_4 c4_3 c3_3 c2_3 c4_2 c3_2 c2_2 "
        "c5_1 c4_1 c3_1 c2_1 c1_1 c5_0 c1_0"), "hard"),
    Puzzle("samurai", (".............##", "............##", "...........##", "..###.....##",
                       ".#####...##", "..###...##", "#########", ".#####", ".#####", ".##..##",
                       "###..###"), _ids(
        "c7_10 c6_10 c5_10 c2_10 c1_10 c0_10 c6_9 c5_9 c2_9 c1_9 c5_8 c4_8 c3_8 c2_8 c1_8 "
        "c5_7 c4_7 c3_7 c2_7 c1_7 c8_6 c7_6 c6_6 c5_6 c4_6 c3_6 c2_6 c1_6 c0_6 c9_5 c8_5 "
        "c4_5 c3_5 c2_5 c10_4 c9_4 c5_4 c4_4 c3_4 c2_4 c1_4 c11_3 c10_3 c4_3 c3_3 c2_3 "
        "c12_2 c11_2 c13_1 c12_1 c14_0 c13_0"), "hard"),
)


def puzzle(key: str) -> Puzzle:
    """The gallery puzzle called ``key`` (:class:`InvalidMoveError` for an unknown one)."""
    for item in GALLERY:
        if item.key == key:
            return item
    raise InvalidMoveError(f"no puzzle called {quoted(key)} in the gallery")
