"""Shared by the bot tests: whole games played by bots, every action checked legal."""

from __future__ import annotations

from mathgames.triomino import Game


def play(game: Game, bots: list) -> Game:
    """Play ``game`` to its end with ``bots`` (one per seat); every action must be legal."""
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
