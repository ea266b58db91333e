"""Triomino bot levels: the registry, legal moves, only public information, the clock."""

from __future__ import annotations

import random
from html import escape

import pytest

from mathgames.core.i18n import format_number
from mathgames.core.levels import games_won
from mathgames.triomino import Game
from mathgames.triomino.bots import LEVELS
from tests.triomino.playing import play


def never(*_args) -> float:
    raise AssertionError("only the hard Triomino level has a time budget and reads the clock")


def clock_for(name: str):
    """The easy and medium levels must never read the clock; the hard one gets a frozen
    clock (its budget is never spent, so its moves do not depend on the machine)."""
    return (lambda: 0.0) if name == "hard" else never


def test_the_registry_offers_easy_medium_hard_with_measured_words():
    assert list(LEVELS) == ["easy", "medium", "hard"]
    for name, level in LEVELS.items():
        assert level.name == name
        assert f"{format_number(level.figures['p99'], 1)} ms" in level.measured
        assert f"{format_number(level.figures['rate'])}%" in level.measured
        # a student reads the rate as games in 10, and no timing
        assert f"Wins {games_won(level.figures['rate'])} against" in level.description
        assert " ms" not in level.description and "%" not in level.description


@pytest.mark.parametrize("name", list(LEVELS))
def test_every_level_plays_whole_games_with_legal_moves(name):
    for seed in range(2):
        bots = [LEVELS[name].make(seed=p, clock=clock_for(name)) for p in range(3)]
        game = play(Game("pressman", 3, seed, history=False), bots)
        assert game.winners


def mid_game(seed: int, moves: int) -> Game:
    game = Game("pressman", 2, seed)
    bots = [LEVELS["medium"].make(), LEVELS["medium"].make()]
    for _ in range(moves):
        if game.phase != "play":
            break
        game.apply(bots[game.current].choose(game))
    return game


@pytest.mark.parametrize("name", list(LEVELS))
def test_a_bot_never_looks_at_other_hands_or_the_pool_order(name):
    rng = random.Random(5)
    for seed in range(4):
        game = mid_game(seed, 6 + seed)
        if game.phase != "play":
            continue
        other = 1 - game.current
        # the opponent's hand swapped for pool tiles, and the pool shuffled: the same
        # public table, the same own hand, so the same choice
        twin = Game.from_dict(game.to_dict())
        hand, pool = twin.hands[other], twin.pool
        k = min(len(hand), len(pool))
        hand[:k], pool[:k] = pool[:k], hand[:k]
        rng.shuffle(pool)
        assert twin.hands[other] != game.hands[other] or not k
        assert (LEVELS[name].make(seed=9, clock=clock_for(name)).choose(game)
                == LEVELS[name].make(seed=9, clock=clock_for(name)).choose(twin))


def test_the_set_up_panel_chooses_a_level_and_describes_each():
    from mathgames.triomino.bots import PlannerBot
    from mathgames.triomino.widget import TriominoApp

    app = TriominoApp(players=2, bots=1, bot="hard", seed=3)
    assert [v for _label, v in app.bot_select.options] == list(LEVELS)
    words, figures = app.level_help.value.split("<details")
    for level in LEVELS.values():
        assert escape(level.description) in words and escape(level.measured) in figures
    app.start_button.click()
    assert isinstance(app.bots[1], PlannerBot)
    assert TriominoApp(seed=3).bot_select.value == "medium"  # the default level
    assert TriominoApp(bot="planner", seed=3).bot_select.value == "hard"  # an earlier kind


def test_the_hard_level_honours_its_budget_through_the_clock():
    from mathgames.core.levels import TickingClock
    from mathgames.triomino.bots import HARD_BUDGET

    searched = 0
    for seed in range(6):
        game = mid_game(seed, 10 + seed)
        if game.phase != "play":
            continue
        clock = TickingClock(HARD_BUDGET / 2)  # each reading half the budget later
        bot = LEVELS["hard"].make(seed=1, clock=clock)
        action = bot.choose(game)
        assert action in game.legal_actions()
        assert bot.last_samples <= 2 and clock.readings <= 3
        searched += bot.last_samples > 0
    assert searched  # some of these positions were searched, within the budget
