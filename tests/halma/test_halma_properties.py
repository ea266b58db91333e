"""Property tests: random games on both boards and every player count."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mathgames.halma.bots import RandomBot
from mathgames.halma.game import Game

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("halma_reference_props",
                                               ROOT / "bench" / "halma_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]


@settings(max_examples=14, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6),
       limit=st.integers(1, 80), rule=st.sampled_from(["bounded", "literal"]))
# issue 57's random game: player 0 finishes at ply 90 under the literal fill rule, and the
# round is played out past the limit
@example(setup=("star", 6), seed=683, limit=93, rule="literal")
def test_random_games_keep_the_invariants_and_end_at_the_limit(setup, seed, limit, rule):
    board, players = setup
    game = Game(board, players, move_limit=limit, fill_rule=rule)
    bot = RandomBot(seed=seed)
    start = game.position_text()
    size = game.topology.size
    while not game.is_over():
        mover = game.to_move
        locked_before = {c for c in game.cells[mover] if game.target_masks[mover][c]}
        if game.ply % 7 == 0:  # the oracle, now and then
            engine = {(m.start, m.end) for m in game.legal_moves() if not m.is_pass}
            assert engine == set(reference.reference_moves_of_game(game))
        move = bot.choose(game)
        game.play(move)
        # piece counts stay, pieces stay on the board, the board agrees with the piece lists
        assert all(len(cells) == game.pieces for cells in game.cells)
        assert all(0 <= c < size for cells in game.cells for c in cells)
        assert sum(1 for v in game.occ if v) == game.pieces * players
        for p, cells in enumerate(game.cells):
            assert all(game.occ[c] == p + 1 for c in cells)
        # a piece in its target never leaves it
        if not move.is_pass and game.topology.index(move.start) in locked_before:
            assert game.target_masks[mover][game.topology.index(move.end)]
        assert sum(1 for c in game.cells[mover] if game.target_masks[mover][c]) >= len(
            locked_before)
    result = game.result()
    assert result.over
    if game.finished:  # someone finished before the limit: the round is played out
        first = min(game.finished.values())
        assert first < limit and game.ply == first + players - first % players
        assert result.reason in ("win", "shared")
    else:
        assert game.ply == limit or result.reason == "blocked"
    while game.history:
        game.undo()
    assert game.position_text() == start


@settings(max_examples=10, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_position_text_round_trips_anywhere(setup, seed, plies):
    board, players = setup
    game = Game(board, players, move_limit=200)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        if game.is_over():  # a random game may end
            break
        game.play(bot.choose(game))
    text = game.position_text()
    again = Game.from_position_text(text)
    assert again.position_text() == text
    assert {str(m) for m in again.legal_moves()} == {str(m) for m in game.legal_moves()}
