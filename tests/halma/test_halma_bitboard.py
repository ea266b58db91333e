"""The bitboard engine finds exactly the moves of the game's generator and the naive reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.halma.bitboard import BitBoard, random_playout
from mathgames.halma.bots import RandomBot
from mathgames.halma.game import Game, pair_moves
from tests.halma.recorded_games import (
    SETUPS,
    load_reference,
    recorded_positions,
    reference_names,
    replay,
)

reference = load_reference()


def engine_moves(game: Game) -> set[tuple[int, int]]:
    return set(BitBoard.of(game.topology).pair_moves_of_game(game))


@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_recorded_games_have_the_same_moves_in_every_position(board, players):
    for game in recorded_positions(board, players, seed=players):
        moves = engine_moves(game)
        assert moves == set(game.pair_moves())
        if game.ply % 25 == 0:
            assert reference_names(game, moves) == set(reference.reference_moves_of_game(game))


@settings(max_examples=12, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_random_positions_have_the_same_moves(setup, seed, plies):
    board, players = setup
    game = Game(board, players)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        if game.is_over():  # a random game may end
            break
        game.play(bot.choose(game))
    p = game.to_move
    expected = pair_moves(game.occ, game.cells[p], game.topology, game.target_masks[p])
    assert engine_moves(game) == set(expected)  # the position's moves, over or not
    assert set(game.pair_moves()) == (set() if game.is_over() else set(expected))


def test_a_hand_built_position_with_a_long_chain():
    game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4", "f6", "h8"]})
    topo = game.topology
    moves = {topo.name(b) for _a, b in engine_moves(game)}
    assert moves == {"b1", "a2", "c3", "e5", "g7", "i9"}


@pytest.mark.parametrize("board", ["star", "halma"])
def test_random_playouts_are_legal_games(board):
    record: list = []
    playout = random_playout(board, 2, turns=150, seed=4, record=record)
    game = replay(board, 2, record)
    assert len(record) == playout.plies
    assert (playout.winner is not None) == bool(game.finished)
