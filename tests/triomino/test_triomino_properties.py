"""Random games with every preset: invariants that must hold after every move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.triomino import PRESETS, Game, all_tiles, cell_corners, edge_neighbours


def check_invariants(game: Game) -> None:
    # the 56 tiles are conserved: table + hands + pool
    every = [*game.table.tiles(), *game.pool, *(t for h in game.hands for t in h)]
    assert sorted(every) == all_tiles()
    # every placed tile matches all its neighbours, edge and point alike
    digit_at = {}
    for placement in game.table.order:
        for point, digit in zip(cell_corners(placement.cell), placement.digits, strict=True):
            assert digit_at.setdefault(point, digit) == digit
    cells = {p.cell for p in game.table.order}
    for placement in game.table.order[1:]:
        assert any(n in cells for n in edge_neighbours(placement.cell))
    # scores are the sums of the score sheet
    for player in range(game.players):
        assert game.scores[player] == sum(e.points for e in game.sheet if e.player == player)
    if not game.rules.keep_score:
        assert game.sheet == []


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6),
       players=st.integers(2, 6), choices=st.randoms(use_true_random=False))
def test_random_games(preset, seed, players, choices):
    rules = PRESETS[preset]
    players = min(max(players, rules.min_players), rules.max_players)
    game = Game(preset, players, seed, history=False)
    moves = 0
    while game.phase != "game_over":
        if game.phase == "round_over":
            game.next_round()
            continue
        actions = game.legal_actions()
        assert actions, "a player in play always has a move"
        # prefer placing, so that games are not all draws
        places = [a for a in actions if a[0] == "place"]
        action = choices.choice(places) if places and choices.random() < 0.8 else \
            choices.choice(actions)
        game.apply(action)
        moves += 1
        assert moves < 5000, "every game ends"
        if moves % 7 == 0:
            check_invariants(game)
    check_invariants(game)
    assert game.winners
    again = Game.from_json(game.to_json())
    assert again.to_dict() == game.to_dict()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 40))
def test_save_load_and_undo_mid_game(seed, steps):
    game = Game("schmidt", 3, seed)
    rng = random.Random(seed)
    snapshots = [game.to_json()]
    for _ in range(steps):
        if game.phase != "play":
            break
        game.apply(rng.choice(game.legal_actions()))
        snapshots.append(game.to_json())
        loaded = Game.from_json(snapshots[-1])
        assert loaded.to_json() == snapshots[-1]
        assert [str(p) for p in loaded.legal_placements()] == \
            [str(p) for p in game.legal_placements()]
    while game.can_undo:
        game.undo()
        snapshots.pop()
        assert game.to_json() == snapshots[-1]
