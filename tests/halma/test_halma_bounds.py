"""The advance lower bound of a solitaire crossing: its lemma on real games, and the records."""

from __future__ import annotations

import pytest

from mathgames.halma.bots import GreedyBot, RandomBot
from mathgames.halma.solutions import SOLUTIONS
from mathgames.halma.solver import (
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
