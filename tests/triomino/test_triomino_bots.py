"""Bots: legal moves only, greedy is greedy, the planner plays sensibly."""

from __future__ import annotations

import pytest

from mathgames.triomino import PRESETS, Game, Placement, Tile
from mathgames.triomino.bots import BOTS, GreedyBot, PlannerBot, RandomBot, make_bot
from tests.triomino.playing import play

T = Tile.parse


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
    with pytest.raises(ValueError) as refused:
        make_bot("oracle")
    assert str(refused.value) == "unknown bot 'oracle'; choose one of random, greedy, planner"
    with pytest.raises(ValueError) as refused:  # not a TypeError: a list cannot be looked up
        make_bot(["planner"])  # type: ignore[arg-type]
    assert str(refused.value) == "unknown bot ['planner']; choose one of random, greedy, planner"


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


def greedy_mid_game(seed: int, turns: int) -> Game:
    game = Game("pressman", 2, seed, history=False)
    while game.phase == "play" and game.turn < turns:
        game.apply(GreedyBot().choose(game))
    return game


@pytest.mark.parametrize("seed", range(4))
def test_the_planners_playout_follows_the_game_rules(seed):
    # given the true hands and pool order, the planner's fast playout between greedy
    # players must score exactly what the real game scores over the same turns
    from mathgames.triomino.bots import _Playout

    game = greedy_mid_game(seed, 8 + seed)
    if game.phase != "play":
        pytest.skip("the round ended early")
    playout = _Playout(game.rules, game.table.copy(), [list(h) for h in game.hands],
                       list(game.pool))
    before, turn, player = game.scores, game.turn, game.current
    for _ in range(12):
        if playout.over:
            break
        playout.turn(player)
        game.apply(GreedyBot().choose(game))
        while game.phase == "play" and game.turn == turn:  # draws until the turn ends
            game.apply(GreedyBot().choose(game))
        turn, player = game.turn, (player + 1) % 2
        assert [a - b for a, b in zip(game.scores, before, strict=True)] == playout.gain
        assert [sorted(h) for h in game.hands] == [sorted(h) for h in playout.hands]
        assert playout.over == (game.phase != "play")


def test_the_planner_guesses_only_unseen_tiles_and_what_the_opponent_may_hold():
    import random

    from mathgames.triomino import all_tiles
    from mathgames.triomino.bots import hand_candidates

    for seed in range(6):
        game = greedy_mid_game(seed, 12)
        if game.phase != "play":
            continue
        me, other = game.current, 1 - game.current
        seen = set(game.hands[me]) | set(game.table.tiles())
        unseen = [t for t in all_tiles() if t not in seen]
        narrowed = hand_candidates(game, other, unseen)
        hands, pool = PlannerBot._guess(game, game.hands[me], unseen, narrowed, other,
                                        random.Random(seed))
        assert hands[me] == game.hands[me]
        assert len(hands[other]) == len(game.hands[other]) and len(pool) == len(game.pool)
        assert set(hands[other]) <= set(narrowed)
        assert sorted(hands[other] + pool) == sorted(unseen)


def test_the_planner_stops_guessing_when_its_budget_is_spent():
    from mathgames.core.levels import TickingClock

    game = next(g for g in (greedy_mid_game(s, 6) for s in range(20))
                if g.phase == "play" and len(g.legal_placements()) >= 2
                and len(g.hands[g.current]) > 1 and len(
                    PlannerBot().cautious.scores(g, g.legal_placements())) >= 2)
    unlimited = PlannerBot(samples=5, clock=lambda: 0.0, budget=0.1)
    unlimited.choose(game)
    assert unlimited.last_samples == 5
    clock = TickingClock(0.04)  # each reading 40 ms later: spent after three guesses
    timed = PlannerBot(samples=1000, clock=clock, budget=0.1)
    kind, placement = timed.choose(game)
    assert kind == "place" and placement in game.legal_placements()
    assert timed.last_samples == 3
    assert clock.readings == 4  # once at the start, once before each later guess


def test_reading_skipped_points_never_rules_out_a_tile_a_greedy_player_holds():
    # a greedy player always takes its best points, so with a margin of one point the
    # tiles it holds are never ruled out, whether the planner reads only its latest turn
    # or every turn since its latest draw; and reading more turns rules out more
    from mathgames.triomino import all_tiles
    from mathgames.triomino.bots import _skipped_bonuses

    ruled_out = {1: 0, 9: 0}
    for seed in range(6):
        game = Game("pressman", 2, seed, history=False)
        while game.phase == "play" and game.turn < 30:
            me, other = game.current, 1 - game.current
            seen = set(game.hands[me]) | set(game.table.tiles())
            unseen = [t for t in all_tiles() if t not in seen]
            for turns in ruled_out:
                kept = _skipped_bonuses(game, other, unseen, 1, turns)
                assert set(game.hands[other]) <= set(kept)
                ruled_out[turns] += len(unseen) - len(kept)
            game.apply(GreedyBot().choose(game))
    assert ruled_out[9] > ruled_out[1] > 0


def last_round_position(seed: int, turns: int) -> Game | None:
    """A greedy two-player pressman game ``turns`` turns into the round that ends it."""
    def replay(stop) -> Game:
        game = Game("pressman", 2, seed, history=False)
        while game.phase != "game_over" and not stop(game):
            if game.phase == "round_over":
                game.next_round()
                continue
            game.apply(GreedyBot().choose(game))
        return game

    rounds = replay(lambda g: False).round
    starts: dict[int, int] = {}

    def there(game: Game) -> bool:
        starts.setdefault(game.round, game.turn)
        return (game.round == rounds and game.phase == "play" and not game.drawn
                and game.turn - starts[game.round] >= turns)

    game = replay(there)
    return game if game.phase == "play" else None


def test_reading_a_greedy_player_every_turn_never_rules_out_its_true_hand():
    # the planner reads the next player as greedy (ties to the lower tile), from the
    # start tile and every turn, draw and pass of the round: a greedy player's real
    # hand always remains possible, arrivals and all, while many tiles are ruled out
    from mathgames.triomino import all_tiles
    from mathgames.triomino.bots import _arrivals, _possible

    candidates = unseen_total = 0
    for seed in range(12):
        game = Game("pressman", 2, seed, history=False)
        while game.phase == "play":
            me, other = game.current, 1 - game.current
            if not game.drawn:
                seen = set(game.hands[me]) | set(game.table.tiles())
                unseen = [t for t in all_tiles() if t not in seen]
                first, capacity = _arrivals(game, other, unseen, 0)
                assert set(game.hands[other]) <= set(first)
                assert _possible(game.hands[other], first, capacity)
                candidates += len(first)
                unseen_total += len(unseen)
            game.apply(GreedyBot().choose(game))
    assert candidates < 0.75 * unseen_total


def test_a_hand_that_needs_more_draws_than_were_made_is_impossible():
    from mathgames.triomino.bots import _possible

    a, b, c = T("0-1-2"), T("1-1-3"), T("2-4-5")
    first = {a: 0, b: 1, c: 2}
    assert _possible([a, b, c], first, [9, 1, 1])
    assert not _possible([a, b, c], first, [9, 1, 0])  # nothing kept from the 2nd draw
    assert _possible([a, b], first, [9, 1, 0])
    assert not _possible([b, c], {**first, c: 1}, [9, 1, 0])  # two for one tile
