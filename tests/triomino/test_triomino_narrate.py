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


def test_a_turn_told_in_two_parts_tells_its_draws_once() -> None:
    game = Game("pressman", 2, seed=11)
    bot = GreedyBot()
    for _ in range(400):  # until a turn draws, then places or passes
        if game.phase != "play":
            break
        player, turn = game.current, game.turn
        start = len(game.log)
        while game.phase == "play" and game.current == player and game.turn == turn:
            game.apply(bot.choose(game))
        kinds = [item[2] for item in game.log[start:] if item[1] >= 0]
        if kinds[0] == "draw" and kinds[-1] in ("place", "pass"):
            break
    else:
        raise AssertionError("no turn drew a tile")
    name = ["Ann", "Ben"].__getitem__
    whole = describe_turn(game, name, turn)
    first_draw = start + 1  # the part after the first draw, told when the turn ends
    rest = describe_turn(game, name, turn, start=first_draw)
    draws = kinds.count("draw")
    assert whole.startswith(f"{name(player)} drew {draws} tile")
    assert whole.endswith(rest.split("; ")[-1])  # the same placement or pass, same points
    if draws == 1:
        assert "drew" not in rest
    else:
        assert rest.startswith(f"{name(player)} drew {draws - 1} tile")
    assert describe_turn(game, name, turn, start=len(game.log)) == ""
