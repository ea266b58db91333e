"""Bots: always legal, and better than chance."""

from __future__ import annotations

import statistics

from hypothesis import given, settings
from hypothesis import strategies as st

from mathgames.matematiko.bots import BOTS, GreedyBot, RandomBot, StrongBot, make_bot, play_deal
from mathgames.matematiko.deck import shuffled_deck
from mathgames.matematiko.rules import DECK, score_grid


def _total(grid):
    return score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total


@settings(max_examples=15, deadline=None)
@given(st.permutations(DECK), st.sampled_from(sorted(BOTS)))
def test_no_bot_ever_makes_an_illegal_move(deck, name):
    deal = list(deck[:25])
    grid = play_deal(make_bot(name), deal)  # play_deal raises on an illegal cell
    assert sorted(grid) == sorted(deal)


def test_bots_choose_only_empty_cells_of_a_crowded_grid():
    grid = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, None, 11]
    called = [c for c in grid if c is not None] + [12]
    for bot in (RandomBot(0), GreedyBot(), StrongBot()):
        assert bot.choose(grid, 12, called) == 23


def test_greedy_and_strong_beat_random_on_the_same_deals():
    deals = [shuffled_deck(seed)[:25] for seed in range(12)]
    means = {bot.name: statistics.mean(_total(play_deal(bot, d)) for d in deals)
             for bot in (RandomBot(1), GreedyBot(), StrongBot())}
    assert means["greedy"] > means["random"] + 100
    assert means["strong"] > means["random"] + 100


def test_make_bot_refuses_unknown_names():
    import pytest

    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")
