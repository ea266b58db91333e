"""The crossing solver's options: a search continued from the first moves of a crossing, and a
search whose second half is its first half turned round."""

from __future__ import annotations

import random

import pytest

from mathgames.core.errors import IllegalMoveError
from mathgames.halma.solutions import HOW_MET, best_crossing
from mathgames.halma.solver import (
    _bridge,
    _join,
    _mirror,
    _turn,
    _unmatched,
    _unmatched_change,
    advance_lower_bound,
    crossing_game,
    meet_crossing,
    replay_crossing,
    shorten_crossing,
    solve_crossing,
)


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


def _images(board):
    topo = crossing_game(board).topology
    return (_turn(topo), [_mirror(topo)[c] for c in _turn(topo)])


def test_the_turned_board_swaps_the_camps():
    for board, pieces in (("star", 10), ("halma", 19), ("halma", 13)):
        game = crossing_game(board, pieces)
        for image in _images(board):
            assert sorted(image[c] for c in game.homes[0]) == sorted(game.targets[0])
            assert all(image[image[c]] == c for c in range(game.topology.size))


def test_a_meeting_crossing_is_checked_and_short():
    found = meet_crossing("star", width=300)
    assert found is not None and 27 <= len(found) <= 40
    assert replay_crossing("star", found.moves).result().reason == "win"


def test_joining_a_path_to_its_turned_reversal_gives_a_crossing():
    # the 46-move Halma record: after 23 moves the position is its own image (the board
    # turned half round and reflected in its diagonal), so the first 23 moves, played
    # backwards on that image, finish the crossing; the join rebuilds it from the pairs
    record = best_crossing("halma", 19)
    topo = crossing_game("halma", 19).topology
    image = _images("halma")[1]
    middle = tuple(replay_crossing("halma", record[:23], 19).cells[0])
    assert _unmatched(middle, image) == 0 < _unmatched(middle, _images("halma")[0])
    pairs = [(topo.index(m.split("-")[0]), topo.index(m.split("-")[-1])) for m in record]
    joined = _join("halma", 19, pairs[:23], pairs[:23], _images("halma"))
    assert joined is not None and len(joined) == 46 and joined[:23] == record[:23]
    assert replay_crossing("halma", joined, 19).result().reason == "win"
    # a path that does not end on the other one turned is refused
    assert _join("halma", 19, pairs[:24], pairs[:23], _images("halma")) is None
    # the bridge from move 21: the 4 pieces whose image cell is empty move straight there
    game = replay_crossing("halma", record[:21], 19)
    cells = tuple(game.cells[0])
    assert _unmatched(cells, image) == 4
    steps = _bridge(cells, image, game.target_masks[0], topo)
    assert steps is not None and len(steps) == 4
    after = set(cells)
    for a, b in steps:
        after.remove(a)
        after.add(b)
    assert after == {image[c] for c in cells}
    # after 20 moves no such bridge exists
    game = replay_crossing("halma", record[:20], 19)
    assert _bridge(tuple(game.cells[0]), image, game.target_masks[0], topo) is None


def test_the_19_piece_record_beats_the_48_moves_of_issue_17():
    record = best_crossing("halma", 19)
    assert advance_lower_bound("halma", 19) <= len(record) <= 47
    assert replay_crossing("halma", record, 19).result().reason == "win"


@pytest.mark.parametrize("board", ["halma", "star"])
def test_the_unmatched_count_changes_as_the_pieces_move(board):
    # the beam updates "pieces whose turned cell is empty" move by move; recount it
    game = crossing_game(board)
    topo = game.topology
    images = _images(board)
    fixed = [sum(1 for c in range(topo.size) if image[c] == c) for image in images]
    assert fixed == ([0, 16] if board == "halma" else [1, 9])  # no cell / the anti-diagonal
    rng = random.Random(5)
    for _ in range(120):
        pairs = game.pair_moves()
        if not pairs or game.is_over():
            break
        a, b = rng.choice(pairs)
        before = tuple(game.cells[0])
        changes = [_unmatched_change(game.occ, image, a, b) for image in images]
        game.push_unchecked(a, b)
        after = tuple(game.cells[0])
        for image, change in zip(images, changes, strict=True):
            assert _unmatched(after, image) - _unmatched(before, image) == change


@pytest.mark.slow
def test_meet_crossing_refinds_the_19_piece_record():
    found = meet_crossing("halma", 19, **HOW_MET["halma-19"])
    assert found is not None and found.moves == best_crossing("halma", 19)


def test_a_meeting_search_after_a_prefix_plays_it_in_both_halves():
    record = best_crossing("star")
    found = meet_crossing("star", width=100, prefix=record[:6], max_moves=20)
    assert found is not None and found.moves[:6] == record[:6]
    assert replay_crossing("star", found.moves).result().reason == "win"
    with pytest.raises(IllegalMoveError):
        meet_crossing("star", width=10, prefix=("a1-a2",))
