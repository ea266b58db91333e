"""Scoring: every combination of the rules table, in rows and on diagonals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.core.errors import InvalidMoveError
from mathgames.matematiko import COMBINATIONS, combination_table, score_grid, score_line
from mathgames.matematiko.rules import DECK

# (cards, combination, row points, diagonal points): copied from the rules file's table.
TABLE = [
    ([3, 8, 3, 11, 5], "pair", 10, 20),
    ([3, 8, 3, 8, 5], "two_pairs", 20, 30),
    ([9, 2, 9, 13, 9], "three_of_a_kind", 40, 50),
    ([6, 7, 8, 9, 10], "straight", 50, 60),
    ([10, 8, 9, 7, 6], "straight", 50, 60),
    ([1, 2, 3, 4, 5], "straight", 50, 60),
    ([9, 10, 11, 12, 13], "straight", 50, 60),
    ([4, 12, 4, 12, 4], "full_house", 80, 90),
    ([1, 13, 1, 13, 1], "ones_and_thirteens", 100, 110),
    ([13, 10, 1, 12, 11], "one_and_ten_to_thirteen", 150, 160),
    ([5, 5, 2, 5, 5], "four_of_a_kind", 160, 170),
    ([13, 13, 13, 1, 13], "four_of_a_kind", 160, 170),
    ([1, 1, 7, 1, 1], "four_ones", 200, 210),
    ([1, 2, 3, 4, 6], "nothing", 0, 0),
    ([12, 13, 1, 2, 3], "nothing", 0, 0),   # nothing wraps around
    ([11, 12, 13, 1, 2], "nothing", 0, 0),
    ([2, 4, 6, 8, 10], "nothing", 0, 0),
]


@pytest.mark.parametrize(("cards", "name", "row", "diagonal"), TABLE)
def test_every_combination_in_a_row_and_on_a_diagonal(cards, name, row, diagonal):
    assert (score_line(cards).combination, score_line(cards).points) == (name, row)
    result = score_line(cards, diagonal=True)
    assert (result.combination, result.points) == (name, diagonal)


def test_competing_combinations_take_the_best_single_one():
    # a full house that is also 1-1-1-13-13 scores 100, not 80 (and not 80 + 100)
    assert score_line([13, 1, 1, 13, 1]).points == 100
    # 13-13-13-1-1 is an ordinary full house
    assert score_line([13, 13, 13, 1, 1]).points == 80
    # four 1s: 200, not 160; four 1s never count as a three or a pair besides
    assert score_line([1, 1, 1, 1, 13]).points == 200
    # 1,10,11,12,13 scores 150, never as a straight; 9..13 is a straight
    assert score_line([1, 10, 11, 12, 13]).combination == "one_and_ten_to_thirteen"
    assert score_line([9, 10, 11, 12, 13]).combination == "straight"
    # a diagonal scores 10 more only when it scores
    assert score_line([1, 3, 5, 7, 9], diagonal=True).points == 0


def test_the_table_is_exported_as_data():
    table = combination_table()
    assert [row["name"] for row in table] == [c.name for c in COMBINATIONS]
    assert [(row["row_points"], row["diagonal_points"]) for row in table] == [
        (0, 0), (10, 20), (20, 30), (40, 50), (50, 60), (80, 90), (100, 110), (150, 160),
        (160, 170), (200, 210)]


@pytest.mark.parametrize("bad", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4],
                                 [1, 2, 3, 4, 14], [2, 2, 2, 2, 2], ["1", 2, 3, 4, 5],
                                 [True, 2, 3, 4, 5]])
def test_bad_lines_are_refused(bad):
    with pytest.raises(InvalidMoveError):
        score_line(bad)


def test_a_grid_scores_rows_columns_and_both_diagonals():
    grid = [[1, 1, 1, 1, 5],
            [2, 9, 9, 9, 6],
            [3, 10, 7, 9, 7],
            [4, 11, 10, 8, 8],
            [5, 12, 13, 13, 13]]
    result = score_grid(grid)
    assert [line.points for line in result.rows] == [200, 40, 10, 10, 40]
    assert [line.points for line in result.columns] == [50, 0, 0, 10, 0]
    # \ : 1,9,7,8,13 nothing; / : 5,9,7,11,5 a pair on a diagonal
    assert [line.points for line in result.diagonals] == [0, 20]
    assert result.total == 380
    assert len(result.lines) == 12


def test_a_grid_with_more_than_four_of_a_number_is_refused():
    with pytest.raises(InvalidMoveError, match="5 cards 7"):
        score_grid([[7, 7, 7, 7, 7]] + [[1, 2, 3, 4, 5]] * 4)


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK))
def test_a_grid_total_is_the_sum_of_its_twelve_lines(deck):
    cells = list(deck[:25])
    rows = [cells[r * 5:r * 5 + 5] for r in range(5)]
    lines = [(row, False) for row in rows] + [([rows[r][c] for r in range(5)], False)
                                              for c in range(5)]
    lines.append(([rows[i][i] for i in range(5)], True))
    lines.append(([rows[i][4 - i] for i in range(5)], True))
    assert score_grid(rows).total == sum(score_line(cards, d).points for cards, d in lines)
