"""The fast engine (mathgames.halma.fastplay) finds exactly the game's moves, in both modes.

Every test runs the kernel as Python; when numba is installed it runs the compiled kernel
too (compiled once per session, or loaded from numba's cache).
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.halma.bots import GreedyBot, RandomBot
from mathgames.halma.fastplay import FastEngine, engine_mode, jit_available, random_playout
from mathgames.halma.game import Game

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("halma_reference_fastplay",
                                               ROOT / "bench" / "halma_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

JIT = jit_available()
SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]
MODES = [pytest.param(False, id="python"),
         pytest.param(True, id="jit", marks=pytest.mark.skipif(
             not JIT, reason="numba is not installed: only the Python kernel runs"))]


def fast_moves(game: Game, jit: bool) -> set[tuple[int, int]]:
    moves = FastEngine.of(game.topology, game.players, jit).pair_moves(game)
    assert len(moves) == len(set(moves)), "a move listed twice (the choice would not be uniform)"
    return set(moves)


@pytest.mark.parametrize("jit", MODES)
@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_recorded_games_have_the_same_moves_in_every_position(board, players, jit):
    # greedy games with some random moves reach every stage, the goal lock included
    rng = random.Random(100 + players)
    game = Game(board, players, move_limit=500)
    bots = [GreedyBot(seed=p) if p % 2 == 0 else RandomBot(seed=p) for p in range(players)]
    locked = positions = 0
    while not game.is_over():
        moves = fast_moves(game, jit)
        assert moves == set(game.pair_moves()), game.position_text()
        positions += 1
        if game.ply % 20 == 0:
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
    assert positions > 50


@pytest.mark.parametrize("jit", MODES)
@settings(max_examples=15, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), plies=st.integers(0, 150))
def test_random_positions_have_the_same_moves_as_the_naive_reference(jit, setup, seed, plies):
    board, players = setup
    game = Game(board, players)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        game.play(bot.choose(game))
    moves = fast_moves(game, jit)
    assert moves == set(game.pair_moves())
    topo = game.topology
    assert {(topo.name(a), topo.name(b)) for a, b in moves} == set(
        reference.reference_moves_of_game(game))


@pytest.mark.parametrize("jit", MODES)
def test_a_hand_built_long_chain_and_the_goal_lock(jit):
    game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4", "f6", "h8"]})
    topo = game.topology
    assert {topo.name(b) for _a, b in fast_moves(game, jit)} == {
        "b1", "a2", "c3", "e5", "g7", "i9"}
    # the goal lock: from a14 (in its target camp) the piece may step to a15 and jump
    # over b14 to c14, but neither step to f13 nor jump over e13 to d12 (out of the camp)
    locked = Game.custom("star", 2, {0: ["a14", "b14"], 1: ["e13"]})
    topo = locked.topology
    moves = fast_moves(locked, jit)
    assert moves == set(locked.pair_moves())
    assert {topo.name(b) for a, b in moves if topo.name(a) == "a14"} == {"a15", "c14"}


@pytest.mark.parametrize("jit", MODES)
@pytest.mark.parametrize(("board", "players", "seed"),
                         [("star", 2, 4), ("star", 3, 5), ("star", 6, 6), ("halma", 2, 7),
                          ("halma", 4, 8)])
def test_random_playouts_are_legal_games(board, players, seed, jit):
    record: list = []
    playout = random_playout(board, players, turns=150, seed=seed, record=record, jit=jit)
    game = Game(board, players)
    for pair in record:
        if pair is None:
            assert not game.pair_moves()
            game.play("pass")
        else:
            assert pair in game.pair_moves()
            game.push_unchecked(*pair)
    assert len(record) == playout.plies
    if playout.winner is None:
        assert playout.plies == 150 and not game.finished
    else:
        assert game.finished == {playout.winner: playout.plies - 1}


def test_a_playout_stops_when_a_player_finishes():
    # random games rarely end within 200 plies; with a generous cap some do, and the
    # playout must stop at the very ply where the game says that someone finished
    engine = FastEngine.of("star", 2, jit=JIT)
    record: list = []
    for seed in range(50):
        record.clear()
        playout = engine.playout(3000, seed=seed, record=record)
        if playout.winner is not None:
            break
    else:  # pragma: no cover - 50 long random games without a finish
        pytest.fail("no random game finished")
    game = Game("star", 2)
    for pair in record:
        assert not game.finished
        if pair is None:
            game.play("pass")
        else:
            game.push_unchecked(*pair)
    assert game.finished == {playout.winner: playout.plies - 1}


@pytest.mark.skipif(not JIT, reason="numba is not installed")
@pytest.mark.parametrize(("board", "players"), [("star", 2), ("star", 6), ("halma", 3)])
def test_the_compiled_kernel_plays_the_same_games_as_the_python_one(board, players):
    for seed in (1, 2):
        games = [FastEngine.of(board, players, jit).playouts(2, turns=120, seed=seed)
                 for jit in (False, True)]
        assert games[0] == games[1]
        records: list[list] = [[], []]
        for jit, record in zip((False, True), records, strict=True):
            random_playout(board, players, turns=120, seed=seed, record=record, jit=jit)
        assert records[0] == records[1]


def test_the_choice_is_uniform_over_distinct_moves():
    # in a mid-game position every move comes up about equally often, although the pieces
    # have different numbers of moves (a choice of piece first would not be uniform)
    engine = FastEngine.of("star", 2, jit=JIT)
    position = Game("star", 2)
    bot = RandomBot(seed=9)
    for _ in range(12):
        position.play(bot.choose(position))
    moves = position.pair_moves()
    per_piece = Counter(a for a, _b in moves)
    assert max(per_piece.values()) >= 3 * min(per_piece.values())
    draws = 60 * len(moves)
    counts: Counter = Counter()
    for seed in range(draws):
        record: list = []
        engine.playout(1, seed=seed, record=record, game=position)
        counts[record[0]] += 1
    assert set(counts) == set(moves)
    expected = draws / len(moves)
    chi2 = sum((counts[m] - expected) ** 2 / expected for m in moves)
    # below the 0.1 % point of chi-squared (Wilson-Hilferty), and far below what a
    # choice of piece first gives
    k = len(moves) - 1
    assert chi2 < k * (1 - 2 / (9 * k) + 3.09 * (2 / (9 * k)) ** 0.5) ** 3
    pieces_first = sum((draws / len(per_piece) / per_piece[a] - expected) ** 2 / expected
                       for a, _b in moves)
    assert pieces_first > 3 * k


def test_seeds_decide_the_games():
    engine = FastEngine.of("star", 2, jit=JIT)
    a, b, c = ([], [], [])
    engine.playout(60, seed=3, record=a)
    engine.playout(60, seed=3, record=b)
    engine.playout(60, seed=4, record=c)
    assert a == b != c


def test_importing_the_engine_loads_neither_numba_nor_numpy():
    # game pages stay light: only a compiled engine, at its first use, loads them
    code = ("import sys\n"
            "from mathgames.halma.fastplay import FastEngine\n"
            "from mathgames.halma.game import Game\n"
            "FastEngine.of('star', 2, jit=False).pair_moves(Game('star', 2))\n"
            "print(sorted({'numba', 'numpy'} & set(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert done.stdout.strip() == "[]"


def test_the_engine_says_how_it_runs():
    assert engine_mode().startswith("compiled by numba" if JIT else "pure Python")
    with pytest.raises(ValueError, match="star with 2 players"):
        FastEngine.of("star", 2, jit=False).pair_moves(Game("star", 3))
