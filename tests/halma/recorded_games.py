"""Shared by the engines' tests: the naive reference generator and recorded games.

A recorded game is a greedy game with some random moves (seeded), so that it reaches
every stage of a crossing, the goal lock included.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from mathgames.halma.bots import GreedyBot, RandomBot
from mathgames.halma.game import Game

ROOT = Path(__file__).resolve().parents[2]

SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]


def load_reference() -> ModuleType:
    """bench/halma_reference.py: the naive move generator, written from the rule sheet."""
    spec = importlib.util.spec_from_file_location("halma_reference", ROOT / "bench"
                                                  / "halma_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def recorded_positions(board: str, players: int, seed: int) -> Iterator[Game]:
    """Every position of a recorded game (the game itself, before each move is played)."""
    rng = random.Random(seed)
    game = Game(board, players, move_limit=500)
    bots = [GreedyBot(seed=p) if p % 2 == 0 else RandomBot(seed=p) for p in range(players)]
    locked = 0
    while not game.is_over():
        yield game
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
    assert locked > 0, "the goal lock was not exercised"


def reference_names(game: Game, moves: set[tuple[int, int]]) -> set[tuple[str, str]]:
    """The moves by cell names, as the reference lists them."""
    topo = game.topology
    return {(topo.name(a), topo.name(b)) for a, b in moves}


def replay(board: str, players: int, record: list, fill_rule: str = "bounded") -> Game:
    """A playout's record played through the checked game; every move must be legal there."""
    game = Game(board, players, fill_rule=fill_rule)
    for pair in record:
        if pair is None:
            assert not game.pair_moves(), "a pass with a move to play"
            game.play("pass")
        else:
            assert pair in game.pair_moves(), f"an illegal move {pair}"
            game.push_unchecked(*pair)
    return game
