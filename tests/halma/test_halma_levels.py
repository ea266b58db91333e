"""Halma bot levels: the registry, legal moves, the position untouched, a budget on a clock."""

from __future__ import annotations

from html import escape

import pytest

from mathgames.core.i18n import format_number
from mathgames.core.levels import TickingClock, games_won
from mathgames.halma.bots import LEVELS, levels_on
from mathgames.halma.game import Game


def frozen() -> float:
    return 0.0


def test_the_registry_offers_easy_medium_hard_with_measured_words():
    assert list(LEVELS) == ["easy", "medium", "hard"]
    for board in ("halma", "star"):
        for name, level in levels_on(board).items():
            assert level.name == name and level.factory is LEVELS[name].factory
            ms = level.figures["ms"]
            assert f"{format_number(level.figures['rate'])}%" in level.measured
            assert f"{format_number(ms, 2 if ms < 1 else 1)} ms" in level.measured
            # a student reads the rate as games in 10, and no timing
            assert f"Wins {games_won(level.figures['rate'])} against" in level.description
            assert " ms" not in level.description and "%" not in level.description
    # each board's own measurements (the README's table)
    assert levels_on("halma")["medium"].figures["rate"] == 89.8
    assert levels_on("star")["medium"].figures["rate"] == 94.2


@pytest.mark.parametrize(("board", "players"), [("star", 2), ("halma", 2), ("star", 3)])
def test_levels_play_legal_moves_and_leave_the_position_alone(board, players):
    game = Game(board, players, move_limit=60)
    names = list(LEVELS)
    bots = [LEVELS[names[p % 3]].make(seed=p) for p in range(players)]
    while not game.is_over():
        before = game.position_text()
        move = bots[game.to_move].choose(game)
        assert game.position_text() == before  # a bot only looks
        game.play(move)  # checked: raises on an illegal move


def test_the_search_stops_when_the_given_clock_passes_the_budget():
    game = Game("star", 2)
    full = LEVELS["hard"].make(clock=frozen)
    full.choose(game)
    assert full.last_depth == 4  # a clock that never moves: the whole depth
    clock = TickingClock(1.0)  # every reading a second later: out of time at once
    hurried = LEVELS["hard"].make(clock=clock)
    move = hurried.choose(game)
    assert game.copy().play(move) and hurried.last_depth < 4 and clock.readings <= 3
    clock = TickingClock(0.01)  # 10 ms a reading: 0.25 s allow about 25 readings
    bot = LEVELS["hard"].make(clock=clock)
    bot.choose(game)
    assert (clock.readings - 1) * clock.step <= bot.time_budget + 2 * clock.step


def test_the_set_up_panel_chooses_a_level_per_seat_and_describes_each():
    from mathgames.halma.bots import SearchBot
    from mathgames.halma.widget import HalmaApp

    app = HalmaApp(board="star", seats=["human", "hard"])
    assert [v for _label, v in app.seat_selects[1].options] == ["human", *LEVELS]
    assert app.seat_selects[2].value == "medium"  # the default level
    words, figures = app.level_help.value.split("<details")
    for level in levels_on("star").values():  # the star's figures on the star's page
        assert escape(level.description) in words and escape(level.measured) in figures
    assert escape(LEVELS["medium"].measured) not in figures  # not the Halma board's
    app.start_button.click()
    assert isinstance(app.bots[1], SearchBot) and app.bots[1].max_depth == 4
    legacy = HalmaApp(board="star", seats=["human", "search"])  # an earlier seat kind
    assert legacy.seat_selects[1].value == "hard"
