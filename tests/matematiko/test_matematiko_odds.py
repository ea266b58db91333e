"""Exact odds against enumeration of real hands and textbook counts."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from mathgames.matematiko import odds
from mathgames.matematiko.rules import COMBINATIONS, DECK, classify

ROW = {c.name: c.row_points for c in COMBINATIONS}
DIAGONAL = {c.name: c.diagonal_points for c in COMBINATIONS}


def test_line_probabilities_by_enumerating_all_2598960_hands():
    """Every 5-card subset of the 52 cards, classified (sorted ranks -> name table)."""
    names = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) <= 4:
            names[ranks] = classify(ranks)
    rank = [card // 4 + 1 for card in range(52)]  # card 0..51, four of each rank
    tally: Counter[tuple[int, ...]] = Counter()
    for hand in itertools.combinations(range(52), 5):
        # combinations come in increasing order, so the ranks are already sorted
        tally[(rank[hand[0]], rank[hand[1]], rank[hand[2]], rank[hand[3]], rank[hand[4]])] += 1
    assert sum(tally.values()) == comb(52, 5) == 2_598_960
    counts = Counter()
    for ranks, n in tally.items():
        counts[names[ranks]] += n
    expected = {name: Fraction(counts[name], comb(52, 5)) for name in ROW}
    assert odds.line_probabilities() == expected


def test_line_probabilities_match_textbook_counts():
    # poker counts (ace low only, 13 ranks, no suits that matter): derived by hand
    textbook = {
        "pair": 13 * comb(4, 2) * comb(12, 3) * 4 ** 3,          # 1,098,240
        "two_pairs": comb(13, 2) * comb(4, 2) ** 2 * 11 * 4,      # 123,552
        "three_of_a_kind": 13 * comb(4, 3) * comb(12, 2) * 16,    # 54,912
        "straight": 9 * 4 ** 5,                                   # 1-5 .. 9-13
        "full_house": 13 * 4 * 12 * 6 - 4 * 6,                    # minus 1-1-1-13-13
        "ones_and_thirteens": 4 * 6,
        "one_and_ten_to_thirteen": 4 ** 5,
        "four_of_a_kind": 12 * 48,
        "four_ones": 48,
    }
    textbook["nothing"] = comb(52, 5) - sum(textbook.values())
    probabilities = odds.line_probabilities()
    assert sum(probabilities.values()) == 1
    assert all(isinstance(p, Fraction) for p in probabilities.values())
    assert probabilities == {n: Fraction(textbook[n], comb(52, 5)) for n in ROW}
    # the exact expectation of a random grid: 10 rows/columns and 2 diagonals
    expected = sum(Fraction(textbook[n], comb(52, 5)) * (10 * ROW[n] + 2 * DIAGONAL[n])
                   for n in ROW)
    assert odds.expected_random_score() == expected
    assert abs(float(expected) - 86.9) < 0.05


def _brute_force(line, called):
    unseen = list(DECK)
    for card in called:
        unseen.remove(card)
    empty = 5 - len(line)
    tally = Counter(classify(tuple(line) + fill) for fill in itertools.combinations(unseen, empty))
    total = sum(tally.values())
    return {name: Fraction(tally[name], total) for name in ROW}


@pytest.mark.parametrize(("line", "extra_called"), [
    ([2, 3, 4, 5], [6, 6, 1]),
    ([1, 1, 13], [13, 1, 7]),
    ([7, 7], [7, 9, 9, 9]),
    ([10, 11, 12], [1, 1, 1, 13]),
    ([4], [4, 4, 5, 6, 7, 8]),
    ([], [3, 3, 3]),
])
def test_conditional_odds_against_brute_force(line, extra_called):
    called = line + extra_called
    exact = odds.line_outcome_probabilities(line, called=called)
    assert exact == _brute_force(line, called)
    assert odds.expected_line_score(line, called, diagonal=True) == sum(
        p * DIAGONAL[n] for n, p in exact.items())


def test_conditional_odds_accept_empty_cells_as_none():
    assert odds.line_outcome_probabilities([None, 5, None, 5, None]) == \
        odds.line_outcome_probabilities([5, 5])


def test_conditional_odds_refuse_a_line_of_cards_not_called():
    with pytest.raises(ValueError, match="only 0 were called"):
        odds.line_outcome_probabilities([9], called=[1, 2])


def test_placement_hints_are_the_expected_values_of_the_lines():
    grid = [None] * 25
    grid[0], grid[1], grid[6] = 5, 6, 5
    called = [5, 6, 5, 7]
    hints = odds.placement_hints(grid, 7, called)
    assert set(hints) == set(range(25)) - {0, 1, 6}
    # cell 2 (row 1, column 3): row 5,6,7; column 7 alone; no diagonal
    hint = hints[2]
    assert hint.row == odds.expected_line_score([5, 6, 7], called)
    assert hint.column == odds.expected_line_score([7], called)
    assert hint.diagonals == ()
    # cell 12 (the centre) is on both diagonals; the \ one holds the 5 of cell 6
    centre = hints[12]
    assert centre.diagonals == (odds.expected_line_score([5, 5, 7], called, diagonal=True),
                                odds.expected_line_score([7], called, diagonal=True))
    assert centre.total == centre.row + centre.column + sum(centre.diagonals)
