"""The bitboard engine finds exactly the moves of the game's generator and the naive reference."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.halma.bitboard import BitBoard, random_playout
from mathgames.halma.bots import GreedyBot, RandomBot
from mathgames.halma.game import Game

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("halma_reference_bitboard",
                                               ROOT / "bench" / "halma_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]


def engine_moves(game: Game) -> set[tuple[int, int]]:
    return set(BitBoard.of(game.topology).pair_moves_of_game(game))


@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_recorded_games_have_the_same_moves_in_every_position(board, players):
    # greedy games with some random moves reach every stage, the goal lock included
    rng = random.Random(players)
    game = Game(board, players, move_limit=500)
    bots = [GreedyBot(seed=p) if p % 2 == 0 else RandomBot(seed=p) for p in range(players)]
    locked = 0
    while not game.is_over():
        moves = engine_moves(game)
        assert moves == set(game.pair_moves())
        if game.ply % 25 == 0:
            topo = game.topology
            ref = reference.reference_moves_of_game(game)
            assert {(topo.name(a), topo.name(b)) for a, b in moves} == set(ref)
        mover = game.to_move
        locked += sum(1 for c in game.cells[mover] if game.target_masks[mover][c])
        pair = bots[mover].choose_pair(game) if rng.random() < 0.9 else None
        if pair is None:
            pairs = game.pair_moves()
            pair = rng.choice(pairs) if pairs else None
        if pair is None:
            game.play("pass")
        else:
            game.push_unchecked(*pair)
    assert locked > 0  # the goal lock was exercised


@settings(max_examples=12, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_random_positions_have_the_same_moves(setup, seed, plies):
    board, players = setup
    game = Game(board, players)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        game.play(bot.choose(game))
    assert engine_moves(game) == set(game.pair_moves())


def test_a_hand_built_position_with_a_long_chain():
    game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4", "f6", "h8"]})
    topo = game.topology
    moves = {topo.name(b) for _a, b in engine_moves(game)}
    assert moves == {"b1", "a2", "c3", "e5", "g7", "i9"}


@pytest.mark.parametrize("board", ["star", "halma"])
def test_random_playouts_are_legal_games(board):
    record: list = []
    playout = random_playout(board, 2, turns=150, seed=4, record=record)
    game = Game(board, 2)
    for pair in record:
        if pair is None:
            assert not game.pair_moves()
            game.play("pass")
        else:
            assert pair in game.pair_moves()
            game.push_unchecked(*pair)
    assert len(record) == playout.plies
    assert (playout.winner is not None) == bool(game.finished)
