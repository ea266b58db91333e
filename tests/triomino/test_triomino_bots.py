"""Bots: legal moves only, greedy is greedy, the planner plays sensibly."""

from __future__ import annotations

import pytest

from mathgames.triomino import PRESETS, Game, Placement, Tile
from mathgames.triomino.bots import BOTS, GreedyBot, PlannerBot, RandomBot, make_bot

T = Tile.parse


def play(game: Game, bots: list) -> Game:
    moves = 0
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        action = bots[game.current].choose(game)
        assert action in game.legal_actions() or (
            action[0] == "place" and action[1] in game.legal_placements())
        game.apply(action)
        moves += 1
        assert moves < 5000
    return game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_finishes_games_with_legal_moves(preset):
    rules = PRESETS[preset]
    players = 1 if rules.max_players == 1 else 3
    for seed in range(2):
        bots = [RandomBot(seed), GreedyBot(), PlannerBot()][:players]
        game = play(Game(preset, players, seed, history=False), bots)
        assert game.winners


def test_greedy_takes_the_bridge():
    # X = 1-2-3 on (2, 0), Y = 4-4-5 on (0, 1): 1-3-4 on up (1, 0) is a bridge (+40);
    # 2-2-3 also fits elsewhere (no bonus, 7 points): the greedy bot takes the bridge.
    game = Game.from_position("schmidt", [["1-3-4", "5-5-5", "2-2-3"], ["0-0-0"]],
                              table=[Placement(T("1-2-3"), (2, 0), 0),
                                     Placement(T("4-4-5"), (0, 1), 0)],
                              pool=["3-3-3"], checked=False)
    assert {p.tile for p in game.legal_placements()} == {T("1-3-4"), T("2-2-3")}
    kind, placement = GreedyBot().choose(game)
    assert kind == "place" and placement == Placement(T("1-3-4"), (1, 0), 0)


def test_greedy_and_planner_draw_or_pass_when_nothing_fits():
    game = Game.from_position("pressman", [["5-5-5"], ["0-0-0"]],
                              table=[Placement(T("1-2-3"), (0, 0), 0)], pool=["4-4-4"])
    assert GreedyBot().choose(game) == ("draw", None)
    assert PlannerBot().choose(game) == ("draw", None)
    game.draw()
    assert PlannerBot().choose(game) == ("pass", None)


def test_planner_beats_random():
    wins = 0
    for seed in range(12):
        seat = seed % 2
        bots = [RandomBot(seed), RandomBot(seed)]
        bots[seat] = PlannerBot()
        game = play(Game("schmidt", 2, 900 + seed, history=False), bots)
        wins += seat in game.winners
    assert wins >= 9


def test_make_bot():
    assert set(BOTS) == {"random", "greedy", "planner"}
    assert isinstance(make_bot("planner"), PlannerBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


@pytest.mark.parametrize("preset", ["pressman", "family", "schmidt"])
def test_hand_candidates_never_rule_out_a_tile_actually_held(preset):
    from mathgames.triomino import all_tiles
    from mathgames.triomino.bots import hand_candidates

    narrowed = 0
    for seed in range(6):
        game = Game(preset, 3, seed, history=False)
        bots = [GreedyBot(), PlannerBot(), RandomBot(seed)]
        while game.phase == "play":
            off_table = [t for t in all_tiles() if t not in set(game.table.tiles())]
            for player in range(game.players):
                candidates = set(hand_candidates(game, player, off_table))
                assert set(game.hands[player]) <= candidates
                narrowed += len(candidates) < len(off_table)
            game.apply(bots[game.current].choose(game))
    if preset == "schmidt":  # one may draw at will there: nothing can be inferred
        assert narrowed == 0
    else:
        assert narrowed > 0
