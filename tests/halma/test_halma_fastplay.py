"""The fast engine (mathgames.halma.fastplay) finds exactly the game's moves, in both modes.

Every test runs the kernel as Python; when numba is installed it runs the compiled kernel
too (compiled once per session, or loaded from numba's cache).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mathgames.halma.bots import RandomBot
from mathgames.halma.fastplay import FastEngine, engine_mode, jit_available, random_playout
from mathgames.halma.game import Game, pair_moves
from tests.halma.recorded_games import (
    ROOT,
    SETUPS,
    load_reference,
    recorded_positions,
    reference_names,
    replay,
)

reference = load_reference()

JIT = jit_available()
MODES = [pytest.param(False, id="python"),
         pytest.param(True, id="jit", marks=pytest.mark.skipif(
             not JIT, reason="numba is not installed: only the Python kernel runs"))]


def fast_moves(game: Game, jit: bool) -> set[tuple[int, int]]:
    moves = FastEngine.of(game.topology, game.players, jit, game.fill_rule).pair_moves(game)
    assert len(moves) == len(set(moves)), "a move listed twice (the choice would not be uniform)"
    return set(moves)


@pytest.mark.parametrize("jit", MODES)
@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_recorded_games_have_the_same_moves_in_every_position(board, players, jit):
    positions = 0
    for game in recorded_positions(board, players, seed=100 + players):
        moves = fast_moves(game, jit)
        assert moves == set(game.pair_moves()), game.position_text()
        positions += 1
        if game.ply % 20 == 0:
            assert reference_names(game, moves) == set(reference.reference_moves_of_game(game))
    assert positions > 50


@pytest.mark.parametrize("jit", MODES)
@settings(max_examples=15, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), plies=st.integers(0, 150),
       rule=st.sampled_from(["bounded", "literal"]))
# the random game of issue 57: over at ply 96 under the literal fill rule
@example(setup=("star", 6), seed=683, plies=97, rule="literal")
@example(setup=("star", 6), seed=683, plies=97, rule="bounded")
def test_random_positions_have_the_same_moves_as_the_naive_reference(jit, setup, seed, plies,
                                                                    rule):
    board, players = setup
    game = Game(board, players, fill_rule=rule)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        if game.is_over():  # a random game may end (the fill rule, a player home)
            break
        game.play(bot.choose(game))
    moves = fast_moves(game, jit)
    p = game.to_move
    # the engine lists the moves of the position, over or not: the rules core's generator
    assert moves == set(pair_moves(game.occ, game.cells[p], game.topology,
                                   game.target_masks[p]))
    if game.is_over():
        assert game.pair_moves() == [] and game.legal_moves() == []
        result = game.result()
        assert result.reason in ("win", "shared", "blocked")
        assert set(result.winners) == set(game.finished)
    else:
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
    game = replay(board, players, record)
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


def _near_the_end(rule: str, seed: int) -> list[Game]:
    """Positions of a seeded 6-player game of easy bots in its last 40 plies, before anyone
    finished (the fast engine knows no same-round rule)."""
    from mathgames.halma.bots import LEVELS

    game = Game("star", 6, fill_rule=rule)
    bots = [LEVELS["easy"].make(seed * 10 + p) for p in range(6)]
    positions = []
    while not game.is_over():
        positions.append(game.copy())
        pair = bots[game.to_move].choose_pair(game)
        game.play("pass") if pair is None else game.push_unchecked(*pair)
    return [g for g in positions[-40::4] if not g.finished]


@pytest.mark.parametrize("jit", MODES)
@pytest.mark.parametrize("rule", ["bounded", "literal"])
def test_playouts_end_where_the_game_ends_under_each_fill_rule(rule, jit):
    # from positions near the end of bot games, random playouts often finish someone,
    # by the fill rule too: the engine must stop at the very ply where the game says so
    engine = FastEngine.of("star", 6, jit, rule)
    finished = 0
    for seed in (0, 1):
        for start in _near_the_end(rule, seed):
            for playout_seed in range(4):
                record: list = []
                playout = engine.playout(80, playout_seed, record, game=start)
                game = start.copy()
                for ply, pair in enumerate(record, 1):
                    assert not game.finished
                    game.play("pass") if pair is None else game.push_unchecked(*pair)
                    if game.finished:
                        assert (ply, min(game.finished)) == (playout.plies, playout.winner)
                        finished += 1
                        break
                else:
                    assert playout.winner is None and playout.plies == 80
    assert finished >= 10
    other = "literal" if rule == "bounded" else "bounded"
    with pytest.raises(ValueError, match=f"the {rule} fill rule, not star with 6 and {other}"):
        engine.pair_moves(Game("star", 6, fill_rule=other))
    with pytest.raises(ValueError, match="not 'swap'"):
        FastEngine.of("star", 6, jit, "swap")


@pytest.mark.parametrize("rule", ["bounded", "literal"])
def test_bitboard_playouts_end_where_the_game_ends_under_each_fill_rule(rule):
    from mathgames.halma.bitboard import random_playout as bit_playout

    for seed in range(6):
        record: list = []
        playout = bit_playout("star", 6, 400, seed=seed, record=record, fill_rule=rule)
        game = replay("star", 6, record, fill_rule=rule)
        if playout.winner is None:
            assert playout.plies == 400 and not game.finished
        else:
            assert game.finished == {playout.winner: playout.plies - 1}
    with pytest.raises(ValueError, match="not 'swap'"):
        bit_playout("star", 6, 10, seed=1, fill_rule="swap")


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
