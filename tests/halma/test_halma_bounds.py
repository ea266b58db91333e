"""The advance lower bound of a solitaire crossing: its lemma on real games, and the records."""

from __future__ import annotations

import pytest

from mathgames.halma.bots import GreedyBot, RandomBot
from mathgames.halma.solutions import SOLUTIONS
from mathgames.halma.solver import (
    advance_bound,
    advance_lower_bound,
    crossing_game,
    parity_lower_bound,
    replay_crossing,
)


def test_the_advance_bound_beats_parity_and_stays_below_the_known_crossings():
    assert advance_lower_bound("halma", 19) == 28 > parity_lower_bound("halma", 19) == 22
    assert advance_lower_bound("halma", 13) == 23 > parity_lower_bound("halma", 13) == 14
    assert parity_lower_bound("star") < advance_lower_bound("star") == 19 <= 27  # Bell 2009
    for key, moves in SOLUTIONS.items():
        board, pieces = key.split("-")
        assert replay_crossing(board, moves, int(pieces)).result().reason == "win"
        assert len(moves) >= advance_lower_bound(board, int(pieces)), key


@pytest.mark.parametrize(("board", "pieces", "most"), [("halma", 19, 2), ("halma", 13, 2),
                                                       ("star", 10, 1)])
def test_the_front_gains_at_most_k_rows_a_move(board, pieces, most):
    # the lemma behind the bound, on crossings by greedy and random play and the records
    games = []
    for bot in (GreedyBot(seed=1), RandomBot(seed=2)):
        game = crossing_game(board, pieces)
        moves = []
        while not game.is_over() and game.ply < 150:
            move = bot.choose(game)
            moves.append(str(move))
            game.play(move)
        games.append(moves)
    games.append(list(SOLUTIONS[f"{board}-{pieces}"]))
    for moves in games:
        game = crossing_game(board, pieces)
        rows = game.topology.rows_to(game.target_corners[0])
        front = min(rows[c] for c in game.cells[0])
        for move in moves:
            game.play(move)
            now = min(rows[c] for c in game.cells[0])
            assert front - now <= most
            front = now


@pytest.mark.parametrize(("board", "pieces", "figures"), [
    ("halma", 19, (2, 5, 25, 9, 28)), ("halma", 13, (2, 4, 26, 10, 23)),
    ("star", 10, (1, 3, 13, 9, 19))])
def test_the_bound_s_figures_hold_along_the_stored_crossings(board, pieces, figures):
    # the figures the lesson prints: K, the home front M0, the target's nearest row L, the
    # blind moves F; along the record the front stays within M0 + K * j and no piece
    # enters the target in the first F moves
    b = advance_bound(board, pieces)
    assert (b.gain, b.front, b.nearest, b.blind, b.bound) == figures
    assert b.bound == advance_lower_bound(board, pieces) == b.blind + pieces
    assert b.front + b.gain * b.blind < b.nearest <= b.front + b.gain * (b.blind + 1)
    game = crossing_game(board, pieces)
    rows = game.topology.rows_to(game.target_corners[0])
    first_entry = None
    for j, move in enumerate(SOLUTIONS[f"{board}-{pieces}"], start=1):
        game.play(move)
        assert max(b.far - rows[c] for c in game.cells[0]) <= b.front + b.gain * j
        if first_entry is None and any(game.target_masks[0][c] for c in game.cells[0]):
            first_entry = j
    assert first_entry is not None and first_entry > b.blind
