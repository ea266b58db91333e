"""Exact odds: what a line scores with random cards, as fractions.

Everything here is exact (:class:`fractions.Fraction`), computed by counting:
hands are enumerated by their *rank multiset* (how many 1s, 2s, ..., 13s), and a
multiset with ``k_v`` cards of value ``v`` stands for ``prod C(copies_v, k_v)``
different hands of real cards.

>>> probs = line_probabilities()
>>> sum(probs.values())
Fraction(1, 1)
>>> probs["four_ones"]
Fraction(1, 54145)
>>> round(float(expected_random_score()), 2)
86.89
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from mathgames.core.errors import InvalidMoveError, quoted
from mathgames.matematiko.rules import (
    COMBINATION_NAMES,
    COMBINATIONS,
    COPIES,
    GRID_SIZE,
    LINES,
    classify,
)

__all__ = [
    "CellHint",
    "expected_line_score",
    "expected_random_score",
    "line_outcome_probabilities",
    "line_probabilities",
    "placement_hints",
    "unseen_counts",
]

_ROW_POINTS = {c.name: c.row_points for c in COMBINATIONS}
_DIAGONAL_POINTS = {c.name: c.diagonal_points for c in COMBINATIONS}
_BINOMIAL = [[comb(n, k) for k in range(GRID_SIZE + 1)] for n in range(COPIES + 1)]


@cache
def _fills(size: int) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``size`` values (at most 4 of each): (sorted values, (value, k) pairs)."""
    result: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = []

    def extend(start: int, left: int, values: list[int], pairs: list[tuple[int, int]]) -> None:
        if left == 0:
            result.append((tuple(values), tuple(pairs)))
            return
        for value in range(start, 14):
            for k in range(1, min(left, COPIES) + 1):
                extend(value + 1, left - k, values + [value] * k, [*pairs, (value, k)])

    extend(1, size, [], [])
    return tuple(result)


@cache
def _classify_sorted(cards: tuple[int, ...]) -> str:
    return classify(cards)


def _weights(content: tuple[int, ...], counts: Sequence[int]) -> tuple[dict[str, int], int]:
    """Hands completing a line, by combination: (counts per name, number of hands).

    ``content`` is the line's cards; ``counts[v]`` the unseen copies of value ``v``.
    """
    empty = GRID_SIZE - len(content)
    tally = dict.fromkeys(COMBINATION_NAMES, 0)
    binomial = _BINOMIAL
    for values, pairs in _fills(empty):
        weight = 1
        for value, k in pairs:
            weight *= binomial[counts[value]][k]
            if not weight:
                break
        if weight:
            tally[_classify_sorted(tuple(sorted(content + values)))] += weight
    return tally, comb(sum(counts[1:]), empty)


def unseen_counts(called: Iterable[int] = ()) -> list[int]:
    """Copies of each value not yet called: ``counts[v]`` for v in 1..13 (index 0 unused).

    >>> unseen_counts([5, 5, 13])[5], unseen_counts([5, 5, 13])[13]
    (2, 3)
    """
    counts = [0] + [COPIES] * 13
    for card in called:
        if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 13:
            raise InvalidMoveError(
                f"called cards: {quoted(card)} is not a card (cards are 1 to 13)")
        counts[card] -= 1
        if counts[card] < 0:
            raise InvalidMoveError(f"called cards: more than {COPIES} cards {card}")
    return counts


def _line_content(line: Sequence[int | None]) -> tuple[int, ...]:
    cards = [card for card in line if card is not None]
    if len(line) > GRID_SIZE:
        raise InvalidMoveError(f"line: {len(line)} cells, a line has {GRID_SIZE}")
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= 13:
            raise InvalidMoveError(f"line: {quoted(card)} is not a card (cards are 1 to 13)")
    return tuple(sorted(cards))


def _counts_after(content: tuple[int, ...], called: Iterable[int] | None) -> list[int]:
    if called is None:
        return unseen_counts(content)
    counts = unseen_counts(called)
    seen = Counter(called)
    for value, k in Counter(content).items():
        if seen[value] < k:
            raise InvalidMoveError(
                f"line: it holds {k} cards {value} but only {seen[value]} were called")
    return counts


def line_outcome_probabilities(line: Sequence[int | None] = (),
                               called: Iterable[int] | None = None) -> dict[str, Fraction]:
    """The exact chance of each final combination of a partly filled line.

    ``line`` holds the line's cards (``None`` or missing entries are empty cells);
    its empty cells are filled with random cards from the rest of the deck, that
    is the 52 cards minus ``called`` (every number called so far, which must
    include the line's cards; by default just the line's cards).

    >>> p = line_outcome_probabilities([7, 7, 7, 7, None])
    >>> p["four_of_a_kind"]
    Fraction(1, 1)
    >>> line_outcome_probabilities([2, 3, 4, 5], called=[2, 3, 4, 5, 6, 6])["straight"]
    Fraction(3, 23)
    """
    content = _line_content(line)
    counts = _counts_after(content, None if called is None else list(called))
    tally, total = _weights(content, counts)
    if total == 0:
        raise InvalidMoveError("line: not enough cards left in the deck to fill it")
    return {name: Fraction(weight, total) for name, weight in tally.items()}


def line_probabilities() -> dict[str, Fraction]:
    """The exact chance of each combination in 5 random cards from the full deck.

    >>> line_probabilities()["pair"]
    Fraction(352, 833)
    """
    return line_outcome_probabilities(())


def expected_line_score(line: Sequence[int | None] = (), called: Iterable[int] | None = None,
                        diagonal: bool = False) -> Fraction:
    """The exact expected final points of a line whose empty cells get random cards.

    >>> expected_line_score([1, 1, 1, 13, 13])
    Fraction(100, 1)
    >>> expected_line_score([1, 1, 1, 13, 13], diagonal=True)
    Fraction(110, 1)
    """
    points = _DIAGONAL_POINTS if diagonal else _ROW_POINTS
    probabilities = line_outcome_probabilities(line, called)
    return sum((p * points[name] for name, p in probabilities.items()), Fraction(0))


def expected_random_score() -> Fraction:
    """The exact expected total of a grid filled with 25 random cards placed at random.

    Every line of such a grid is 5 random cards of the deck, so the total's
    expectation is 10 rows and columns plus 2 diagonals.

    >>> expected_random_score()
    Fraction(2822740, 32487)
    """
    return 10 * expected_line_score() + 2 * expected_line_score(diagonal=True)


@dataclass(frozen=True)
class CellHint:
    """Expected final points of the lines through a cell if the current card goes there."""

    cell: int
    row: Fraction
    column: Fraction
    diagonals: tuple[Fraction, ...]

    @property
    def total(self) -> Fraction:
        """The lines through the cell together."""
        return self.row + self.column + sum(self.diagonals, Fraction(0))


def placement_hints(grid: Sequence[int | None], card: int,
                    called: Iterable[int]) -> dict[int, CellHint]:
    """For each empty cell, the expected final value of its lines if ``card`` goes there.

    ``grid`` is 25 cells read row by row (``None`` when empty); ``called`` is
    every number called so far, ``card`` (the current one) included. The other
    empty cells of each line are filled at random from the rest of the deck.

    >>> hints = placement_hints([None] * 25, 7, [7])
    >>> hints[0].row == hints[1].row, len(hints[0].diagonals), len(hints[1].diagonals)
    (True, 1, 0)
    """
    if len(grid) != GRID_SIZE * GRID_SIZE:
        raise InvalidMoveError(f"grid: {len(grid)} cells, a grid has 25")
    counts = _counts_after(tuple(sorted([c for c in grid if c is not None] + [card])),
                           list(called))
    cache: dict[tuple[tuple[int, ...], bool], Fraction] = {}

    def value(cells: tuple[int, ...], diagonal: bool) -> Fraction:
        content = tuple(sorted([grid[i] for i in cells if grid[i] is not None] + [card]))
        key = (content, diagonal)
        if key not in cache:
            tally, total = _weights(content, counts)
            points = _DIAGONAL_POINTS if diagonal else _ROW_POINTS
            cache[key] = Fraction(sum(w * points[n] for n, w in tally.items()), total or 1)
        return cache[key]

    hints = {}
    for cell in range(GRID_SIZE * GRID_SIZE):
        if grid[cell] is not None:
            continue
        found = [(index, cells) for index, (_name, cells) in enumerate(LINES) if cell in cells]
        row = value(found[0][1], False)
        column = value(found[1][1], False)
        diagonals = tuple(value(cells, True) for _index, cells in found[2:])
        hints[cell] = CellHint(cell, row, column, diagonals)
    return hints


