"""Bots: legal moves, no stalls, the search bot's look-ahead, the crossing solver."""

from __future__ import annotations

import pytest

from mathgames.core.levels import TickingClock
from mathgames.halma.bots import GreedyBot, SearchBot, cost_table, make_bot
from mathgames.halma.game import Game
from mathgames.halma.solutions import HOW_FOUND, SOLUTIONS, best_crossing
from mathgames.halma.solver import parity_lower_bound, replay_crossing, solve_crossing

SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]


@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_greedy_bots_finish_their_games(board, players):
    limit = 1500
    for seed in range(2):
        game = Game(board, players, move_limit=limit)
        bots = [GreedyBot(seed=seed * 10 + p) for p in range(players)]
        while not game.is_over():
            game.play(bots[game.to_move].choose(game))  # checked: every bot move is legal
        result = game.result()
        assert result.reason in ("win", "shared"), (board, players, seed, game.ply)
        assert game.ply < limit


@pytest.mark.parametrize(("board", "players"), [("star", 2), ("halma", 2), ("star", 3),
                                                ("halma", 4)])
def test_search_bots_finish_their_games(board, players):
    game = Game(board, players, move_limit=1500)
    # a ticking clock, not the machine's: the same game on a fast or a busy machine
    bots = [SearchBot(time_budget=0.01, seed=p, clock=TickingClock(0.0005)) if p % 2 == 0
            else GreedyBot(seed=p) for p in range(players)]
    while not game.is_over():
        game.play(bots[game.to_move].choose(game))
    assert game.result().reason in ("win", "shared")


def test_search_bot_takes_the_winning_move_and_the_fill_rule_win():
    north = ["a14", "b14", "c14", "d14", "a15", "b15", "c15", "a16", "b16", "a17"]
    game = Game.custom("star", 2, {0: [*north[:3], "h13", *north[4:]], 1: ["a1", "a2"]})
    assert str(SearchBot(time_budget=0.2).choose(game)) == "h13-d14"
    assert str(GreedyBot().choose(game)) == "h13-d14"


def test_search_bot_prepares_a_long_jump_that_greedy_misses():
    # c1-b2 gains nothing at once but opens a1-c3-e5-g7 (12 rows) on the next turn
    base = Game.custom("halma", 2, {0: ["a1", "c1", "d4", "f6"], 1: ["p1"]})
    outcomes = {}
    for bot in (GreedyBot(seed=1), SearchBot(time_budget=2.0, max_depth=3)):
        game = base.copy()
        opponent = GreedyBot(seed=2)
        for _ in range(2):
            game.play(bot.choose(game))
            game.play(opponent.choose(game))
        outcomes[bot.name] = game.rows_to_go(0)
    assert outcomes["search"] < outcomes["greedy"]
    assert base.rows_to_go(0) - outcomes["search"] >= 12


def test_search_bot_deepens_within_its_budget():
    game = Game("star", 2)
    bot = SearchBot(time_budget=0.5, max_depth=3)
    bot.choose(game)
    assert bot.last_depth >= 2


def test_cost_table_makes_the_camp_the_cheapest_cells():
    for board, players in SETUPS:
        game = Game(board, players)
        for p in range(players):
            cost = cost_table(game, p)
            inside = max(cost[c] for c in game.targets[p])
            assert all(cost[c] > inside for c in range(game.topology.size)
                       if c not in game.targets[p])


def test_make_bot():
    assert isinstance(make_bot("greedy", seed=1), GreedyBot)
    with pytest.raises(ValueError) as refused:
        make_bot("oracle")
    assert str(refused.value) == "unknown bot 'oracle'; choose one of greedy, search, random"
    with pytest.raises(ValueError) as refused:  # not a TypeError: a dict cannot be looked up
        make_bot({"search": 1})  # type: ignore[arg-type]
    assert str(refused.value) == "unknown bot {'search': 1}; choose one of greedy, search, random"


# -- the solitaire crossing -------------------------------------------------------------------

def test_stored_solutions_replay_and_beat_the_lower_bound():
    assert len(best_crossing("star")) == 27  # the proven minimum (Bell 2009)
    for key, moves in SOLUTIONS.items():
        board, pieces = key.split("-")
        game = replay_crossing(board, moves, int(pieces))
        assert game.result().reason == "win", key
        assert len(moves) >= parity_lower_bound(board, int(pieces))


def test_parity_lower_bound_is_below_the_known_minimum():
    assert parity_lower_bound("star") <= 27
    assert parity_lower_bound("star") >= 10


def test_small_beam_finds_a_crossing():
    found = solve_crossing("star", width=100)
    assert found is not None
    assert replay_crossing("star", found.moves).result().reason == "win"


@pytest.mark.slow
def test_solver_refinds_the_27_move_star_crossing():
    width, lateral, compact = HOW_FOUND["star-10"]
    found = solve_crossing("star", width=width, lateral=lateral, compact=compact)
    assert found is not None and len(found) == 27
    assert replay_crossing("star", found.moves).result().reason == "win"
