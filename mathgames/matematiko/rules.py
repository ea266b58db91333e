"""Scoring a Matematiko line and a whole 5x5 grid.

Each of the 5 rows, 5 columns and 2 long diagonals scores the single best
combination it contains (order does not matter; 1 is low; nothing wraps
around). A long diagonal scores 10 more than a row, but only when it scores.

>>> score_line([7, 7, 3, 7, 3]).points
80
>>> score_line([1, 13, 1, 13, 1]).combination
'ones_and_thirteens'
>>> score_line([13, 12, 1, 11, 10], diagonal=True).points
160
>>> score_line([12, 13, 1, 2, 3]).points
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from mathgames.core.errors import InvalidMoveError, quoted

__all__ = [
    "CARD_VALUES",
    "COMBINATIONS",
    "COMBINATION_NAMES",
    "COPIES",
    "DECK",
    "DECK_SIZE",
    "DIAGONAL_BONUS",
    "GRID_SIZE",
    "LINES",
    "LINE_NAMES",
    "Combination",
    "GridScore",
    "LineScore",
    "classify",
    "combination",
    "combination_table",
    "score_grid",
    "score_line",
]

#: The card values: 1 to 13.
CARD_VALUES: tuple[int, ...] = tuple(range(1, 14))
#: Copies of each value in the deck.
COPIES = 4
#: The 52 cards, in order.
DECK: tuple[int, ...] = tuple(v for v in CARD_VALUES for _ in range(COPIES))
DECK_SIZE = len(DECK)
#: Side of the grid: 5x5 cells, 25 cards a game.
GRID_SIZE = 5
#: What a long diagonal scores more than a row (only when it scores at all).
DIAGONAL_BONUS = 10


@dataclass(frozen=True)
class Combination:
    """One row of the scoring table: a name, its English label and its points."""

    name: str
    label: str
    row_points: int
    diagonal_points: int

    def points(self, diagonal: bool = False) -> int:
        """The points in a row or column, or on a long diagonal."""
        return self.diagonal_points if diagonal else self.row_points


#: The scoring table, from nothing to the best; ``name`` is the key used everywhere.
COMBINATIONS: tuple[Combination, ...] = (
    Combination("nothing", "nothing", 0, 0),
    Combination("pair", "one pair", 10, 20),
    Combination("two_pairs", "two pairs", 20, 30),
    Combination("three_of_a_kind", "three equal numbers", 40, 50),
    Combination("straight", "five consecutive numbers", 50, 60),
    Combination("full_house", "full house", 80, 90),
    Combination("ones_and_thirteens", "three 1s and two 13s", 100, 110),
    Combination("one_and_ten_to_thirteen", "1, 10, 11, 12, 13", 150, 160),
    Combination("four_of_a_kind", "four equal numbers", 160, 170),
    Combination("four_ones", "four 1s", 200, 210),
)
COMBINATION_NAMES: tuple[str, ...] = tuple(c.name for c in COMBINATIONS)
_BY_NAME = {c.name: c for c in COMBINATIONS}


def combination(name: str) -> Combination:
    """The table row of a combination name.

    >>> combination("straight").diagonal_points
    60
    >>> combination("royal flush")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: unknown combination 'royal flush'
    """
    found = _BY_NAME.get(name) if isinstance(name, str) else None
    if found is None:
        raise InvalidMoveError(f"unknown combination {quoted(name)}")
    return found


def combination_table() -> list[dict[str, object]]:
    """The scoring table as plain data (for a lesson notebook or a DataFrame).

    >>> combination_table()[1]
    {'name': 'pair', 'label': 'one pair', 'row_points': 10, 'diagonal_points': 20}
    """
    return [
        {"name": c.name, "label": c.label, "row_points": c.row_points,
         "diagonal_points": c.diagonal_points}
        for c in COMBINATIONS
    ]


_SPECIAL_150 = (1, 10, 11, 12, 13)


def classify(cards: Sequence[int]) -> str:
    """The name of the best combination in five (valid) cards; no checks, for speed.

    >>> classify((1, 1, 1, 1, 9)), classify((2, 3, 4, 5, 6)), classify((1, 2, 3, 4, 6))
    ('four_ones', 'straight', 'nothing')
    """
    return _classify_sorted(tuple(sorted(cards)))


@cache
def _classify_sorted(ordered: tuple[int, ...]) -> str:
    """:func:`classify` of sorted cards (at most 6,188 five-card hands: each is worked out once)."""
    counts = Counter(ordered)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 4:
        return "four_ones" if counts[1] == 4 else "four_of_a_kind"
    if shape[0] == 3:
        if shape[1] == 2:
            return "ones_and_thirteens" if counts[1] == 3 and counts[13] == 2 else "full_house"
        return "three_of_a_kind"
    if shape[0] == 2:
        return "two_pairs" if shape[1] == 2 else "pair"
    if ordered == _SPECIAL_150:
        return "one_and_ten_to_thirteen"
    if ordered[4] - ordered[0] == 4:
        return "straight"
    return "nothing"


@dataclass(frozen=True)
class LineScore:
    """What one line scores: its cards, its best combination and its points."""

    cards: tuple[int, ...]
    combination: str
    points: int
    diagonal: bool = False
    name: str = ""

    @property
    def label(self) -> str:
        """The English label of the combination (translate it for display)."""
        return _BY_NAME[self.combination].label


def _check_cards(cards: Iterable[int], where: str) -> tuple[int, ...]:
    try:
        values = tuple(cards)
    except TypeError:
        raise InvalidMoveError(f"{where}: expected a sequence of numbers") from None
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 13:
            raise InvalidMoveError(f"{where}: {quoted(value)} is not a card (cards are 1 to 13)")
    return values


def score_line(cards: Iterable[int], diagonal: bool = False) -> LineScore:
    """Score five cards as a row or column, or (``diagonal=True``) as a long diagonal.

    >>> s = score_line([4, 9, 4, 2, 9])
    >>> s.points, s.combination
    (20, 'two_pairs')
    >>> score_line([4, 9, 4, 2, 9], diagonal=True).points
    30
    >>> score_line([1, 2, 3], diagonal=True)
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: line: 3 cards, a line has 5
    """
    values = _check_cards(cards, "line")
    if len(values) != GRID_SIZE:
        raise InvalidMoveError(f"line: {len(values)} cards, a line has {GRID_SIZE}")
    value, copies = Counter(values).most_common(1)[0]
    if copies > COPIES:
        raise InvalidMoveError(f"line: {copies} cards {value}, the deck has only {COPIES}")
    name = classify(values)
    return LineScore(values, name, _BY_NAME[name].points(diagonal), bool(diagonal))


def _line_cells() -> tuple[tuple[str, tuple[int, ...]], ...]:
    n = GRID_SIZE
    rows = [(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    cols = [(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    diagonals = [
        ("diagonal \\", tuple(i * n + i for i in range(n))),
        ("diagonal /", tuple(i * n + (n - 1 - i) for i in range(n))),
    ]
    return tuple(rows + cols + diagonals)


#: The 12 scoring lines as (name, cell indices 0..24 read row by row).
LINES: tuple[tuple[str, tuple[int, ...]], ...] = _line_cells()
LINE_NAMES: tuple[str, ...] = tuple(name for name, _cells in LINES)


@dataclass(frozen=True)
class GridScore:
    """The 12 line results of a full grid and their total."""

    lines: tuple[LineScore, ...]

    @property
    def total(self) -> int:
        """The sum of the 12 lines."""
        return sum(line.points for line in self.lines)

    @property
    def rows(self) -> tuple[LineScore, ...]:
        return self.lines[0:5]

    @property
    def columns(self) -> tuple[LineScore, ...]:
        return self.lines[5:10]

    @property
    def diagonals(self) -> tuple[LineScore, ...]:
        return self.lines[10:12]


def score_grid(rows: Sequence[Sequence[int]]) -> GridScore:
    """Score a full 5x5 grid (5 rows of 5 cards): the 12 lines and the total.

    >>> grid = [[1, 2, 3, 4, 5], [6, 6, 6, 9, 9], [7, 7, 8, 8, 10],
    ...         [11, 11, 11, 11, 2], [13, 12, 1, 10, 3]]
    >>> result = score_grid(grid)
    >>> [line.points for line in result.rows], result.total
    ([50, 80, 20, 160, 0], 310)
    """
    try:
        rows = [list(row) for row in rows]
    except TypeError:
        raise InvalidMoveError("grid: expected 5 rows of 5 numbers") from None
    if len(rows) != GRID_SIZE or any(len(row) != GRID_SIZE for row in rows):
        raise InvalidMoveError("grid: expected 5 rows of 5 numbers")
    cells = [v for r, row in enumerate(rows) for v in _check_cards(row, f"row {r + 1}")]
    value, copies = Counter(cells).most_common(1)[0]
    if copies > COPIES:
        raise InvalidMoveError(f"grid: {copies} cards {value}, the deck has only {COPIES}")
    results = []
    for index, (name, line_cells) in enumerate(LINES):
        line = tuple(cells[i] for i in line_cells)
        diagonal = index >= 10
        combo = classify(line)
        results.append(LineScore(line, combo, _BY_NAME[combo].points(diagonal), diagonal, name))
    return GridScore(tuple(results))
