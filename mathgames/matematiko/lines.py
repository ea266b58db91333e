"""A grid's twelve lines as the bots count them: what both the bots and their imagined games use.

:mod:`mathgames.matematiko.bots` (the evaluation and the searches) and
:mod:`mathgames.matematiko.rollouts` (the same evaluation over flat arrays, compiled
by numba) both import this module, and neither imports the other's insides: the
lines through each cell, a line's sorted cards, a full line's and a full grid's
exact points, the stages of the game that learned weights are kept by, and the
odds that copies of a value come in the next draws.

>>> grid = [None] * 25
>>> grid[0], grid[6] = 7, 7
>>> CELL_LINES[0], line_contents(grid)[0], line_contents(grid)[10]
((0, 5, 10), (7,), (7, 7))
>>> full_line_points((3, 3, 7, 7, 7)), stage_of(24), tail_row(1, 2, 1)[1]
((80, 90), 0, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

from mathgames.matematiko.rules import COMBINATIONS, GRID_SIZE, LINES, classify

__all__ = ["CELLS", "CELL_LINES", "DIAGONAL_POINTS", "ROW_POINTS", "STAGES", "full_line_points",
           "grid_points", "line_contents", "stage_of", "tail_row"]

#: Cells of a grid, numbered 0-24 row by row.
CELLS = GRID_SIZE * GRID_SIZE
#: A combination's points in a row or a column, and in a long diagonal, by its name.
ROW_POINTS: dict[str, int] = {c.name: c.row_points for c in COMBINATIONS}
DIAGONAL_POINTS: dict[str, int] = {c.name: c.diagonal_points for c in COMBINATIONS}
#: For each cell, the indices (into ``rules.LINES``; 10 and 11 are the diagonals) of the
#: lines through it.
CELL_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (_name, cells) in enumerate(LINES) if cell in cells) for cell in range(CELLS)
)
#: Stages of the game for learned weights: 4 numbers placed a stage, the last up to 24.
STAGES = 6


def line_contents(grid: Sequence[int | None]) -> list[tuple[int, ...]]:
    """The sorted cards of each of the 12 lines of ``grid`` (25 cells, None when empty).

    >>> line_contents([13] + [None] * 24)[:2]
    [(13,), ()]
    """
    return [tuple(sorted(grid[i] for i in cells if grid[i] is not None))
            for _name, cells in LINES]


@cache
def full_line_points(content: tuple[int, ...]) -> tuple[int, int]:
    """(row points, diagonal points) of a full line's sorted cards (cached).

    >>> full_line_points((3, 3, 7, 7, 7))
    (80, 90)
    """
    name = classify(content)
    return ROW_POINTS[name], DIAGONAL_POINTS[name]


def grid_points(contents: Sequence[tuple[int, ...]]) -> int:
    """The exact score of a full grid given its 12 lines' sorted cards (see ``rules.LINES``).

    >>> from mathgames.matematiko.rules import score_grid
    >>> grid = [7, 7, 7, 7, 1] + [2, 3, 4, 5, 6] * 4
    >>> rows = [grid[r:r + 5] for r in range(0, 25, 5)]
    >>> grid_points(line_contents(grid)) == score_grid(rows).total
    True
    """
    return sum(full_line_points(content)[line >= 10] for line, content in enumerate(contents))


def stage_of(draws: int) -> int:
    """The stage of a grid with ``draws`` numbers still to come (0-5).

    >>> stage_of(24), stage_of(21), stage_of(20), stage_of(0)
    (0, 0, 1, 5)
    """
    return min(max(CELLS - 1 - draws, 0) // 4, STAGES - 1)


@cache
def tail_row(copies: int, unseen: int, draws: int) -> tuple[float, ...]:
    """The chances that at least 0, 1, ... 4 of a value's ``copies`` come in the next
    ``draws`` of ``unseen`` cards (hypergeometric; cached, the searches ask often).

    >>> tail_row(1, 2, 1)
    (1.0, 0.5, 0.0, 0.0, 0.0)
    """
    total = comb(unseen, draws) if draws <= unseen else 0
    exact = [comb(copies, j) * comb(unseen - copies, draws - j) / total
             if total and j <= draws else 0.0 for j in range(5)]
    return (1.0, *(sum(exact[m:]) for m in range(1, 5)))
