"""Triomino's game told in words (mathgames.triomino.narrate): each turn with its points, also
once the next round is dealt, and how a round ended."""

from __future__ import annotations

from mathgames.triomino import Game
from mathgames.triomino.bots import GreedyBot
from mathgames.triomino.narrate import describe_turn, round_summary

NAMES = ["Ann", "Ben", "Cy"]


def test_every_turn_is_told_with_its_own_points_across_rounds() -> None:
    game = Game("pressman", 3, seed=11)
    assert game.rules.multi_round
    bots = [GreedyBot() for _ in range(3)]
    told: dict[int, str] = {}  # each turn as told right after it
    log_ends: list[tuple[int, int, str]] = []  # and where the log ended then
    ends = 0
    while game.phase != "game_over" and ends < 2:
        if game.phase == "round_over":
            lines = round_summary(game, NAMES.__getitem__)
            assert lines[0].startswith(f"Round {game.round} ")
            assert all(f"{name}: {game.hand_value(p)}" in lines[1]
                       for p, name in enumerate(NAMES))
            last = describe_turn(game, NAMES.__getitem__)
            game.next_round()
            ends += 1
            assert round_summary(game, NAMES.__getitem__) == []  # a round is played
            # the last turn of the round before, told the same after the new deal
            assert describe_turn(game, NAMES.__getitem__) == last
            continue
        player, turn = game.current, game.turn
        before = game.scores[player]
        while game.phase == "play" and game.current == player and game.turn == turn:
            game.apply(bots[player].choose(game))
        text = describe_turn(game, NAMES.__getitem__, turn)
        gained = game.scores[player] - before
        assert text.startswith(NAMES[player])
        assert text.endswith(f"({gained:+d})"), (text, gained)
        told[turn] = text
        log_ends.append((turn, len([i for i in game.log if i[1] >= 0]), text))
    assert ends == 2
    for turn, text in told.items():  # any turn, asked later, is told the same
        assert describe_turn(game, NAMES.__getitem__, turn) == text
    # and with the log read up to where it ended then, even a turn's number that came in
    # two rounds (the last turn of one, the first of the next)
    played = [i for i, item in enumerate(game.log) if item[1] >= 0]
    for turn, count, text in log_ends:
        assert describe_turn(game, NAMES.__getitem__, turn, end=played[count - 1] + 1) == text
    assert len({turn for turn, _c, _t in log_ends}) < len(log_ends)  # such a turn was told
