"""The crossing solver's options: a search continued from the first moves of a crossing."""

from __future__ import annotations

import pytest

from mathgames.core.errors import IllegalMoveError
from mathgames.halma.solutions import best_crossing
from mathgames.halma.solver import crossing_game, replay_crossing, shorten_crossing, solve_crossing


def test_a_search_continues_after_a_prefix_and_keeps_it():
    record = best_crossing("star")
    found = solve_crossing("star", width=100, prefix=record[:20], max_moves=20)
    assert found is not None
    assert found.moves[:20] == record[:20] and len(found) > 20
    assert replay_crossing("star", found.moves).result().reason == "win"
    # max_moves counts the moves after the prefix: after 20 moves 6 pieces are still outside
    # the target, so 5 more moves cannot finish
    outside = replay_crossing("star", record[:20]).cells[0]
    assert sum(1 for c in outside if c not in set(crossing_game("star").targets[0])) == 6
    assert solve_crossing("star", width=100, prefix=record[:20], max_moves=5) is None


def test_an_illegal_prefix_is_refused():
    with pytest.raises(IllegalMoveError):
        solve_crossing("star", width=10, prefix=("a1-a2",))


def test_a_beam_that_forgets_dropped_positions_still_crosses():
    found = solve_crossing("star", width=200, forget_dropped=True)
    assert found is not None and 27 <= len(found) <= 40
    assert replay_crossing("star", found.moves).result().reason == "win"


def test_shortening_undoes_a_chain_split_in_two_and_keeps_a_record():
    record = best_crossing("halma", 13)
    k = next(i for i, move in enumerate(record) if move.count("-") >= 2)
    cells = record[k].split("-")
    split = (*record[:k], "-".join(cells[:2]), "-".join(cells[1:]), *record[k + 1:])
    assert replay_crossing("halma", split, 13).result().reason == "win"
    shorter = shorten_crossing("halma", split, 13)
    assert len(shorter) == len(record) == len(split) - 1
    assert replay_crossing("halma", shorter, 13).result().reason == "win"
    with pytest.raises(ValueError, match="not a crossing"):
        shorten_crossing("halma", record[:-1], 13)
